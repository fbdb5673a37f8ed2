"""What a probe with unusual kernels of a user's own found (2026-12-05): each is now refused
before any GPU with a typed error naming the fix, or compiled as nvcc would (CPU)."""

import dataclasses
import json

import pytest

import tcraw
from tcraw import compiler, kernels
from tcraw.cli import main
from tcraw.errors import CompileError, CubinError, UsageError

SIGNATURE = "const float* A, const float* B, float* C, int M, int N, int K"
SCALAR = f'extern "C" __global__ void mm({SIGNATURE}) {{ if (threadIdx.x == 0) C[0] = A[0] * B[0]; }}\n'
GEOMETRY = tcraw.tile_geometry((16, 16, 1), (16, 16))


def kernel(source, **change):
    fields = dict(name="mine", source=str(source), entry="mm", precision="fp32", min_arch=70, tile=(1, 1, 1),
                  geometry=GEOMETRY)
    return tcraw.Kernel(**{**fields, **change})


def source_flags(path, *more):
    return ["--source", str(path), "--entry", "mm", "--precision", "fp32", "--block", "16", *more]


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TCRAW_CACHE_DIR", str(tmp_path / "cache"))


# -- names -----------------------------------------------------------------------------------------

def test_a_name_that_a_command_line_reads_as_an_option_is_refused_where_declared(tmp_path):
    """--kernel -mine, the argument a child process is given, would be read as an option."""
    with pytest.raises(UsageError, match="not starting with -"):
        kernel(tmp_path / "k.cu", name="-mine")
    with pytest.raises(UsageError, match="not starting with -"):
        kernels.user_kernel(tmp_path / "k.cu", "mm", "fp32", block=(16,), name="--help")


def test_a_long_mangled_entry_is_told_to_take_a_name(tmp_path):
    entry = "_ZN" + "x" * 170 + "E"
    with pytest.raises(UsageError, match="longer than 160.*--name"):
        kernels.user_kernel(tmp_path / "k.cu", entry, "fp32", block=(16,))


# -- what the source holds ------------------------------------------------------------------------

def test_a_nul_byte_is_refused_not_read_as_the_end_of_the_source(tmp_path):
    src = tmp_path / "nul.cu"
    src.write_bytes(SCALAR.encode() + b"// \0\n" + SCALAR.replace("mm(", "after(").encode())
    with pytest.raises(UsageError, match="NUL byte at offset"):
        compiler.compile_source(src, "sm_80")
    with pytest.raises(UsageError, match="the CUDA text holds a NUL byte"):
        compiler.compile_source(src.read_text(), "sm_80")
    src.write_bytes(SCALAR.encode("utf-16"))
    with pytest.raises(UsageError, match="UTF-16"):
        compiler.compile_source(src, "sm_80")


def test_a_0xff_byte_is_refused_not_read_as_the_end_of_the_source(tmp_path):
    """NVRTC's front end reads a 0xFF byte (a Latin-1 ÿ; never in UTF-8) as the end of the file:
    the kernels after it would be missing, or the one around it cut off."""
    src = tmp_path / "latin.cu"
    src.write_bytes(b"// Ma\xffer\n" + SCALAR.encode())
    with pytest.raises(UsageError, match="0xFF byte at offset 5 .*end of the source"):
        compiler.compile_source(src, "sm_80")
    with pytest.raises(UsageError, match="the CUDA text holds a 0xFF byte at character 5"):
        compiler.compile_source(src.read_bytes().decode("utf-8", "surrogateescape"), "sm_80")
    src.write_bytes(b"// r\xe9sum\xe9 \xc3\xbf\n" + SCALAR.encode())   # (Latin-1 é, UTF-8 ÿ: compiled)
    assert compiler.compile_source(src, "sm_80", cache=False).image


def test_a_headers_byte_order_mark_is_named_in_the_compile_error(tmp_path):
    (tmp_path / "h.cuh").write_bytes(b"\xef\xbb\xbf#define V 3\n")
    src = tmp_path / "k.cu"
    src.write_text('#include "h.cuh"\n' + SCALAR.replace("A[0] * B[0]", "V"))
    with pytest.raises(CompileError, match="h.cuh begins with a UTF-8 byte-order mark"):
        compiler.compile_source(src, "sm_80")


