#!/usr/bin/env bash
# make clean: remove the build output directory OUT (and .pytest_cache) — and nothing that is not
# build output. DRY_RUN=1 only says what it would remove.
#
# Refused: OUT that is, or holds, the filesystem root, $HOME or this checkout; inside the checkout
# anything but build/ unless git can vouch for it (no file git tracks in it, not .git, not a venv).
set -euo pipefail
out_arg="${1:?usage: clean.sh OUT}"
here="$(pwd -P)"
out="$(realpath -m -- "$out_arg")"
refuse() { echo "make clean: OUT=$out_arg $1" >&2; exit 2; }

for keep in "$here" "${HOME:-/}" /; do
  case "$keep/" in "${out%/}/"*) refuse "is not a build directory (it holds $keep)";; esac
done
case "$out/" in
  "$here/build/"*) ;;   # tcraw's own build output
  "$here/"*)
    git -C "$here" rev-parse --is-inside-work-tree > /dev/null 2>&1 ||
      refuse "is inside this checkout, which git does not track: only build/ is removed here"
    case "$out/" in "$here/.git/"*) refuse "is git's own directory";; esac
    [ -z "$(git -C "$here" ls-files -- "$out" | head -n 1)" ] || refuse "holds files git tracks, not build output"
    [ ! -e "$out/pyvenv.cfg" ] || refuse "is a Python venv, not build output"
    ;;
esac
if [ "${DRY_RUN:-0}" = 1 ]; then
  echo "would remove $out_arg .pytest_cache"
else
  rm -rf -- "$out_arg" .pytest_cache
fi
