# tcraw — make install · make test · make run · make compile ARCHS="75 80 90" · make sweep
VENV    ?= .venv
PY      ?= $(VENV)/bin/python
ARCHS   ?= all
SIZE    ?= 1024
SIZES   ?= 256 1024 2048
KERNELS ?=
DEVICE  ?= 0
OUT     ?= build

empty :=
space := $(empty) $(empty)
comma := ,
csv = $(subst $(space),$(comma),$(strip $(1)))

.PHONY: help install test run compile cubins sweep bench sanitize clean
.DEFAULT_GOAL := help

help:   # bare `make` lists the targets rather than install anything
	@echo "make install [CUDA=12]   a project venv ($(VENV)) from pip wheels"
	@echo "make test                the tests (GPU tests skip, with the reason, without a GPU)"
	@echo "make run [SIZE=1024]     the seed's comparison on the GPU"
	@echo "make compile [ARCHS=\"80 90\"] [KERNELS=a,b]   cubins and resources in $(OUT)/cubins (no GPU needed)"
	@echo "make cubins              every kernel for every arch, for cubin-only runs"
	@echo "make sweep [SIZES=...]   sizes x kernels, CSV and JSON in $(OUT)/sweep"
	@echo "make bench               cache and launch costs, and the ladder against cuBLAS, in $(OUT)/bench"
	@echo "make sanitize [KERNELS=a,b]   compute-sanitizer over the kernels"
	@echo "make clean               remove $(OUT) and .pytest_cache"

# A project venv: works where the system Python refuses global pip installs (PEP 668).
# CUDA=13 (default; driver >= 580) or CUDA=12 (drivers 525-579, sm_50 ... sm_72): `nvidia-smi`'s
# "CUDA Version" says which. CUDA=12 adds the 12.x NVRTC and headers and pins cuda-bindings to 12.x.
CUDA    ?= 13
install:
	python3 -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[dev,cu$(CUDA)]' $(if $(filter 12,$(CUDA)),'cuda-bindings>=12.6.1$(comma)<13')
	rm -rf build/lib build/bdist.* tcraw.egg-info   # setuptools' by-products; the venv has the metadata
	@echo "installed: $(VENV)/bin/tcraw (or: $(PY) -m tcraw)"

test:
	$(PY) -m pytest -q -rs

run:
	$(PY) -m tcraw run --size $(SIZE)

# Cubins and the resource table for each arch (no GPU needed); archs NVRTC lacks are listed.
compile:
	$(PY) -m tcraw compile --arch $(call csv,$(ARCHS)) --out $(OUT)/cubins \
	  $(if $(KERNELS),--kernel $(call csv,$(KERNELS)))

# Prebuilt cubins + manifest.json for cubin-only runs: tcraw run --cubin-dir $(OUT)/cubins
cubins:
	$(PY) -m tcraw compile --arch all --out $(OUT)/cubins --format json > /dev/null
	@echo "cubins and manifest.json in $(OUT)/cubins"

sweep:
	$(PY) -m tcraw sweep --sizes $(call csv,$(SIZES)) --device $(DEVICE) --out $(OUT)/sweep \
	  $(if $(KERNELS),--kernel $(call csv,$(KERNELS)))

bench:
	$(PY) scripts/bench_cache.py
	$(PY) scripts/bench_launch.py
	$(PY) -m tcraw bench --out $(OUT)/bench
	-$(PY) scripts/plot_bench.py $(OUT)/bench/bench.json -o $(OUT)/bench/bench.png

# compute-sanitizer memcheck/racecheck/initcheck/synccheck over every kernel (needs a GPU)
sanitize:   # KERNELS=a,b to check only those
	PY=$(PY) KERNELS=$(KERNELS) bash scripts/sanitize.sh $(OUT)/sanitize.log

clean:   # (OUT=., /, this checkout, ~ or what holds them would remove far more than build output)
	@out="$$(realpath -m -- "$(strip $(OUT))" 2>/dev/null)"; \
	for keep in "$(CURDIR)" "$${HOME:-/}" /; do case "$$keep/" in "$${out%/}/"*) \
	  echo "make clean: OUT=$(OUT) is not a build directory" >&2; exit 2;; esac; done
	rm -rf $(OUT) .pytest_cache