@pytest.mark.parametrize("header,hint", [("cstdint", "<cuda/std/cstdint>"), ("stdint.h", "<cuda/std/cstdint>"),
                                         ("cstdio", "printf without it")])
def test_a_host_library_header_gets_its_device_form_named(tmp_path, header, hint):
    src = tmp_path / "k.cu"
    src.write_text(f"#include <{header}>\n" + SCALAR)
    with pytest.raises(CompileError, match=f"NVRTC has no <{header}>.*{hint}"):
        compiler.compile_source(src, "sm_80")


def test_an_angle_include_of_a_header_beside_the_source_names_both_fixes(tmp_path):
    """As nvcc, <h.cuh> is not looked for beside the source; the error says where it is and how
    to reach it, and either fix compiles."""
    (tmp_path / "h.cuh").write_text("#define V 3.0f\n")
    src = tmp_path / "k.cu"
    src.write_text("#include <h.cuh>\n" + SCALAR.replace("A[0] * B[0]", "V"))
    with pytest.raises(CompileError, match=f'h.cuh is in {tmp_path}, beside the source, where only #include "h.cuh" '
                                           "looks: include it so, or add that directory with --include"):
        compiler.compile_source(src, "sm_80", cache=False)
    assert compiler.compile_source(src, "sm_80", include_dirs=[tmp_path], cache=False).image


def test_a_linked_source_includes_beside_its_link_as_nvcc_does(tmp_path):
    """--source and --spec alike: "h.cuh" is the link's neighbour, not its target's."""
    (tmp_path / "real").mkdir(), (tmp_path / "link").mkdir()
    (tmp_path / "real" / "k.cu").write_text('#include "h.cuh"\n' + SCALAR.replace("A[0] * B[0]", "V"))
    (tmp_path / "link" / "k.cu").symlink_to(tmp_path / "real" / "k.cu")
    (tmp_path / "link" / "h.cuh").write_text("#define V 1.0f\n")
    flags = kernels.user_kernel(tmp_path / "link" / "k.cu", "mm", "fp32", block=(16,))
    assert compiler.compile_cubin(flags, "sm_80").kernel == "mm"
    (tmp_path / "link" / "spec.py").write_text(
        "from tcraw import Kernel, tile_geometry\nKERNELS = [Kernel(name='linked', source='k.cu', entry='mm', "
        "precision='fp32', min_arch=70, tile=(1, 1, 1), geometry=tile_geometry((16, 16, 1), (16, 16)))]\n")
    assert compiler.compile_cubin(tcraw.load_spec(tmp_path / "link" / "spec.py")[0], "sm_80").kernel == "linked"


def test_nvrtcs_own_warnings_are_in_the_row_and_said(tmp_path, capsys):
    src = tmp_path / "w.cu"
    src.write_text(f'extern "C" __global__ void mm({SIGNATURE}) {{ float x; C[0] = x; }}\n')
    assert main(["compile", "--arch", "sm_80", "--format", "json", *source_flags(src)]) == 0
    out = capsys.readouterr()
    row = json.loads(out.out)[0]
    assert row["status"] == "ok" and any("#549-D" in w for w in row["nvrtc_warnings"])
    assert "used before its value is set" in out.err


def test_a_compile_error_row_shows_the_first_error_and_the_log_is_said_once(tmp_path, capsys):
    src = tmp_path / "e.cu"
    src.write_text(f'extern "C" __global__ void mm({SIGNATURE}) {{ C[0] = no_such_name; }}\n')
    assert main(["compile", "--arch", "sm_80,sm_90", "--format", "json", *source_flags(src)]) == 1
    out = capsys.readouterr()
    rows = json.loads(out.out)
    assert [r["status"] for r in rows] == ["error", "error"]
    assert all(r["detail"].startswith(f"{src}(1): error: identifier \"no_such_name\"") for r in rows)
    assert out.err.count("1 error detected") == 1


# -- the kernel's parameters, as its cubin records them ---------------------------------------------

@pytest.mark.parametrize("params", ["", "const float* A, const float* B, float* C, long M, int N",
                                    "const float* A, const float* B, float* C, int M, int N, int K, float* W",
                                    "const float* A, const float* B, float* C, int M, int N, double K"])
