// tile_order.cuh — the order blocks take C's tiles in, shared by 06/07 (wgmma_tma.cuh) and 08.
//
// Walking tiles row by row, the blocks running at once read one row panel of A and every column
// panel of B; walking M first inside bands of `group` tile rows, they read a few panels of each,
// which then stay in L2 while the band's other blocks need them.
#pragma once

// Tile number → (tile row, tile column) in bands of `group` tile rows (the last band may be
// shorter); group 1 is plain row order.
__device__ __forceinline__ void tile_coords(int tile, int tiles_m, int tiles_n, int group, int& tile_m, int& tile_n) {
    const int band = group * tiles_n, first_m = tile / band * group;
    const int rows = min(tiles_m - first_m, group), in_band = tile % band;
    tile_m = first_m + in_band % rows;
    tile_n = in_band / rows;
}
