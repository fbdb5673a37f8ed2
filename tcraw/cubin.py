"""What a cubin says about itself: target arch, and each kernel's registers, static shared
memory and stack frame, read from the ELF.

The ptxas log (-Xptxas=-v) says the same, but NVRTC can serve a repeated compile from a cache
and then prints no ptxas lines at all (seen with NVRTC 13.0 on the H200; cuda-python issue
#1124), so the cubin is the source that is always there.
"""

import struct

EM_CUDA = 190
# Attributes of the global .nv.info section, each (symbol index, value) of one kernel.
EIATTR_FRAME_SIZE = 0x11       # stack frame bytes (spills live here)
EIATTR_REGCOUNT = 0x2F         # registers per thread
# Attributes of .nv.info.<kernel>.
EIATTR_KPARAM_INFO = 0x17      # one per parameter: index, ordinal, offset, size
EIFMT_SVAL, EIFMT_HVAL, EIFMT_BVAL, EIFMT_NVAL = 4, 3, 2, 1
RESERVED_SMEM = 1024


def _sections(image):
    if image[:4] != b"\x7fELF" or image[4] != 2:
        raise ValueError("not a 64-bit ELF image")
    e_shoff = struct.unpack_from("<Q", image, 0x28)[0]
    e_shentsize, e_shnum, e_shstrndx = struct.unpack_from("<HHH", image, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", image, e_shoff + i * e_shentsize) for i in range(e_shnum)]
    strtab_off = headers[e_shstrndx][4]

    def name(off):
        end = image.index(b"\0", strtab_off + off)
        return image[strtab_off + off:end].decode()
    # (name, type, flags, addr, offset, size, link, info, align, entsize)
    return {name(h[0]): h for h in headers}


def elf_arch(image):
    """(e_machine, sm number): the sm number sits in bits 8-15 of e_flags in current cubins."""
    e_machine = struct.unpack_from("<H", image, 18)[0]
    e_flags = struct.unpack_from("<I", image, 48)[0]
    return e_machine, (e_flags >> 8) & 0xFF


def _attributes(image, section):
    """Yield (attr, payload bytes) from a .nv.info section."""
    off, size = section[4], section[5]
    pos, end = off, off + size
    while pos + 2 <= end:
        fmt, attr = image[pos], image[pos + 1]
        if fmt == EIFMT_SVAL:
            length = struct.unpack_from("<H", image, pos + 2)[0]
            yield attr, image[pos + 4:pos + 4 + length]
            pos += 4 + length
        elif fmt == EIFMT_HVAL:
            yield attr, image[pos + 2:pos + 4]
            pos += 4
        elif fmt == EIFMT_BVAL:
            yield attr, image[pos + 2:pos + 3]
            pos += 3
        else:
            pos += 2


def kernel_resources(image, entry):
    """{'registers', 'smem_bytes', 'stack_bytes'} of one kernel, from the cubin alone."""
    secs = _sections(image)
    text = secs.get(f".text.{entry}")
    if text is None:
        raise KeyError(f"no kernel {entry!r} in this cubin")
    symbol = text[7] & 0xFFFFFF  # sh_info of .text.<kernel>: the kernel's symbol (low 24 bits)
    found = {EIATTR_REGCOUNT: 0, EIATTR_FRAME_SIZE: 0}
    if ".nv.info" in secs:
        for attr, payload in _attributes(image, secs[".nv.info"]):
            if attr in found and len(payload) == 8:
                sym, value = struct.unpack("<II", payload)
                if sym == symbol:
                    found[attr] = value
    shared = secs.get(f".nv.shared.{entry}")
    smem = shared[5] if shared else 0
    if smem and ".nv.shared.reserved.0" in secs:
        # sm_90+ cubins place 1 KiB of driver-reserved shared memory at the start of each
        # kernel's window; ptxas (and the kernel's author) count only the kernel's own.
        smem = max(0, smem - RESERVED_SMEM)
    return {"registers": found[EIATTR_REGCOUNT], "smem_bytes": smem, "stack_bytes": found[EIATTR_FRAME_SIZE]}


def kernel_param_sizes(image, entry):
    """Byte size of each parameter of ``entry``, in order, from its EIATTR_KPARAM_INFO records.

    The driver can say the same (cuFuncGetParamInfo), but only by being asked one index past
    the last and failing — an API error compute-sanitizer reports — and cuFuncGetParamCount
    is newer than the 13.0 driver. The cubin always knows. Returns None if it has no records.
    """
    info = _sections(image).get(f".nv.info.{entry}")
    if info is None:
        return None
    params = {}
    for attr, payload in _attributes(image, info):
        if attr == EIATTR_KPARAM_INFO and len(payload) >= 12:
            _index, ordinal, _offset, flags = struct.unpack_from("<IHHI", payload)
            params[ordinal] = (flags >> 18) & 0x3FFF  # size in bytes: bits 18-31 of the last word
    return [params[i] for i in range(len(params))] if params else None
