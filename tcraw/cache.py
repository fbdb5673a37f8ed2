"""The on-disk cubin cache.

Key: sha256 over the schema version, the kernel source, the content of every header it
includes (followed transitively), the NVRTC options (less the -I path, whose content is already
hashed), the arch and the NVRTC version. A toolkit upgrade or an edited header is a new key —
in the same process too: the headers' digests are remembered only while no file changes (nor
one appears where an include was looked for). A source, or a header of its own, whose #include
names a macro (``#include CONFIG``) has no key: which file that reads is the preprocessor's to
say, so such a source is compiled every time, never served stale. (The CUDA headers' own macro
includes — Thrust's — are pinned by the NVRTC version in the key.)

Entry: one file ``<key>.tcc`` = magic, JSON metadata length, metadata, cubin, and a sha256 of
everything before it. Written to a temporary file in the same directory and renamed into place
(atomic on POSIX), so processes compiling the same kernel at once never leave a broken entry; a
truncated or corrupt one fails its digest, is deleted, and the kernel is compiled again.

The directory also holds sass.py's tensor-op counts, ``<sha>.sass.json``, written the same way.
"""

import hashlib
import json
import os
import re
import shutil
import struct
import tempfile
from pathlib import Path

from .driver import source_bytes
from .validate import dir_problem

SCHEMA = 1
MAGIC = b"TCRAWC01"
# No ^ anchor: a pattern that starts with a literal lets the regex engine skip ahead fast, and an
# #include in a comment matching too only makes the key stricter.
_INCLUDE = re.compile(rb'#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]')
_COMPUTED_INCLUDE = re.compile(rb'(?m)^[ \t]*#[ \t]*include[ \t]+[A-Za-z_]')   # #include MACRO: no name to follow
SASS_SUFFIX = ".sass.json"
# What the cache owns, and clear() removes: cubin entries and sass.py's counts (both named by a
# sha256), and the temporary files of writers killed before their rename (write_temp names them
# so: a dot, the first 16 of the key, mkstemp's letters). Nothing else in the directory is touched:
# TCRAW_CACHE_DIR may point where other files live.
_OWNED = re.compile(r"[0-9a-f]{64}\.tcc|[0-9a-f]{64}" + re.escape(SASS_SUFFIX) + r"|\.[0-9a-f]{16}\.[\w-]+\.tmp")


def cache_dir():
    """TCRAW_CACHE_DIR (blank counts as unset; a relative one from the working directory, made
    absolute so that every message names where it is), else $XDG_CACHE_HOME/tcraw (an absolute
    one: the XDG spec has a relative one ignored) or ~/.cache/tcraw."""
    if os.environ.get("TCRAW_CACHE_DIR", "").strip():   # (~ as a shell would: quoted, it reaches us as is)
        return Path(os.path.abspath(Path(os.environ["TCRAW_CACHE_DIR"]).expanduser()))
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "tcraw"


_header_digest_memo = {}


def included_headers(source, include_dir, source_dir=None):
    """Sorted [(name, content)] of every header the source pulls in, transitively, that exists on
    disk. An include is looked up where NVRTC looks: "name" next to the including file first
    (``source_dir`` for the source itself), then in ``include_dir`` (the -I list); <name> in
    ``include_dir`` alone. Its name is relative to the directory it was found in (the name as
    included), never that directory's own place, so two installs of tcraw sharing a cache share
    its keys. A list, not a
    dict: two different headers can be included under the same name from different directories.
    ``include_dir`` may be one directory or a sequence of them (searched in order)."""
    return _scan(source, include_dir, source_dir)[0]


