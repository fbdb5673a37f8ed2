"""What a cubin says about itself: target arch, its kernels, and each kernel's registers, static
shared memory, stack frame and parameter sizes, read from the ELF.

The ptxas log (-Xptxas=-v) says the same, but NVRTC can serve a repeated compile from a cache
and then prints no ptxas lines at all (seen with NVRTC 13.0 on the H200; cuda-python issue
#1124), so the cubin is the source that is always there.

Every read is bound-checked: a file that is not a 64-bit CUDA ELF, or is cut short anywhere,
raises CubinError naming the file (``source``) and how to rebuild it, never a traceback.
"""

import struct
from collections import namedtuple

from .errors import CubinError

ELF_MAGIC = b"\x7fELF"
ELFCLASS64, ELFDATA2LSB = 2, 1
EM_CUDA = 190
SHT_NOBITS = 8                 # a section that takes no bytes in the file (.nv.shared.*)
# Attributes of the global .nv.info section, each (symbol index, value) of one kernel.
EIATTR_FRAME_SIZE = 0x11       # stack frame bytes (spills live here)
EIATTR_REGCOUNT = 0x2F         # registers per thread
# Attributes of .nv.info.<kernel>.
EIATTR_KPARAM_INFO = 0x17      # one per parameter: index, ordinal, offset, size
EIATTR_MAX_THREADS = 0x05      # __launch_bounds__'s most threads a block, as (x, y, z)
# Record formats: SVAL = a 16-bit length, then that many bytes; HVAL, BVAL and NVAL carry a
# 2-byte, 1-byte or no value inside the record's 4-byte header.
EIFMT_SVAL, EIFMT_HVAL, EIFMT_BVAL, EIFMT_NVAL = 4, 3, 2, 1
_INLINE = {EIFMT_HVAL: 2, EIFMT_BVAL: 1, EIFMT_NVAL: 0}   # payload bytes within the header
RESERVED_SMEM = 1024

_EHDR = struct.Struct("<16sHHIQQQIHHHHHH")  # the 64-byte ELF64 header
_SHDR = struct.Struct("<IIQQQQIIQQ")        # one 64-byte ELF64 section header
_PHDR = struct.Struct("<IIQQQQQQ")          # one 56-byte ELF64 program header (segment)
Section = namedtuple("Section", "name type flags addr offset size link info align entsize")
REBUILD = "rebuild it with `tcraw compile --arch ... --out DIR`"


def _what(source):
    return f"cubin {source}" if source else "this cubin"


def _bad(source, problem):
    return CubinError(f"{_what(source)} cannot be read: {problem}; {REBUILD}")


def _header(image, source):
    """The ELF header's fields, after checking this is a little-endian 64-bit CUDA ELF."""
    if isinstance(image, memoryview):
        image = image.tobytes()
    if not isinstance(image, (bytes, bytearray)):
        raise CubinError(f"{_what(source)}: expected the bytes of a cubin, got {type(image).__name__}")
    if not image:
        raise _bad(source, "it is empty (0 bytes)")
    if not ELF_MAGIC.startswith(bytes(image[:4])):   # a cut-short magic is "truncated", below
        raise _bad(source, f"not an ELF file (it starts with {bytes(image[:4])!r}, not {ELF_MAGIC!r})")
    if len(image) > 4 and image[4] != ELFCLASS64:
        raise _bad(source, f"not a 64-bit ELF (class byte {image[4]}; cubins are class {ELFCLASS64}, 64-bit)")
    if len(image) > 5 and image[5] != ELFDATA2LSB:
        raise _bad(source, f"not a little-endian ELF (data byte {image[5]})")
    if len(image) < _EHDR.size:
        raise _bad(source, f"truncated: {len(image)} bytes, the ELF header alone needs {_EHDR.size}")
    fields = _EHDR.unpack_from(image, 0)
    if fields[2] != EM_CUDA:
        raise _bad(source, f"not a CUDA ELF (e_machine {fields[2]}; CUDA cubins have {EM_CUDA})")
    return image, fields


def _check_segments(image, e_phoff, e_phentsize, e_phnum, source):
    """The program headers (what the driver loads) and their segments lie within the file."""
    if not e_phnum:
        return
    end = e_phoff + e_phnum * e_phentsize
    if e_phentsize < _PHDR.size or end > len(image):
        raise _bad(source, f"truncated: the program header table (bytes {e_phoff}-{end}, "
                           f"{e_phnum} of {e_phentsize} bytes) ends past the end of the file "
                           f"({len(image)} bytes)")
    for i in range(e_phnum):
        p_offset, _vaddr, _paddr, p_filesz = _PHDR.unpack_from(image, e_phoff + i * e_phentsize)[2:6]
        if p_offset + p_filesz > len(image):
            raise _bad(source, f"truncated: segment {i} (bytes {p_offset}-{p_offset + p_filesz}) "
                               f"ends past the end of the file ({len(image)} bytes)")


