# tcraw — make install · make test · make run · make compile ARCHS="75 80 90" · make sweep
VENV    ?= .venv
PY      ?= $(VENV)/bin/python
# What to run and where results go: given on the command line (make sweep SIZES="256 1024"), never
# read from the environment, where OUT, DEVICE or CUDA may be set for other tools
ARCHS   = all
SIZE    = 1024
SIZES   = 256 1024 2048
KERNELS =
DEVICE  = 0
OUT     = build
CUBINS  =

empty :=
space := $(empty) $(empty)
comma := ,
# a list as tcraw reads it: "80 90", "80,90" and "80, 90" alike → 80,90 (an empty item, "80,,90", stays: refused)
csv = $(subst $(space),$(comma),$(subst $(space)$(comma),$(comma),$(subst $(comma)$(space),$(comma),$(strip $(1)))))
kernel_flag = $(if $(KERNELS),--kernel $(call csv,$(KERNELS)))
# OUT (and CUBINS) is one directory path: empty, OUT would be /cubins; with spaces, quotes, ` $ \ or
# * ? [ the shell would read another path, or several, or a command, out of it (recipes quote it too)
bad_path = $(or $(filter-out 1,$(words $(1))),$(findstring ',$(1)),$(findstring ",$(1)),$(findstring `,$(1)),\
  $(findstring $$,$(1)),$(findstring \,$(1)),$(findstring *,$(1)),$(findstring ?,$(1)),$(findstring [,$(1)))
check_out = $(if $(call bad_path,$(OUT)),$(error OUT="$(OUT)" must be one directory path without spaces,\
  quotes or ` $$ \ * ? [ (default: build)))$(if $(CUBINS),$(if $(call bad_path,$(CUBINS)),$(error\
  CUBINS="$(CUBINS)" must be one directory path without spaces, quotes or ` $$ \ * ? [)))
# KERNEL, ARCH: no variable of this Makefile — a run would go on without them, as if they were not given
$(foreach v,KERNEL ARCH,$(if $(filter command line,$(origin $(v))),$(error $(v) is not read here: the\
  variable is $(v)S ($(v)S=$($(v))))))

.PHONY: help install test run compile cubins sweep bench sanitize clean
.DEFAULT_GOAL := help

help:   # bare `make` lists the targets rather than install anything
	@echo "make install [CUDA=12]   a project venv ($(VENV)) from pip wheels"
	@echo "make test                the tests (GPU tests skip, with the reason, without a GPU)"
	@echo "make run [SIZE=1024] [KERNELS=a,b]   the seed's comparison (or those kernels) on the GPU"
	@echo "make compile [ARCHS=\"80 90\"] [KERNELS=a,b]   cubins and resources in $(OUT)/cubins (no GPU needed)"
	@echo "make cubins              every kernel for every arch (or ARCHS, KERNELS), for cubin-only runs"
	@echo "make sweep [SIZES=...]   sizes x kernels, CSV and JSON in $(OUT)/sweep"
	@echo "make bench               the ladder against cuBLAS, launch and cache costs, in $(OUT)/bench"
	@echo "make sanitize [KERNELS=a,b]   compute-sanitizer over the kernels"
	@echo "make clean               remove $(OUT) and .pytest_cache"
	@echo "  DEVICE=0 the GPU of run, bench and sweep (sweep: DEVICE=all, every GPU); KERNELS=a,b for"
	@echo "  every target but clean; OUT=build where results go; CUBINS=DIR runs prebuilt cubins (run,"
	@echo "  sweep). make exits 2 on any failure: tcraw's own code (3: no GPU) is the N of 'Error N'"

# A project venv: works where the system Python refuses global pip installs (PEP 668).
# CUDA=13 (default; driver >= 580) or CUDA=12 (drivers 525-579, sm_50 ... sm_72): `nvidia-smi`'s
# "CUDA Version" says which. CUDA=12 adds the 12.x NVRTC and headers and pins cuda-bindings to 12.x.
CUDA    = 13
install:
	$(if $(and $(filter 1,$(words $(CUDA))),$(filter 12 13,$(CUDA))),,$(error CUDA="$(CUDA)": give 12 or 13,\
	  the major of nvidia-smi's "CUDA Version" (12.4 is CUDA=12)))$(if $(call bad_path,$(VENV)),$(error\
	  VENV="$(VENV)" must be one directory path without spaces, quotes or ` $$ \ * ? [ (default: .venv)))
	python3 -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[dev,cu$(strip $(CUDA))]' $(if $(filter 12,$(CUDA)),'cuda-bindings>=12.6.1$(comma)<13')
	rm -rf build/lib build/bdist.* tcraw.egg-info   # setuptools' by-products; the venv has the metadata
	@echo "installed: $(VENV)/bin/tcraw (or: $(PY) -m tcraw)"

test:
	$(PY) -m pytest -q -rs

run:
	$(check_out)$(PY) -m tcraw run --size $(SIZE) --device $(DEVICE) $(kernel_flag) \
	  $(if $(CUBINS),--cubin-dir "$(CUBINS)")

# Cubins and the resource table for each arch (no GPU needed); archs NVRTC lacks are listed.
compile:
	$(check_out)$(PY) -m tcraw compile --arch $(call csv,$(ARCHS)) --out "$(OUT)/cubins" \
	  $(kernel_flag)

# Prebuilt cubins + manifest.json for cubin-only runs: tcraw run --cubin-dir $(OUT)/cubins
cubins: compile
	@echo "cubins and manifest.json in $(OUT)/cubins: make run CUBINS=$(OUT)/cubins"

sweep:
	$(check_out)$(PY) -m tcraw sweep --sizes $(call csv,$(SIZES)) --device $(DEVICE) --out "$(OUT)/sweep" \
	  $(kernel_flag) $(if $(CUBINS),--cubin-dir "$(CUBINS)")

bench:   # (the GPU's part first: without one, refused at once, not after the compile timings)
	$(check_out)$(PY) -m tcraw bench --out "$(OUT)/bench" --device $(DEVICE) \
	  $(kernel_flag)
	-$(PY) scripts/plot_bench.py "$(OUT)/bench/bench.json" -o "$(OUT)/bench/bench.png"
	$(PY) scripts/bench_launch.py
	$(PY) scripts/bench_cache.py

# compute-sanitizer memcheck/racecheck/initcheck/synccheck over every kernel (needs a GPU)
sanitize:   # KERNELS=a,b to check only those
	$(check_out)PY=$(PY) KERNELS=$(call csv,$(KERNELS)) bash scripts/sanitize.sh "$(OUT)/sanitize.log"

clean:   # (OUT=., /, ~, .git, .venv, sources: far more than build output — scripts/clean.sh refuses them)
	$(check_out)@bash scripts/clean.sh "$(OUT)"
