"""What a kernel is to tcraw: ``Kernel`` — source, entry, precision, the tile a problem is padded
to, launch geometry, and for kernels with several configurations how one is picked (the
registry's and a user's alike) — ``Geometry``, and what every family's factory shares: its macros
checked and spelt as -D, the problem checked, the clusters a GPU holds at once."""

import os
import re
from dataclasses import dataclass, replace
from typing import Callable

from .errors import UsageError
from . import validate
from .precision import Precision
from .validate import INT32_MAX, defines as checked_defines, is_whole


def cdiv(a, b):
    return -(-a // b)


def spelt_macros(macros, unlike=None):
    """Macros as records and messages spell them, "BN=128+CLUSTER=1" — those that differ from
    ``unlike`` (a dict of defaults) where it is given."""
    return "+".join(f"{name}={value}" for name, value in macros.items() if unlike is None or value != unlike[name])


@dataclass(frozen=True)
class Geometry:
    """A launch's shape: grid and block as (x, y, z), and dynamic shared memory in bytes."""

    grid: tuple
    block: tuple
    smem_bytes: int = 0

    @property
    def blocks(self):
        """How many blocks the grid launches."""
        return self.grid[0] * self.grid[1] * self.grid[2]


def checked_min_arch(value, what="min_arch"):
    """A kernel's lowest compute capability as a whole number (80), given so or as --arch spells a
    target ("sm_80", "80", "8.0"); an arch-specific one (sm_90a) is min_arch 90 with arch_specific."""
    cc = value
    if isinstance(value, str):
        from .compiler import Arch
        try:
            arch = Arch.parse(value)
        except UsageError:
            raise UsageError(f"{what} {value!r}: write a compute capability such as 80 (or sm_80, 8.0)") from None
        if arch.suffix == "a":
            raise UsageError(f"{what} {value!r}: give the compute capability alone ({arch.cc}); the "
                             "'a' target is arch_specific=True (--arch-specific)")
        if arch.suffix:
            raise UsageError(f"{what} {value!r}: give the compute capability alone ({arch.cc}); tcraw builds a "
                             "kernel for each arch or for sm_XXa alone, not for an 'f' family")
        cc = arch.cc
    if not is_whole(cc, 50, 200):
        raise UsageError(f"{what} is a compute capability from 50 to 200, such as 80 (or \"sm_80\"); got {value!r}")
    return int(cc)


@dataclass(frozen=True)
class Kernel:
    """A matmul kernel declared once — the registry's and a user's alike. It takes (A, B, C, M,
    N, K) with row-major A (M×K), B (K×N), C (M×N) (then a workspace and tensor maps where the
    fields below say so). ``source`` is a path (relative: to cuda_src/, or in a spec to the spec
    file where it is there: spec_source); ``precision`` a Precision or its key ("fp16"); ``tile``
    what M, N, K are zero-padded to ((1, 1, 1): any shape); ``geometry`` maps the padded (M, N, K)
    to a Geometry."""

    name: str
    source: str
    entry: str
    precision: Precision
    min_arch: int
    tile: tuple               # (m, n, k) the problem is zero-padded up to a multiple of
    geometry: Callable        # (m, n, k) padded -> Geometry
    defines: tuple = ()
    summary: str = ""
    align: int = 4            # bytes every operand pointer must be aligned to (WMMA loads: 32)
    # Built for sm_XXa (wgmma, setmaxnreg): such code runs on min_arch exactly, not on later GPUs.
    arch_specific: bool = False
    # TMA kernels: (box rows, box cols) of A and of B (and of C, when the kernel also stores
    # through TMA; then, 06/07, of A again: the 8-row boxes of tiles at M's edge); the launch
    # appends one tensor map per entry after (A, B, C, M, N, K), A's and B's with the element
    # type from tma_element, C's that of the precision's output (matmul.c_element).
    tma_boxes: tuple = ()
    tma_element: tuple = ()
    # Persistent kernels loop over tiles: launch_geometry caps the grid at one block per SM
    # (a whole number of clusters, when the kernel is built with __cluster_dims__) and at the
    # blocks the device holds at once in such clusters (matmul.resident_geometry).
    persistent: bool = False
    cluster: int = 1
    # Kernels that need device scratch beside their operands (06's stream-K flags): blocks in
    # the launch grid -> bytes. The launch passes it after (A, B, C, M, N, K),
    # zeroed once; such kernels leave it as they found it.
    workspace: Callable | None = None
    include_dirs: tuple = ()  # -I, before the CUDA headers' ("name": after the including file's directory)
    # The command-line arguments that declare this kernel again in a child process (--isolate,
    # check): () for the registry's, --spec FILE or the --source flags for a user's.
    origin: tuple = ()
    # Bytes each operand's row pitch must be a multiple of (TMA kernels: 16, a tensor map's
    # stride); an operand whose rows are not is copied to a pitched buffer on the device inside
    # the timed launch (matmul.Pitched). 0: the tile padding already gives what the kernel needs.
    pitch: int = 0
    # Operands ("A", "B") copied the same way, to rows of a 128-byte multiple (matmul.COPY_PITCH_BYTES),
    # wherever their rows start off 128-byte lines though a multiple of ``pitch``: a TMA box row of
    # such an operand costs the L2 two or more read requests (06's pick: A where the copy costs less
    # than those requests, wgmma.wgmma_copies_a_to_lines).
    lines: tuple = ()
    # How B may lie in memory: "row" (K×N, N contiguous — tcraw's default) and/or "col" (K-major:
    # stored N×K, what wgmma's FP8/INT8/TF32 forms and cuBLASLt's FP8 "TN" take).
    b_layouts: tuple = ("row",)
    max_m: int = 0            # the largest M the kernel is right for (0: any); 06 with A_ROWS loads only so many
    # 06 with B_REALIGN: B is read in place at any row pitch — never copied to one — through a tensor
    # map of its rows 8 at a time (K/8 rows of 8N elements, 16N bytes apart), boxes unswizzled
    # (matmul.operand_tensor_maps; the .cu's b_realign).
    realign_b: bool = False
    # 06/07 with C_PLAIN: C is written in place at any row pitch — never to a pitched copy — by the
    # kernel's own stores; its tensor map is a stand-in the kernel never uses (matmul.operand_tensor_maps).
    plain_c: bool = False
    # A kernel with several configurations (06): the macros a caller may override (tunables),
    # configure(picked, overrides) -> that configuration as a Kernel, pick(m, n, k, sm_count) ->
    # the macros for a problem, and configs, every macro set pick can return (`compile --out`).
    # A configured Kernel's ``variant`` names its macros apart from the registry's (file names).
    tunables: tuple = ()
    configure: Callable | None = None
    pick: Callable | None = None
    configs: tuple = ()
    variant: str = ""

    def __post_init__(self):
        """Refuse a declaration that could only fail later (a spec's, or flags')."""
        if not is_name(self.name):
            raise UsageError(f"kernel name {self.name!r:.140}: use letters, digits and _ - . + = [ ], at most "
                             f"{NAME_MOST} of them, not starting with - nor dots alone (it names files and "
                             "command-line arguments)")
        if isinstance(self.source, os.PathLike):
            object.__setattr__(self, "source", os.fspath(self.source))
        if not isinstance(self.entry, str) or not self.entry or not isinstance(self.source, str):
            raise UsageError(f"kernel {self.name}: source (a path) and entry (the symbol) must be text")
        tile = tuple(self.tile) if isinstance(self.tile, (tuple, list)) else ()
        if len(tile) != 3 or not all(is_whole(v, 1) for v in tile):
            raise UsageError(f"kernel {self.name}: tile must be three whole numbers ≥ 1 (M, N, K), got "
                             f"{self.tile!r}; (1, 1, 1) says the kernel takes any shape")
        tile = tuple(int(v) for v in tile)   # (numpy's widths wrap in the padding's products)
        object.__setattr__(self, "tile", tile)
        if not isinstance(self.tma_boxes, (tuple, list)) or not all(
                isinstance(b, (tuple, list)) and len(b) == 2 and all(is_whole(v, 1, 256) for v in b)
                for b in self.tma_boxes):
            raise UsageError(f"kernel {self.name}: tma_boxes is a tuple of (rows, cols) boxes, each side 1–256, got "
                             f"{self.tma_boxes!r}")
        if len(self.tma_boxes) > 4:   # (matmul.operand_tensor_maps: one map per box, in this order)
            raise UsageError(f"kernel {self.name} declares {len(self.tma_boxes)} TMA boxes; tcraw encodes maps of A, "
                             "B, C and A again (06/07's 8-row boxes at M's edge), in that order: at most 4")
        if max(tile) > INT32_MAX:   # (M, N, K reach the kernel as int: so do their padded sizes)
            raise UsageError(f"kernel {self.name}: tile {tile} — each side at most 2^31 − 1")
        if not callable(self.geometry):
            raise UsageError(f"kernel {self.name}: geometry must be a function of (m, n, k) returning a "
                             "Geometry (tcraw.tile_geometry makes one)")
        if self.workspace is not None and not callable(self.workspace):
            raise UsageError(f"kernel {self.name}: workspace is None or a function of the launch's blocks "
                             f"returning bytes, got {self.workspace!r}")
        # (each is used in arithmetic at launch — a pointer modulo align, SMs modulo cluster — where a
        # wrong one would fail far from the declaration that set it)
        for field, least, most, what in (("align", 1, 256, "bytes each operand pointer is aligned to (a Kernel's "
                                                           "default 4, --source's 16; WMMA 32)"),
                                         ("cluster", 1, 16, "blocks a cluster (1: none)"),
                                         ("pitch", 0, 256, "bytes each operand's row pitch is a multiple of (0: any)"),
                                         ("max_m", 0, None, "the largest M the kernel is right for (0: any)")):
            value = getattr(self, field)
            if not is_whole(value, least, most) or (field in ("align", "pitch") and int(value) & (int(value) - 1)):
                raise UsageError(f"kernel {self.name}: {field} is {what}: a whole number "
                                 f"{f'in {least}–{most}' if most else f'≥ {least}'}"
                                 f"{', a power of two' if field in ('align', 'pitch') else ''}; got {value!r}")
            object.__setattr__(self, field, int(value))
        if self.cluster > 1 and not self.persistent:   # (only a persistent grid is cut to whole clusters)
            raise UsageError(f"kernel {self.name}: cluster={self.cluster} is for persistent kernels (persistent=True: "
                             "a block per SM, the grid a whole number of clusters); a kernel of one block a tile "
                             "declares its clusters with __cluster_dims__ in the source and a grid they divide")
        layouts = self.b_layouts
        if isinstance(layouts, str) or not isinstance(layouts, (tuple, list)) or not layouts or \
                not set(layouts) <= {"row", "col"}:
            raise UsageError(f"kernel {self.name}: b_layouts is a tuple of \"row\" (B stored K×N) and/or \"col\" "
                             f"(N×K), at least one; got {layouts!r}")
        object.__setattr__(self, "b_layouts", tuple(layouts))
        if isinstance(self.lines, str) or not isinstance(self.lines, (tuple, list)) or \
                not set(self.lines) <= {"A", "B"} or len(set(self.lines)) != len(self.lines):
            raise UsageError(f"kernel {self.name}: lines is a tuple of the operands copied to 128-byte rows where "
                             f"theirs start off 128-byte lines, \"A\" and/or \"B\" once each; got {self.lines!r}")
        object.__setattr__(self, "lines", tuple(self.lines))
        if self.lines and not self.pitch:   # (only a pitch-taking kernel reads a copy at its own pitch)
            raise UsageError(f"kernel {self.name}: lines {self.lines} copies operands to 128-byte rows for a kernel "
                             "that reads them at any pitch (pitch > 0: TMA's tensor maps); this one's pitch is 0")
        if "B" in self.lines and self.realign_b:
            raise UsageError(f"kernel {self.name}: B is realigned in place (realign_b), never copied: take \"B\" "
                             "out of lines")
        object.__setattr__(self, "min_arch", checked_min_arch(self.min_arch, f"kernel {self.name}: min_arch"))
        # (specs may name it: "fp16")
        object.__setattr__(self, "precision", validate.precision(self.precision, f"kernel {self.name}: "))
        for field in ("defines", "include_dirs"):
            object.__setattr__(self, field, texts(getattr(self, field), field, f"kernel {self.name}: "))
        try:
            checked_defines(self.defines)
        except UsageError as exc:
            raise UsageError(f"kernel {self.name}: {exc}") from None
        for field in ("arch_specific", "persistent", "realign_b", "plain_c"):
            if getattr(self, field) not in (True, False):   # (1 and 0 are the same; "yes" is not)
                raise UsageError(f"kernel {self.name}: {field} is True or False, got {getattr(self, field)!r}")
        if self.arch_specific and self.min_arch < 90:
            raise UsageError(f"kernel {self.name}: arch-specific targets (sm_90a …) begin at sm_90; its min_arch "
                             f"is {self.min_arch} (give 90 or later, or build it for every arch from there)")
        if not isinstance(self.summary, str):
            raise UsageError(f"kernel {self.name}: summary is text, got {self.summary!r}")
        if (self.configure is None) != (self.pick is None) or not all(
                f is None or callable(f) for f in (self.configure, self.pick)) or \
                (self.configure is None and (self.tunables or self.configs)):
            raise UsageError(f"kernel {self.name}: a kernel with several configurations declares configure, pick, "
                             "tunables and configs together (kernels.wgmma_kernel shows how); one with one "
                             "declares none of them")

    def configured(self, m, n, k, sm_count, overrides=None):
        """This kernel as it runs on (m, n, k) with ``sm_count`` SMs: its own configuration, or
        the one its ``pick`` chooses, with ``overrides`` (macro -> value, e.g. {"BN": 128}) over
        it. The record's ``config`` says which was run (06's A_LINES, the host's, builds the same
        code: its ``pitched`` operands say it — A copied where its rows lie off 128-byte lines)."""
        m, n, k, sm_count = checked_problem(m, n, k, sm_count)
        if overrides is not None and not isinstance(overrides, dict):
            raise UsageError(f"overrides are a dict of MACRO -> whole number, e.g. {{'BN': 128}}, not {overrides!r}")
        overrides = dict(overrides or {})
        for name, value in overrides.items():   # None: the configuration's own, where a kernel has one
            if value is not None and not is_whole(value):
                raise UsageError(f"kernel {self.name} cannot take {name}={value!r}: it is a whole number ≥ 0")
            overrides[name] = value if value is None else int(value)   # (numpy's widths wrap)
        unknown = [name for name in overrides if name not in self.tunables]
        if unknown or (overrides and not self.configure):
            raise UsageError(f"kernel {self.name} has no configuration macro {(unknown or list(overrides))[0]} "
                             "to override" + (f"; its macros: {', '.join(self.tunables)}" if self.configure else
                                              " (it has one configuration, fixed when it was declared)"))
        if not self.configure:
            return self
        picked = self._own_call("pick", self.pick, m, n, k, sm_count)
        if not isinstance(picked, dict):
            raise UsageError(f"kernel {self.name}: its pick({m}, {n}, {k}, {sm_count}) gave {picked!r:.80}; it must "
                             "give a dict of MACRO -> value (one of its configs)")
        try:
            return self._as_this(self._own_call("configure", self.configure, picked, overrides))
        except UsageError as exc:
            if not picked:
                raise
            # the macros the message names may be the pick's, not the caller's: say which were which
            asked, pick = spelt_macros(overrides), spelt_macros(picked)
            raise UsageError(f"{exc} — {f'{asked} was asked' if overrides else f'{self.name} was built'} over the "
                             f"configuration picked for {m}×{n}×{k}: {pick}") from None

    def configurations(self):
        """Every configuration ``pick`` can choose (itself, for a kernel with one)."""
        if not self.configure:
            return [self]
        built = []
        for config in self.configs:
            try:
                built.append(self._as_this(self._own_call("configure", self.configure, config, {})))
            except UsageError as exc:   # (a kernel declared with macros of its own that one of them cannot take)
                raise UsageError(f"{exc} — in {self.name}'s configuration {spelt_macros(config)}, one of those "
                                 "it picks from") from None
        return built

    def _as_this(self, configured):
        """A configuration of this kernel under this kernel's name and origin: ``configure`` builds
        it as it was declared, but a copy made with another name (dataclasses.replace(KERNELS[
        "wgmma_tma_fp16"], name="mine")) runs and records as that copy. (Its source is configure's
        own: a spec's are resolved as the spec's kernels are, load_spec.)"""
        if not isinstance(configured, Kernel):
            raise UsageError(f"kernel {self.name}: its configure gave {configured!r:.80}; it must give a tcraw "
                             "Kernel (kernels.wgmma_kernel's returns one)")
        return replace(configured, name=self.name, origin=self.origin)

    def _own_call(self, what, function, *args):
        """``function(*args)``, one the declaration gave (geometry, pick, configure, workspace):
        what it raises is named as the declaration's fault, unless the function is tcraw's own
        code (tile_geometry's, a factory's: a bug of tcraw's, shown as one)."""
        try:
            return function(*args)
        except Exception as exc:
            from .errors import TcrawError
            if isinstance(exc, TcrawError) or getattr(function, "__module__", "").startswith("tcraw."):
                raise   # (tcraw's own function — tile_geometry's, a factory's — failing: a bug of tcraw's)
            raise UsageError(f"kernel {self.name}: its {what}({', '.join(map(repr, args))}) raised "
                             f"{type(exc).__name__}: {exc}") from None

    def arguments(self):
        """(name, bytes) of each argument a launch passes, in order (matmul.matmul_launcher packs them
        by these names; compiler.check_signature checks a build's parameters against them): A, B, C
        (pointers), M, N, K (int), the workspace where it has one, A's and B's scales (a pointer to
        two floats) where its precision is scaled (FP8), then one 128-byte tensor map by value
        (__grid_constant__ const CUtensorMap) per TMA box."""
        return [("A", 8), ("B", 8), ("C", 8), ("M", 4), ("N", 4), ("K", 4),
                *([("workspace", 8)] if self.workspace else []), *([("scales", 8)] if self.precision.scaled else []),
                *((f"tensor map {i}", 128) for i in range(len(self.tma_boxes)))]

    def workspace_bytes(self, blocks):
        """The scratch bytes a launch of ``blocks`` blocks needs (its ``workspace``; 0 without)."""
        if self.workspace is None:
            return 0
        need = self._own_call("workspace", self.workspace, blocks)
        if not is_whole(need):
            raise UsageError(f"kernel {self.name}: its workspace({blocks}) gave {need!r}; it must give bytes ≥ 0")
        return int(need)

    @property
    def file_stem(self):
        """The name its prebuilt cubins carry: the kernel's, and its variant in brackets."""
        return f"{self.name}[{self.variant}]" if self.variant else self.name

    def arch_refusal(self, cc, what):
        """The ArchError for running/compiling this kernel on ``what`` (compute capability cc),
        or None when it can."""
        from .errors import ArchError
        if self.arch_specific and cc < self.min_arch:   # (a compile row's status: below-min-arch)
            return ArchError(f"kernel {self.name} is built for sm_{self.min_arch}a alone (arch-specific "
                             f"instructions); {what} is below it")
        if self.arch_specific and cc != self.min_arch:
            return ArchError(f"kernel {self.name} is built for sm_{self.min_arch}a (arch-specific "
                             f"instructions) and runs only there; {what} is not sm_{self.min_arch}")
        if cc >= self.min_arch:
            return None
        return ArchError(f"kernel {self.name} needs sm_{self.min_arch} or newer; {what} is below it")

    def geometry_at(self, m, n, k):
        """``geometry`` at (m, n, k), checked: what a user's function returns, or raises, is named
        here as their declaration's fault, not met later as a launch's traceback."""
        from .wgmma import SM90_SMEM_BYTES
        g = self._own_call("geometry", self.geometry, m, n, k)

        def triple(t):
            return isinstance(t, tuple) and len(t) == 3 and all(is_whole(v, 1) for v in t)
        # (a grid past the device's limits is the problem's size, not the declaration: the launch's
        # runtime.check_geometry says so with the device's numbers)
        if not (isinstance(g, Geometry) and triple(g.grid) and triple(g.block) and g.block[2] <= 64
                and g.block[0] * g.block[1] * g.block[2] <= 1024 and is_whole(g.smem_bytes, 0, SM90_SMEM_BYTES)):
            raise UsageError(f"kernel {self.name}: its geometry({m}, {n}, {k}) gave {g!r}; it must give a "
                             "Geometry: grid and block tuples (x, y, z) of whole numbers ≥ 1, the block at "
                             f"most 1024 threads and z ≤ 64, smem_bytes from 0 to {SM90_SMEM_BYTES} (the most "
                             "any GPU gives a block; tcraw.tile_geometry makes one)")
        return g

    def launch_geometry(self, m, n, k, sm_count, held=None):
        """The grid, block and shared memory of a launch on (m, n, k) with ``sm_count`` SMs — for
        a persistent kernel, at most ``held`` blocks when given: what the device holds at once
        in its clusters (matmul.resident_geometry asks), which can be fewer than its SMs."""
        g = self.geometry_at(m, n, k)
        if self.persistent:
            # One block per SM, or per tile if fewer — except that a kernel splitting tiles along K
            # (a workspace for the pieces) uses every SM even when tiles are fewer than SMs.
            blocks = sm_count - sm_count % self.cluster
            if held is not None:
                blocks = min(blocks, held)
            g = Geometry(grid=(blocks if self.workspace else min(g.grid[0], blocks), 1, 1), block=g.block,
                         smem_bytes=g.smem_bytes)
        return g

    def runs_on(self, cc):
        return self.arch_refusal(cc, "") is None

    def device_refusal(self, device):
        """Why this kernel cannot run on ``device`` — its arch, or more shared memory per block
        than the device offers (the pipelined kernels' deep stages) — or None when it can."""
        what = f"{device.name} ({device.arch})"
        if (refusal := self.arch_refusal(device.cc, what)):
            return refusal
        smem = self.geometry_at(*self.tile).smem_bytes
        if smem > device.max_smem_optin:
            return UsageError(f"kernel {self.name} needs {smem} bytes of shared memory per block; "
                              f"{what} offers {device.max_smem_optin}")
        return None

    def padded(self, m, n, k):
        """(M, N, K) rounded up to whole tiles — still ints for the kernel (its M, N, K are int)."""
        tm, tn, tk = self.tile
        padded = cdiv(m, tm) * tm, cdiv(n, tn) * tn, cdiv(k, tk) * tk
        if max(padded) > INT32_MAX:
            raise UsageError(f"{m}×{n}×{k} padded to {self.name}'s tile {self.tile} is "
                             f"{'×'.join(map(str, padded))}, past the int a kernel takes (2^31 − 1)")
        return padded


NAME_CHARS = r"[A-Za-z0-9_.+=\[\]-]"   # what a kernel's name is made of (it names files and arguments) ...
NAME_MOST = 160   # ... and how many: with its variant (06's longest: 62) and arch, a file name ≤ 255 (compile --out)


def is_name(text):
    """Whether ``text`` can name a kernel: NAME_CHARS, 1 to NAME_MOST of them, not a leading -
    (which a command line, --kernel -x, would read as an option) nor dots alone (., ..: no file's
    name)."""
    import re
    return isinstance(text, str) and re.fullmatch(f"(?!-)(?!\\.+$){NAME_CHARS}{{1,{NAME_MOST}}}", text) is not None


TEXTS = {"defines": "NAME or NAME=VALUE texts, e.g. (\"BN=128\",)",
         "include_dirs": "directory paths, e.g. (\"include\",)"}


def texts(value, field, where=""):
    """``value`` — a Kernel's defines or include_dirs — as a tuple, if it is a tuple or list of
    texts (include_dirs: or paths), or one of them alone (a tuple of one: iterated, "/usr/include"
    would be read a character at a time, "/", "u", …); else a UsageError."""
    if isinstance(value, str) or (field == "include_dirs" and isinstance(value, os.PathLike)):
        if field == "defines" and re.search(r"[,\s]\s*[A-Za-z_]\w*=", value):   # ("BN=128,STAGES=3": one BN)
            name, several = re.match(r"\w*", value.strip())[0], tuple(re.split(r"[,\s]+", value.strip()))
            raise UsageError(f"{where}defines {value!r} would be one macro, {name}; give several as a tuple, "
                             f"e.g. {several!r} (one whose value holds that: a tuple of one, ({value!r},))")
        value = (value,)
    if not isinstance(value, (tuple, list)) or not all(
            isinstance(v, str) or (field == "include_dirs" and isinstance(v, os.PathLike)) for v in value):
        raise UsageError(f"{where}{field} is a tuple of {TEXTS[field]}, got {value!r}")
    if field == "include_dirs" and not all(os.fspath(v).strip() for v in value):   # ("": the working directory)
        raise UsageError(f"{where}an empty include directory in {tuple(value)!r}; name the directory")
    return tuple(value)


def checked_problem(m, n, k, sms):
    """(m, n, k, sms) as Python ints (numpy's fixed widths would wrap in the model's arithmetic),
    or a UsageError unless M, N, K are whole numbers in [1, 2³¹) and ``sms`` one in [1, 2³¹)."""
    from .validate import problem
    m, n, k = problem(m, n, k)
    if not is_whole(sms, 1, MACRO_MOST):
        raise UsageError(f"the SM count is a whole number from 1 to {MACRO_MOST}, not {sms!r}")
    return m, n, k, int(sms)


def checked_macros(tile, known, what, positive=()):
    """``tile`` (macro -> value) if every macro is one of ``known``'s and a whole number — at
    least 1 for those in ``positive``, 0 otherwise, and at most MACRO_MOST (the .cu's int);
    None only where ``known``'s default is None (each configuration's own) — else a UsageError
    naming the first that is not."""
    if not isinstance(tile, dict):
        raise UsageError(f"{what}'s macros are a dict of MACRO -> whole number, not {tile!r}")
    for name, value in tile.items():
        if name not in known:
            raise UsageError(f"{what} has no macro {name!r}; its macros: {', '.join(known)}")
        if value is None and known[name] is None:
            continue
        least = 1 if name in positive else 0
        if not is_whole(value, least, MACRO_MOST):
            raise UsageError(f"{what} cannot take {name}={value!r}: it is a whole number from {least} to {MACRO_MOST}")
    return {name: value if value is None else int(value) for name, value in tile.items()}   # (numpy's widths wrap)


MACRO_MOST = 2 ** 31 - 1   # a macro's value is an int in the .cu (past it NVRTC fails on overloads of max)


def checked_choose(choose, what):
    """``choose`` if it is True or False; else a UsageError saying what each means."""
    if not isinstance(choose, bool):
        raise UsageError(f"{what}'s choose is True (each problem gets the configuration picked for it, the macros "
                         f"given over the registry's) or False (one build with the macros given), not {choose!r}")
    return choose


def macro_defines(tile):
    """A kernel's macros (name -> value) as NVRTC's -D texts, "BN=128"."""
    return tuple(f"{k}={v}" for k, v in tile.items())


# A cluster's blocks must share a GPC, and the H200's (132 SMs) hold only 30 clusters of 4 at once
# — 120 SMs — where they hold 66 of 2 (cuOccupancyMaxActiveClusters, 06 at 198–230 kB of shared
# memory a block: docs/results/2026-12-01-h200-clusters-of-4/run2_held_clusters.txt). 06's grid
# is what the device holds (matmul.resident_geometry); the model assumes the same share of a
# GPU's SMs elsewhere: CLUSTERS_OF_4_HELD of every 132.
CLUSTERS_OF_4_HELD = 30


def clusters_held(sms, cluster):
    """The clusters a cluster kernel (06/07, 10) runs on ``sms`` SMs: one block per SM — but clusters of 4 as the H200's
    GPCs hold them (CLUSTERS_OF_4_HELD of its 132 SMs), in proportion for other SM counts; at
    least one (on a GPU too small for one cluster the launch itself fails, and says so)."""
    return max(1, sms // cluster if cluster < 4 else sms * CLUSTERS_OF_4_HELD // 132)