def sections(image, source=None):
    """{name: Section} of a cubin; Section is (name, type, flags, addr, offset, size, link,
    info, align, entsize). Raises CubinError if the image is not a little-endian 64-bit CUDA
    ELF, or if any header, segment, section or section name lies past the end of the file."""
    image, (*_, e_phoff, e_shoff, _flags, _ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum,
            e_shstrndx) = _header(image, source)
    _check_segments(image, e_phoff, e_phentsize, e_phnum, source)
    if e_shnum == 0 or e_shentsize < _SHDR.size:
        raise _bad(source, f"no usable section table ({e_shnum} sections of {e_shentsize} bytes)")
    if e_shstrndx >= e_shnum:
        raise _bad(source, f"the section-name table index {e_shstrndx} is past the {e_shnum} sections")
    end = e_shoff + e_shnum * e_shentsize
    if end > len(image):
        raise _bad(source, f"truncated: the section table (bytes {e_shoff}-{end}) ends past the "
                           f"end of the file ({len(image)} bytes)")
    headers = [_SHDR.unpack_from(image, e_shoff + i * e_shentsize) for i in range(e_shnum)]
    for i, h in enumerate(headers):
        off, size = h[4], h[5]
        if (h[1] != SHT_NOBITS or i == e_shstrndx) and off + size > len(image):
            raise _bad(source, f"truncated: section {i} (bytes {off}-{off + size}) ends past the "
                               f"end of the file ({len(image)} bytes)")
    str_off, str_size = headers[e_shstrndx][4], headers[e_shstrndx][5]

    def name(i, at):
        end = image.find(b"\0", str_off + at, str_off + str_size) if at < str_size else -1
        if end < 0:
            raise _bad(source, f"the name of section {i} (offset {at}) runs past the "
                               f"{str_size}-byte section-name table")
        return image[str_off + at:end].decode("utf-8", "replace")
    found = {}
    for i, h in enumerate(headers):
        section = Section(name(i, h[0]), *h[1:])
        found[section.name] = section
    return found


def entries(image, source=None):
    """The kernel entry names a cubin holds, in file order: one per ``.text.<name>`` section.

    What ``cuModuleGetFunction`` can find in it; raises CubinError if the cubin cannot be read."""
    return [name[len(".text."):] for name in sections(image, source) if name.startswith(".text.")]


def elf_arch(image, source=None):
    """(e_machine, sm number). The cubin ELF ABI moved the sm number: ABI version 8 (CUDA 13, and
    CUDA 12.9's sm_120) keeps it in bits 8-15 of e_flags, ABI version 7 (CUDA 12 before that) in
    bits 0-7. The whole ELF is checked first, so an unreadable cubin raises CubinError."""
    image, fields = _header(image, source)
    sections(image, source)
    e_machine, e_flags = fields[2], fields[7]
    return e_machine, (e_flags >> 8) & 0xFF if image[8] >= 8 else e_flags & 0xFF


def _attributes(image, section, source):
    """Yield (attr, payload bytes) from a .nv.info section (already checked to lie in the file).

    Each record starts with 4 bytes: format, attribute, then a 16-bit field — the payload's
    length for SVAL (the payload follows), the value itself for BVAL (low byte) and HVAL,
    nothing for NVAL."""
    pos, end = section.offset, section.offset + section.size
    while pos < end:
        if pos + 4 > end:
            raise _bad(source, f"truncated record in {section.name} at byte {pos}: "
                               f"{end - pos} bytes left, a record needs at least 4")
        fmt, attr, field = image[pos], image[pos + 1], struct.unpack_from("<H", image, pos + 2)[0]
        if fmt == EIFMT_SVAL:
            start, length, size = pos + 4, field, 4 + field
        elif fmt in _INLINE:
            start, length, size = pos + 2, _INLINE[fmt], 4
        else:
            raise _bad(source, f"record at byte {pos} of {section.name} has unknown format {fmt}")
        if pos + size > end:
            raise _bad(source, f"truncated record in {section.name}: attribute {attr:#x} ends at "
                               f"byte {pos + size}, past the section's end at {end}")
        yield attr, image[start:start + length]
        pos += size


def require_entry(image, entry, source=None):
    """CubinError unless the cubin holds a kernel ``entry`` (naming those it does)."""
    _text(sections(image, source), entry, source)


def _text(secs, entry, source):
    """The .text.<entry> section, or CubinError naming the kernels the cubin does hold."""
    text = secs.get(f".text.{entry}")
    if text is None:
        have = [n[len(".text."):] for n in secs if n.startswith(".text.")]
        # (a prebuilt file may be another build's; an image just compiled was asked the wrong name)
        fix = f"; {REBUILD}" if source else " (a kernel is named by its symbol: extern \"C\"'s, or the mangled one)"
        raise CubinError(f"{_what(source)} has no kernel {entry!r}; it contains "
                         f"{', '.join(map(repr, have)) if have else 'no kernels'}{fix}")
    return text


