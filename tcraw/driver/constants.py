"""Enum values from cuda.h, shared by every backend (the numbers are the driver's ABI)."""

# CUdevice_attribute
DEV_MAX_THREADS_PER_BLOCK = 1
DEV_MAX_BLOCK_DIM = (2, 3, 4)
DEV_MAX_GRID_DIM = (5, 6, 7)
DEV_MAX_SHARED_MEMORY_PER_BLOCK = 8
DEV_CLOCK_RATE_KHZ = 13
DEV_MULTIPROCESSOR_COUNT = 16
DEV_MEMORY_CLOCK_RATE_KHZ = 36
DEV_GLOBAL_MEMORY_BUS_WIDTH = 37
DEV_L2_CACHE_SIZE = 38
DEV_COMPUTE_CAPABILITY_MAJOR = 75
DEV_COMPUTE_CAPABILITY_MINOR = 76
DEV_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97

# CUfunction_attribute
FUNC_MAX_THREADS_PER_BLOCK = 0
FUNC_SHARED_SIZE_BYTES = 1
FUNC_NUM_REGS = 4
FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8

# CUtensorMapDataType (as (code, element bytes)), CUtensorMapSwizzle, CUtensorMapL2promotion
TMA_FP16 = (6, 2)
TMA_BF16 = (9, 2)
TMA_FP32 = (7, 4)
TMA_UINT8 = (0, 1)     # fp8 and int8 inputs: the copy engine moves bytes
TMA_INT32 = (3, 4)     # int8's s32 output
TENSOR_MAP_SWIZZLE_NONE, TENSOR_MAP_SWIZZLE_128B = 0, 3
# Every map's. On A's and B's it costs 06's 128 × 256 pairs 0.27 M more L2 sectors read at
# 16384×256×1024 than 128 bytes or none (on C's, nothing); yet with no promotion the pick ran 1.2 %
# slower there, and within 0.5 % at 1024³, 4096³ and 1024×1024×8192 (an H100,
# docs/results/2026-12-07-h100-exit-wait-l2-promotion/; scripts/promotion_probe.py sets it per operand)
TENSOR_MAP_L2_PROMOTION_256B = 3