def test_a_kernel_no_launch_could_call_is_refused_when_built(tmp_path, params, capsys):
    src = tmp_path / "s.cu"
    src.write_text(f'extern "C" __global__ void mm({params}) {{}}\n')
    with pytest.raises(UsageError, match=r"mm takes \d parameters.*a launch passes 6: A \(8\)"):
        compiler.compile_cubin(kernel(src), "sm_80")
    assert main(["compile", "--arch", "sm_80", "--format", "json", *source_flags(src)]) == 2
    assert json.loads(capsys.readouterr().out)[0]["status"] == "refused"


def test_fp8_kernels_are_told_of_the_scales_pointer(tmp_path):
    src = tmp_path / "f8.cu"
    src.write_text('extern "C" __global__ void mm(const unsigned char* A, const unsigned char* B, float* C, '
                   "int M, int N, int K) {}\n")
    with pytest.raises(UsageError, match=r"scales \(8\)"):
        compiler.compile_cubin(kernel(src, precision="fp8e4m3", min_arch=89), "sm_90")


def test_every_built_in_kernel_takes_the_arguments_its_launch_passes():
    """compile_cubin checks each build's parameters: every kernel, and one configuration of each
    source a kernel's configurations are built from (06's small-M ones are 09's and 10's)."""
    for k in kernels.KERNELS.values():
        one_a_source = {(c.source, c.workspace is None): c for c in reversed(k.configurations())}
        for c in one_a_source.values():
            compiler.compile_cubin(c, "sm_90a" if c.arch_specific else "sm_90")


def test_a_missing_entry_lists_mangled_names_as_entries_that_work(tmp_path):
    src = tmp_path / "m.cu"
    src.write_text(f"__global__ void mm({SIGNATURE}) {{}}\n")
    with pytest.raises(CubinError, match="else C\\+\\+'s mangled name, as listed"):
        compiler.compile_cubin(kernel(src), "sm_80")
    mangled = compiler.compile_source(src, "sm_80").entries()[0]
    assert compiler.compile_cubin(kernel(src, entry=mangled), "sm_80").kernel == "mine"


def test_a_source_kernels_launch_table_names_the_flags_to_change(tmp_path):
    src = tmp_path / "t.cu"
    src.write_text('extern "C" __constant__ int tcraw_launch[2] = {128, 0};\n' + SCALAR)
    flags = kernels.user_kernel(src, "mm", "fp32", block=(16, 16))
    with pytest.raises(UsageError, match="make --block and --smem agree"):
        compiler.compile_cubin(flags, "sm_80")


@pytest.mark.parametrize("table, refusal", [
    ("int tcraw_launch[1] = {256}", r"holds 1 value, \[256\]; its declaration's launch is 2, \[256, 0\] "
                                    r"\(threads, smem bytes\): state all of them in the source"),
    ("float tcraw_launch[2] = {256.f, 0.f}", r"holds floats \(\[1132462080, 0\] read as int\); declare it "
                                             r"extern \"C\" __constant__ int tcraw_launch\[\]")])
def test_a_launch_table_no_flag_can_match_says_what_the_source_must_state(tmp_path, table, refusal):
    src = tmp_path / "t.cu"
    src.write_text(f'extern "C" __constant__ {table};\n' + SCALAR)
    with pytest.raises(UsageError, match=refusal):
        compiler.compile_cubin(kernels.user_kernel(src, "mm", "fp32", block=(256,)), "sm_80")


def test_a_launch_table_in_a_namespace_is_named_not_skipped(tmp_path):
    src = tmp_path / "t.cu"
    src.write_text('namespace my { __constant__ int tcraw_launch[2] = {256, 0}; }\n' + SCALAR)
    with pytest.raises(UsageError, match="tcraw_launch inside a namespace"):
        compiler.compile_cubin(kernels.user_kernel(src, "mm", "fp32", block=(16, 16)), "sm_80")


def test_an_arch_specific_source_kernel_builds_for_its_a_target(tmp_path):
    src = tmp_path / "wg.cu"
    src.write_text(SCALAR.replace("if (threadIdx.x", 'asm volatile("wgmma.fence.sync.aligned;"); if (threadIdx.x'))
    plain = kernels.user_kernel(src, "mm", "fp32", block=(128,), min_arch=90)
    with pytest.raises(CompileError, match="not supported on .target 'sm_90'"):
        compiler.compile_cubin(plain, "sm_90")
    specific = kernels.user_kernel(src, "mm", "fp32", block=(128,), min_arch=90, arch_specific=True)
    assert str(compiler.compile_cubin(specific, "sm_90").arch) == "sm_90a"
    assert "--arch-specific" in specific.origin
    assert "--arch-specific" in kernels.child_args(specific)   # (declared again the same in a child)
    with pytest.raises(UsageError, match="begin at sm_90"):
        kernels.user_kernel(src, "mm", "fp32", block=(128,), min_arch=80, arch_specific=True)