def kernel_resources(image, entry, source=None):
    """{'registers', 'smem_bytes', 'stack_bytes'} of one kernel, from the cubin alone.
    Raises CubinError if the cubin cannot be read or holds no kernel ``entry``."""
    secs = sections(image, source)
    text = _text(secs, entry, source)
    symbol = text.info & 0xFFFFFF  # sh_info of .text.<kernel>: the kernel's symbol (low 24 bits)
    found = {EIATTR_REGCOUNT: 0, EIATTR_FRAME_SIZE: 0}
    if ".nv.info" in secs:
        for attr, payload in _attributes(image, secs[".nv.info"], source):
            if attr in found and len(payload) == 8:
                sym, value = struct.unpack("<II", payload)
                if sym == symbol:
                    found[attr] = value
    shared = secs.get(f".nv.shared.{entry}")
    smem = shared.size if shared else 0
    if smem and ".nv.shared.reserved.0" in secs:
        # sm_90+ cubins place 1 KiB of driver-reserved shared memory at the start of each
        # kernel's window; ptxas (and the kernel's author) count only the kernel's own.
        smem = max(0, smem - RESERVED_SMEM)
    return {"registers": found[EIATTR_REGCOUNT], "smem_bytes": smem, "stack_bytes": found[EIATTR_FRAME_SIZE]}


def kernel_param_sizes(image, entry, source=None):
    """Byte size of each parameter of ``entry``, in order, from its EIATTR_KPARAM_INFO records.

    The driver can say the same (cuFuncGetParamInfo), but only by being asked one index past
    the last and failing — an API error compute-sanitizer reports — and cuFuncGetParamCount
    is newer than the 13.0 driver. The cubin always knows. Returns None if it has no .nv.info section
    for the entry, [] where that holds no parameter records (a kernel of none);
    raises CubinError if the cubin cannot be read or holds no kernel ``entry``.
    """
    secs = sections(image, source)
    _text(secs, entry, source)
    info = secs.get(f".nv.info.{entry}")
    if info is None:
        return None
    params = {}
    for attr, payload in _attributes(image, info, source):
        if attr == EIATTR_KPARAM_INFO and len(payload) >= 12:
            _index, ordinal, _offset, flags = struct.unpack_from("<IHHI", payload)
            params[ordinal] = (flags >> 18) & 0x3FFF  # size in bytes: bits 18-31 of the last word
    if params and sorted(params) != list(range(len(params))):
        raise _bad(source, f"the parameter records of {entry!r} have ordinals {sorted(params)}, "
                           f"not 0 to {len(params) - 1}")
    return [params[i] for i in range(len(params))]   # ([]: a kernel of no parameters)


def kernel_max_threads(image, entry, source=None):
    """The most threads a block of ``entry`` may have, as its source's __launch_bounds__ told
    ptxas (the cubin's EIATTR_MAX_THREADS, x · y · z), or None where it states none: a launch of
    more fails with CUDA_ERROR_INVALID_VALUE."""
    secs = sections(image, source)
    _text(secs, entry, source)
    info = secs.get(f".nv.info.{entry}")
    for attr, payload in _attributes(image, info, source) if info is not None else ():
        if attr == EIATTR_MAX_THREADS and len(payload) == 12:
            x, y, z = struct.unpack("<III", payload)
            return x * y * z
    return None


_SYM = struct.Struct("<IBBHQQ")   # one 24-byte ELF64 symbol: name, info, other, section, value, size


def symbol_bytes(image, name, source=None):
    """The initial bytes of the global ``name`` (an extern "C" __constant__ or __device__ array)
    as the cubin stores them, or None when there is no such symbol. How a kernel states its own
    launch sizes (``tcraw_launch``) so that the host can check its declaration against them."""
    image, fields = _header(image, source)
    secs = sections(image, source)
    symtab, strtab = secs.get(".symtab"), secs.get(".strtab")
    if symtab is None or strtab is None:
        return None
    e_shoff, e_shentsize = fields[6], fields[11]
    want = name.encode()
    for at in range(symtab.offset, symtab.offset + symtab.size - _SYM.size + 1, _SYM.size):
        st_name, _info, _other, shndx, value, size = _SYM.unpack_from(image, at)
        start = strtab.offset + st_name
        if image[start:start + len(want) + 1] != want + b"\0":
            continue
        if not 0 < shndx < fields[12]:
            raise _bad(source, f"symbol {name} points at section {shndx}, which does not exist")
        home = Section("", *_SHDR.unpack_from(image, e_shoff + shndx * e_shentsize)[1:])
        if home.type == SHT_NOBITS or value + size > home.size:
            raise _bad(source, f"symbol {name} ({size} bytes at {value}) lies outside its section")
        return bytes(image[home.offset + value:home.offset + value + size])
    return None
