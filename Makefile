# tcraw — make install · make test · make run · make compile ARCHS="75 80 90"
VENV   ?= .venv
PY     ?= $(VENV)/bin/python
ARCHS  ?= all
SIZE   ?= 1024
OUT    ?= build

empty :=
space := $(empty) $(empty)
comma := ,

.PHONY: install test run compile clean

# A project venv: works where the system Python refuses global pip installs (PEP 668).
install:
	python3 -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[dev]'
	@echo "installed: $(VENV)/bin/tcraw (or: $(PY) -m tcraw)"

test:
	$(PY) -m pytest -q -rs

run:
	$(PY) -m tcraw run --size $(SIZE)

compile:
	$(PY) -m tcraw compile --arch $(subst $(space),$(comma),$(strip $(ARCHS))) --out $(OUT)/cubins

clean:
	rm -rf $(OUT) .pytest_cache