def _scan(source, include_dir, source_dir, toolchain=()):
    """(included_headers' list, [(path, os.stat signature, or None: looked for there and not
    found)] of the places that decided it, whether a text includes a macro's file). In the
    ``toolchain``'s directories (the CUDA headers: NVRTC's version, in the key, pins them) neither
    is asked: their macro includes (Thrust's) name files of the same toolchain, and a file new
    there comes with a new toolchain."""
    include_dirs = [include_dir] if isinstance(include_dir, (str, os.PathLike)) or include_dir is None \
        else list(include_dir)
    toolchain = tuple(os.path.join(os.path.normpath(d), "") for d in toolchain)
    seen, found, stats = set(), [], []
    todo = [(source_bytes(source), source_dir)]
    computed = False
    while todo:
        text, here = todo.pop()
        ours = here is None or not os.path.join(os.path.normpath(here), "").startswith(toolchain)
        computed = computed or (ours and bool(_COMPUTED_INCLUDE.search(text)))
        for opener, name in _INCLUDE.findall(text):
            # NVRTC's order (compiler.build_options): "name" beside the including file, then the
            # -I list; <name> the -I list alone
            for base in ((here,) if opener == b'"' else ()) + tuple(include_dirs):
                if base is None:
                    continue
                path = os.path.normpath(os.path.join(base, os.fsdecode(name)))
                if path in seen:
                    break
                try:
                    with open(path, "rb") as f:
                        content = f.read()
                        stats.append((path, _signature(os.fstat(f.fileno()))))
                except OSError:
                    if ours and not path.startswith(toolchain):   # (a header made here later would be read)
                        stats.append((path, None))
                    continue
                seen.add(path)
                found.append((os.path.relpath(path, base), content))
                todo.append((content, os.path.dirname(path)))
                break
    return sorted(found), stats, computed


def _signature(st):
    return st.st_mtime_ns, st.st_size, st.st_ino


def _unchanged(stats):
    """Whether every file a remembered digest read is as it was then, and none it looked for and
    did not find is there now."""
    for path, sig in stats:
        try:
            if _signature(os.stat(path)) != sig:
                return False
        except OSError:
            if sig is not None:
                return False
    return True


def _headers_digest(source, include_dir, source_dir, toolchain=()):
    """The digest of the headers ``source`` includes, or None where it includes a macro's file.
    Remembered per (source, directories) while the files that decided it are unchanged: a header
    edited between two compiles of one process (a notebook's) is a new key, not the old cubin."""
    # source_dir too: the same source beside other headers includes other content
    memo_key = (hashlib.sha256(source_bytes(source)).hexdigest(), str(include_dir), str(source_dir), str(toolchain))
    memo = _header_digest_memo.get(memo_key)
    if memo is None or not _unchanged(memo[1]):
        found, stats, computed = _scan(source, include_dir, source_dir, toolchain)
        h = hashlib.sha256()
        for name, content in found:
            h.update(source_bytes(name))
            h.update(content)
        memo = _header_digest_memo[memo_key] = (None if computed else h.hexdigest(), stats)
    return memo[0]


