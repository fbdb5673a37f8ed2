#!/usr/bin/env bash
# make clean: remove the build output directory OUT (and .pytest_cache) — and nothing that is not
# build output. DRY_RUN=1 only says what it would remove.
#
# Refused: OUT that is, or holds, the filesystem root, $HOME or this checkout; inside the checkout
# anything but build/ unless git can vouch for it (no file git tracks in it, not .git, not a venv);
# anywhere but build/, an OUT that is not a directory or holds anything the make targets do not
# write there (cubins/, sweep/, bench/, sanitize.log) — OUT=/etc would otherwise go whole.
set -euo pipefail
out_arg="${1:?usage: clean.sh OUT}"
here="$(pwd -P)"
out="$(realpath -m -- "$out_arg")"
refuse() { echo "make clean: OUT=$out_arg $1" >&2; exit 2; }

for keep in "$here" "${HOME:-/}" /; do
  case "$keep/" in "${out%/}/"*) refuse "is not a build directory (it holds $keep)";; esac
done
case "$out/" in
  "$here/build/"*) ;;   # tcraw's own build output, whatever it holds
  *)
    if [ "${out#"$here"/}" != "$out" ]; then   # inside the checkout: git must vouch for it
      git -C "$here" rev-parse --is-inside-work-tree > /dev/null 2>&1 ||
        refuse "is inside this checkout, which git does not track: only build/ is removed here"
      case "$out/" in "$here/.git/"*) refuse "is git's own directory";; esac
      [ -z "$(git -C "$here" ls-files -- "$out" | head -n 1)" ] || refuse "holds files git tracks, not build output"
      [ ! -e "$out/pyvenv.cfg" ] || refuse "is a Python venv, not build output"
    fi
    [ ! -e "$out" ] || [ -d "$out" ] || refuse "is not a directory: the make targets write a directory there"
    other="$( [ ! -d "$out" ] || find "$out" -mindepth 1 -maxdepth 1 \
      ! -name cubins ! -name sweep ! -name bench ! -name sanitize.log -print -quit)"
    [ -z "$other" ] || refuse "holds ${other#"$out"/}, which no make target writes (they write cubins/, sweep/, \
bench/ and sanitize.log there): not build output — remove it yourself" ;;
esac
# The path as given without its trailing slashes: `rm -rf build/` where build is a link would empty
# the directory it points to; `rm -rf build` removes the link (the checks above read where it points)
gone="$out_arg"
while [ -n "${gone%/}" ] && { [ "${gone%/}" != "$gone" ] || [ "${gone%/.}" != "$gone" ]; }; do
  gone="${gone%/}"; gone="${gone%/.}"   # (build/, build/., build//: build)
done
if [ -L "$gone" ] && [ -n "$(git -C "$here" ls-files -- "$gone" 2> /dev/null | head -n 1)" ]; then
  refuse "is a link git tracks, not build output"   # (the checks above read where it points)
fi
if [ "${DRY_RUN:-0}" = 1 ]; then
  echo "would remove $gone .pytest_cache"
else
  rm -rf -- "$gone" .pytest_cache
fi
