"""The on-disk cubin cache.

Key: sha256 over the schema version, the kernel source, the content of every header it
includes (followed transitively), the NVRTC options (less the -I path, whose content is already
hashed), the arch and the NVRTC version. A toolkit upgrade or an edited header is a new key.

Entry: one file ``<key>.tcc`` = magic, JSON metadata length, metadata, cubin, and a sha256 of
everything before it. Written to a temporary file in the same directory and renamed into place
(atomic on POSIX), so processes compiling the same kernel at once never leave a broken entry; a
truncated or corrupt one fails its digest, is deleted, and the kernel is compiled again.
"""

import hashlib
import json
import os
import re
import struct
import tempfile
from pathlib import Path

SCHEMA = 1
MAGIC = b"TCRAWC01"
# No ^ anchor: a pattern that starts with a literal lets the regex engine skip ahead fast, and an
# #include in a comment matching too only makes the key stricter.
_INCLUDE = re.compile(rb'#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]')


def cache_dir():
    if os.environ.get("TCRAW_CACHE_DIR"):
        return Path(os.environ["TCRAW_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "tcraw"


_header_digest_memo = {}


def included_headers(source, include_dir, source_dir=None):
    """{path: content} of every header the source pulls in, transitively, that exists on disk.
    An include is looked up next to the including file first, then in ``include_dir``."""
    found, todo = {}, [(source.encode() if isinstance(source, str) else source, source_dir)]
    while todo:
        text, here = todo.pop()
        for name in _INCLUDE.findall(text):
            for base in (here, include_dir):
                if base is None:
                    continue
                path = os.path.normpath(os.path.join(base, name.decode()))
                if path in found:
                    break
                try:
                    with open(path, "rb") as f:
                        found[path] = f.read()
                except OSError:
                    continue
                todo.append((found[path], os.path.dirname(path)))
                break
    return dict(sorted(found.items()))


def _headers_digest(source, include_dir, source_dir):
    memo_key = (hashlib.sha256(source.encode()).hexdigest(), str(include_dir))
    if memo_key not in _header_digest_memo:
        h = hashlib.sha256()
        for path, content in included_headers(source, include_dir, source_dir).items():
            # the name as included (relative to the include dir), so moving the toolkit is no change
            h.update((os.path.relpath(path, include_dir) if include_dir else os.path.basename(path)).encode())
            h.update(content)
        _header_digest_memo[memo_key] = h.hexdigest()
    return _header_digest_memo[memo_key]


def cache_key(source, options, arch, nvrtc_version, include_dir=None, source_dir=None):
    parts = {
        "schema": SCHEMA,
        "source": hashlib.sha256(source.encode()).hexdigest(),
        "headers": _headers_digest(source, include_dir, source_dir),
        "options": [o for o in options if not o.startswith("-I")],
        "arch": str(arch),
        "nvrtc": list(nvrtc_version),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


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
            self.dir.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=f".{key[:16]}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(body + hashlib.sha256(body).digest())
                os.replace(tmp, self.path(key))  # atomic: readers see the old entry or the new
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as exc:  # read-only or full: keep compiling, just without the cache
            self.writable, self.problem = False, f"cubin cache disabled: cannot write {self.dir} ({exc.strerror})"
            return False
        return True

    def entries(self):
        return sorted(self.dir.glob("*.tcc")) if self.dir.is_dir() else []

    def clear(self):
        n = 0
        for p in self.entries():
            p.unlink()
            n += 1
        return n