def cache_key(source, options, arch, nvrtc_version, include_dir=None, source_dir=None, toolchain=()):
    """The entry's name for this compile, or None where it has none (an #include of a macro's
    file, outside the ``toolchain``'s headers): compile it, and keep nothing. ``nvrtc_version``:
    what tells the compiler apart, compiler.nvrtc_build's (major, minor, library size)."""
    headers = _headers_digest(source, include_dir, source_dir, toolchain)
    if headers is None:
        return None
    parts = {
        "schema": SCHEMA,
        "source": hashlib.sha256(source_bytes(source)).hexdigest(),
        "headers": headers,
        "options": [o for o in options if not o.startswith("-I")],
        "arch": str(arch),
        "nvrtc": list(nvrtc_version),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def write_temp(path, data):
    """A temporary file beside ``path`` holding ``data``, for replace_with() to rename into place.
    An OSError here is the directory's own (read-only, full disk), not one entry's."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:16]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def replace_with(tmp, path):
    """Rename ``tmp`` over ``path``, atomic on POSIX: readers see the old file or the new. False,
    with ``tmp`` removed, when this one path cannot be replaced (it is a directory, say)."""
    try:
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
    return True


class CubinCache:
    def __init__(self, directory=None):
        self.dir = Path(directory) if directory else cache_dir()
        self.writable = True
        self.problem = None   # why the last store failed, if it did (read-only dir, full disk)

    def path(self, key):
        return self.dir / f"{key}.tcc"

    def load(self, key):
        """(metadata, cubin) or None. A corrupt entry is removed and reported as a miss."""
        path = self.path(key)
        try:
            blob = path.read_bytes()
        except OSError:
            return None
        entry = self._decode(blob)
        if entry is None:
            try:
                path.unlink()
            except OSError:
                pass
        return entry

    @staticmethod
    def _decode(blob):
        if len(blob) < len(MAGIC) + 4 + 32 or not blob.startswith(MAGIC):
            return None
        body, digest = blob[:-32], blob[-32:]
        if hashlib.sha256(body).digest() != digest:
            return None
        (meta_len,) = struct.unpack_from("<I", body, len(MAGIC))
        start = len(MAGIC) + 4
        try:
            meta = json.loads(body[start:start + meta_len])
        except ValueError:
            return None
        return meta, body[start + meta_len:]

    def store(self, key, meta, image):
        if not self.writable:
            return False
        meta_bytes = json.dumps(meta).encode()
        body = MAGIC + struct.pack("<I", len(meta_bytes)) + meta_bytes + image
        try:
            tmp = write_temp(self.path(key), body + hashlib.sha256(body).digest())
        except OSError as exc:  # read-only or full: keep compiling, just without the cache
            self.writable, self.problem = False, (f"cubin cache disabled: cannot write {self.dir} "
                                                  f"({dir_problem(self.dir) or exc.strerror})")
            return False
        # A path that will not take the rename (a directory, made by hand or another tool) costs
        # only this entry: it is skipped, not removed, since store never deletes what it did not
        # write; load() misses on it and `tcraw cache clear` removes it.
        return replace_with(tmp, self.path(key))

    def entries(self):
        return sorted(p for p in self.dir.glob("*.tcc") if _OWNED.fullmatch(p.name)) if self.dir.is_dir() else []

    def clear(self):
        """Remove every entry (one that is a directory too), SASS count and leftover temporary
        file — only names the cache gives (_OWNED); returns how many were removed."""
        if not self.dir.is_dir():
            return 0
        n = 0
        for p in self.dir.iterdir():
            if _OWNED.fullmatch(p.name):
                try:
                    if p.is_dir() and not p.is_symlink():
                        shutil.rmtree(p)
                    else:
                        p.unlink()
                except FileNotFoundError:  # another clear, or a writer's rename, got there first
                    continue
                n += 1
        return n


def cache_report(action="info", directory=None):
    """What `tcraw cache info` and `cache clear` report, as a dict: the directory and its entries
    (info: their bytes too; clear: the files removed — an entry's SASS counts sit beside it). A
    directory that cannot be one, or that the OS will not let tcraw read or clear, is a
    UsageError naming it."""
    from .errors import UsageError
    if action not in ("info", "clear"):
        raise UsageError(f"the cache's actions are info and clear, not {action!r:.80}")
    if directory is not None and (not isinstance(directory, (str, os.PathLike)) or not str(directory).strip()):
        raise UsageError(f"directory is None (the cache tcraw uses) or a directory's path, not {directory!r:.80}")
    c = CubinCache(directory)
    where = "give another directory" if directory else "point TCRAW_CACHE_DIR elsewhere"
    try:
        if (problem := dir_problem(c.dir)):
            raise UsageError(f"the cubin cache {c.dir} cannot be a directory: {problem}; {where}")
        entries = c.entries()
        if action == "clear":
            return {"dir": str(c.dir), "entries": len(entries), "removed": c.clear()}
        from .validate import env_flag
        return {"dir": str(c.dir), "entries": len(entries),
                "bytes": sum(p.stat().st_size for p in entries if p.is_file()),
                "override": "TCRAW_NO_CACHE=1 is set: compiles neither read nor write it" if env_flag("TCRAW_NO_CACHE")
                else "TCRAW_CACHE_DIR (TCRAW_NO_CACHE=1 to bypass)"}
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise UsageError(f"cache {action}: {exc.strerror or exc} ({exc.filename or c.dir}); "
                         f"check its permissions, or {where}") from None