# -- specs -------------------------------------------------------------------------------------------

def spec(path, body, source="k.cu"):
    (path.parent / source).write_text(SCALAR)
    path.write_text("from tcraw import Kernel, tile_geometry\n" + body + "\n"
                    f"KERNELS = [Kernel(name='{path.stem}', source='{source}', entry='mm', precision='fp32', "
                    "min_arch=70, tile=(1, 1, 1), geometry=tile_geometry((16, 16, 1), (16, 16)))]\n")
    return path


def test_what_a_spec_prints_does_not_spoil_json(tmp_path, capsys):
    s = spec(tmp_path / "printer.py", "print('loading my kernels')")
    assert main(["compile", "--spec", str(s), "--arch", "sm_80", "--format", "json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)[0]["status"] == "ok" and "loading my kernels" in out.err


def test_a_helper_package_is_imported_afresh_for_each_spec(tmp_path):
    seen = []
    for d, entry in (("one", "first"), ("two", "second")):
        (tmp_path / d / "helpers").mkdir(parents=True)
        (tmp_path / d / "helpers" / "__init__.py").write_text(f"ENTRY = {entry!r}\n")
        s = tmp_path / d / "spec.py"
        (tmp_path / d / "k.cu").write_text(SCALAR.replace("mm(", f"{entry}("))
        s.write_text("import helpers\nfrom tcraw import Kernel, tile_geometry\n"
                     "KERNELS = [Kernel(name='k', source='k.cu', entry=helpers.ENTRY, precision='fp32', min_arch=70, "
                     "tile=(1, 1, 1), geometry=tile_geometry((16, 16, 1), (16, 16)))]\n")
        seen.append(tcraw.load_spec(s)[0].entry)
    assert seen == ["first", "second"]


@pytest.mark.parametrize("change,needle", [
    (dict(configure=lambda picked, over: None), "its configure gave None"),
    (dict(pick=lambda m, n, k, s: 1 / 0), r"its pick\(64, 64, 64, 132\) raised ZeroDivisionError"),
    (dict(pick=lambda m, n, k, s: "BN=64"), "it must give a dict"),
])
def test_a_configurable_kernels_own_functions_are_its_fault_not_tcraws(tmp_path, change, needle):
    (tmp_path / "k.cu").write_text(SCALAR)
    fields = dict(tunables=("BN",), configs=({"BN": 64},), configure=lambda picked, over: kernel(tmp_path / "k.cu"),
                  pick=lambda m, n, k, s: {"BN": 64})
    k = kernel(tmp_path / "k.cu", **{**fields, **change})
    with pytest.raises(UsageError, match=needle):
        k.configured(64, 64, 64, 132)


# -- what the library took that the command line refuses -------------------------------------------

@pytest.mark.parametrize("change,needle", [
    (dict(defines=("1X",)), "define '1X'"),
    (dict(defines=("X=1", "X=2")), "give X twice"),
    (dict(include_dirs=("",)), "an empty include directory"),
    (dict(tma_boxes=None), "tma_boxes is a tuple"),
    (dict(tma_boxes=("a",)), "tma_boxes is a tuple"),
    (dict(persistent="yes"), "persistent is True or False"),
    (dict(arch_specific=1, min_arch=80), "begin at sm_90"),
    (dict(summary=5), "summary is text"),
    (dict(configure=lambda p, o: None), "declares configure, pick"),
    (dict(tunables=("BN",)), "declares configure, pick"),
    (dict(geometry=lambda m, n: None), r"its geometry\(1, 1, 1\) raised TypeError"),
])
def test_a_kernel_declared_in_python_is_refused_as_a_specs_would_be(tmp_path, change, needle):
    with pytest.raises(UsageError, match=needle):
        k = kernel(tmp_path / "k.cu", **change)
        k.geometry_at(1, 1, 1)


def test_compile_table_makes_its_out_directory_and_refuses_two_kernels_of_one_name(tmp_path):
    (tmp_path / "k.cu").write_text(SCALAR)
    rows = compiler.compile_table([kernel(tmp_path / "k.cu")], "sm_80", out=tmp_path / "new" / "dir", note=print)
    assert rows[0]["status"] == "ok" and (tmp_path / "new" / "dir" / "mine.sm_80.cubin").is_file()
    other = kernel(tmp_path / "other.cu")
    with pytest.raises(UsageError, match="two different kernels are named 'mine'"):
        compiler.compile_table([kernel(tmp_path / "k.cu"), other], "sm_80", note=print)
    with pytest.raises(UsageError, match="'reference_fp64' .* has a built-in kernel's name"):
        compiler.compile_table([kernel(tmp_path / "k.cu", name="reference_fp64")], "sm_80", out=tmp_path / "o",
                               note=print)


@pytest.mark.parametrize("kw", [dict(defines=None), dict(include_dirs=None), dict(include_dirs=[3])])
def test_compile_source_refuses_what_is_no_list_of_texts(tmp_path, kw):
    (tmp_path / "k.cu").write_text(SCALAR)
    with pytest.raises(UsageError, match="is a tuple of"):
        compiler.compile_source(tmp_path / "k.cu", "sm_80", **kw)


def test_one_define_or_include_directory_alone_is_taken_as_one_wherever_they_are_given(tmp_path):
    """compile_source, Kernel and user_kernel alike: "X=1" is the define X=1 (not its letters)."""
    (tmp_path / "k.cu").write_text(SCALAR)
    assert kernel(tmp_path / "k.cu", defines="X=1", include_dirs=tmp_path).defines == ("X=1",)
    assert kernel(tmp_path / "k.cu", include_dirs=str(tmp_path)).include_dirs == (str(tmp_path),)
    assert kernels.user_kernel(tmp_path / "k.cu", "mm", "fp32", block=(16, 16, 1), defines="X=1").defines == ("X=1",)
    assert compiler.compile_source(tmp_path / "k.cu", "sm_80", defines="X=1", include_dirs=tmp_path).image
    for several in ("BN=128,STAGES=3", "BN=128 STAGES=3"):   # (as a list option reads them: several, not one)
        with pytest.raises(UsageError, match=r"would be one macro, BN; give several as a tuple, e.g. \('BN=128', "):
            kernel(tmp_path / "k.cu", defines=several)


def test_compile_table_refuses_a_note_that_is_no_function(tmp_path):
    with pytest.raises(UsageError, match="note is a function"):
        compiler.compile_table([kernel(tmp_path / "k.cu")], "sm_80", note=None)


def test_a_padded_size_past_an_int_is_refused():
    k = kernels.KERNELS["wmma_fp16"]
    with pytest.raises(UsageError, match="past the int a kernel takes"):
        k.padded(2**31 - 1, 16, 16)


# -- a third probe (2026-12-06): a user's kernel under a built-in's name, ptxas's errors, a launch no
# -- GPU runs, and flags read as the library reads them

@pytest.mark.parametrize("name", ["wmma_fp16", "wgmma_tma_fp16[09]", "reference_fp64"])
def test_a_users_kernel_under_a_built_in_name_is_refused_wherever_the_api_takes_it(tmp_path, name):
    (tmp_path / "k.cu").write_text(SCALAR)
    mine = kernel(tmp_path / "k.cu", name=name)   # (a Kernel made in Python: nothing refused it before)
    for use in (lambda: compiler.compile_table([mine], "sm_80", out=tmp_path / "o", note=print),
                lambda: kernels.select([name.split("[")[0]], extra=[mine]),
                lambda: kernels.checked_chosen([mine])):
        with pytest.raises(UsageError, match="has a built-in kernel's name; give yours its own"):
            use()
    assert not (tmp_path / "o").exists() or not list((tmp_path / "o").glob("*.cubin"))
    # tcraw's own keep theirs, a copy of one too
    built_in = kernels.KERNELS["naive_fp32"]
    assert kernels.checked_chosen([built_in])
    assert kernels.checked_chosen([dataclasses.replace(built_in, defines=("X=1",))])


# (the default backend — bindings, where they are the chosen CUDA's — and ctypes, which loads the
# chosen CUDA's NVRTC by path in either toolchain: CI's CUDA 12 pass refuses --backend bindings)
@pytest.mark.parametrize("backend", [[], ["--backend", "ctypes"]])
def test_a_ptxas_error_is_the_rows_detail_whole_and_without_nul(tmp_path, backend, capsys):
    src = tmp_path / "big.cu"
    src.write_text(f'extern "C" __global__ void mm({SIGNATURE}) {{ __shared__ float s[60000]; '
                   's[threadIdx.x] = A[0]; __syncthreads(); C[threadIdx.x] = s[threadIdx.x + 1]; }\n')
    assert main(["compile", *backend, "--arch", "sm_80", "--format", "json", *source_flags(src)]) == 1
    out, err = capsys.readouterr()
    (row,) = json.loads(out)
    assert row["status"] == "error" and row["detail"].startswith("ptxas error") and "uses too much shared data" in \
        row["detail"] and "\0" not in out + err


def test_every_compile_error_is_in_the_rows_detail(tmp_path, capsys):
    src = tmp_path / "two.cu"
    src.write_text(f'extern "C" __global__ void mm({SIGNATURE}) {{\n  int x = ;\n  undefined_fn(x);\n}}\n')
    assert main(["compile", "--arch", "sm_80", "--format", "json", *source_flags(src)]) == 1
    detail = json.loads(capsys.readouterr().out)[0]["detail"]
    assert "two.cu(2): error: expected an expression" in detail and "two.cu(3): error" in detail


@pytest.mark.parametrize("source, flags, needle", [
    ('extern "C" __global__ void __launch_bounds__(64) mm({sig}) {{ C[0] = A[0]; }}', ["--block", "16,16"],
     "__launch_bounds__ allows at most 64 threads a block; its declaration launches 256"),
    ('extern "C" __global__ void mm({sig}) {{ __shared__ float s[10000]; extern __shared__ float d[]; '
     's[threadIdx.x] = d[threadIdx.x] = A[0]; C[0] = s[1] + d[1]; }}', ["--block", "128", "--smem", "220000"],
     "40000 bytes of static shared memory and 220000 dynamic (--smem) are more than any GPU gives a block"),
    ('extern "C" __constant__ long long tcraw_launch[2] = {{128, 0}};\n'
     'extern "C" __global__ void mm({sig}) {{ C[0] = A[0]; }}', ["--block", "128"],
     "holds 4 values, [128, 0, 0, 0]; its declaration's launch is 2, [128, 0] (threads, smem bytes): state all of "
     "them in the source; or, if it is declared long long, declare it int"),
])
def test_a_launch_no_gpu_runs_is_refused_when_it_compiles(tmp_path, capsys, source, flags, needle):
    src = tmp_path / "k.cu"
    src.write_text(source.format(sig=SIGNATURE) + "\n")
    args = ["--source", str(src), "--entry", "mm", "--precision", "fp32", *flags]
    assert main(["compile", "--arch", "sm_90", "--format", "json", *args]) == 2
    assert needle in json.loads(capsys.readouterr().out)[0]["detail"]
    assert main(["run", *args, "--size", "64"]) == 2   # (before any GPU: not exit 3 here)
    assert needle in capsys.readouterr().err


@pytest.mark.parametrize("given, cc", [("sm_80", 80), ("80", 80), ("8.0", 80), (80, 80)])
def test_min_arch_is_read_as_arch_reads_a_target(tmp_path, given, cc):
    (tmp_path / "k.cu").write_text(SCALAR)
    assert kernel(tmp_path / "k.cu", min_arch=given).min_arch == cc
    assert tcraw.user_kernel(tmp_path / "k.cu", "mm", "fp32", block=16, min_arch=given).min_arch == cc
    assert main(["compile", "--arch", "sm_90", "--format", "json", *source_flags(tmp_path / "k.cu"),
                 "--min-arch", str(given)]) == 0


@pytest.mark.parametrize("given, needle", [("sm_90a", "the 'a' target is arch_specific=True"),
                                           ("bogus", "write a compute capability such as 80"),
                                           ("300", "from 50 to 200")])
def test_a_min_arch_that_is_none_is_named(tmp_path, capsys, given, needle):
    (tmp_path / "k.cu").write_text(SCALAR)
    with pytest.raises(UsageError, match=needle):
        kernel(tmp_path / "k.cu", min_arch=given)
    assert main(["compile", "--arch", "sm_90", *source_flags(tmp_path / "k.cu"), "--min-arch", given]) == 2
    assert needle in capsys.readouterr().err


def test_source_flags_empty_or_all_and_a_missing_source_are_named(tmp_path, capsys):
    (tmp_path / "k.cu").write_text(SCALAR)
    for flags, needle in ((["--block", ""], "--block is empty"), (["--entry", " "], "--entry is empty"),
                          (["--precision", "all"], "--source declares one kernel of one precision; got "
                                                   "--precision all")):
        base = {"--entry": "mm", "--precision": "fp32", "--block": "16", **dict([flags])}
        assert main(["compile", "--arch", "sm_90", "--source", str(tmp_path / "k.cu"),
                     *[v for kv in base.items() for v in kv]]) == 2
        assert needle in capsys.readouterr().err
    with pytest.raises(UsageError, match=r"source=\) .*nope\.cu is not a file"):
        tcraw.user_kernel(tmp_path / "nope.cu", "mm", "fp32", block=16)


def test_tile_geometry_reads_a_block_of_one_or_two_sizes_as_user_kernel_does():
    assert tcraw.tile_geometry((16, 16), (16, 16))(64, 64, 64).block == (16, 16, 1)
    assert tcraw.tile_geometry(256, (1, 256))(64, 512, 64) == tcraw.Geometry((2, 64, 1), (256, 1, 1))


def test_a_min_arch_given_as_text_reaches_a_child_process_as_a_number(tmp_path):
    (tmp_path / "k.cu").write_text(SCALAR)
    mine = tcraw.user_kernel(tmp_path / "k.cu", "mm", "fp32", block=16, min_arch="sm_80")
    args = kernels.child_args(mine)   # (it reads the flags back: int("sm_80") raised a ValueError)
    assert args[args.index("--min-arch") + 1] == "80"
    with pytest.raises(UsageError, match="not for an 'f' family"):
        tcraw.user_kernel(tmp_path / "k.cu", "mm", "fp32", block=16, min_arch="sm_100f")


def test_an_int_tcraw_launch_of_other_values_is_not_taken_for_64_bit_integers(tmp_path, capsys):
    src = tmp_path / "k.cu"
    src.write_text('extern "C" __constant__ int tcraw_launch[4] = {256, 0, 1, 0};\n'
                   f'extern "C" __global__ void mm({SIGNATURE}) {{ C[0] = A[0]; }}\n')
    assert main(["compile", "--arch", "sm_90", "--format", "json", "--source", str(src), "--entry", "mm",
                 "--precision", "fp32", "--block", "256"]) == 2
    detail = json.loads(capsys.readouterr().out)[0]["detail"]
    assert "holds 4 values, [256, 0, 1, 0]" in detail and "long long" not in detail


def test_bench_and_profile_build_only_the_spec_kernels_asked_for(tmp_path, capsys):
    (tmp_path / "good.cu").write_text(SCALAR)
    (tmp_path / "broken.cu").write_text(f'extern "C" __global__ void mm({SIGNATURE}) {{ int x = ; }}\n')
    spec = tmp_path / "s.py"
    spec.write_text("from tcraw import Kernel, tile_geometry\nG = tile_geometry((16, 16, 1), (16, 16))\n"
                    "KERNELS = [Kernel(name=n, source=n + '.cu', entry='mm', precision='fp32', min_arch=70, "
                    "tile=(1, 1, 1), geometry=G) for n in ('good', 'broken')]\n")
    for argv in (["bench", "--spec", str(spec), "--kernel", "good", "--sizes", "64"],
                 ["profile", "--spec", str(spec), "--kernel", "good", "--size", "64"]):
        assert main(argv) == 3   # (no GPU, or no ncu, here: after the request's checks)
        assert "broken" not in capsys.readouterr().err
    assert main(["bench", "--spec", str(spec), "--sizes", "64"]) == 3
    assert "broken: does not build here — " in capsys.readouterr().err
    assert main(["profile", "--spec", str(spec), "--kernel", "broken", "--size", "64"]) == 2   # (not a row: refused)
    assert "error: expected an expression" in capsys.readouterr().err


def test_a_relative_source_under_a_built_in_name_is_not_taken_for_tcraws_own(tmp_path):
    mine = kernel("no_such_file_here.cu", name="naive_fp32")   # (relative: looked for in cuda_src/, not there)
    with pytest.raises(UsageError, match="has a built-in kernel's name"):
        kernels.select(["naive_fp32"], extra=[mine])
