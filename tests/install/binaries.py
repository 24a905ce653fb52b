"""What a binary is, read from its bytes, for the shape tests (tests/install/shapes-c): no tool of
the platform it is for is needed. `python3 binaries.py FILE` prints it as JSON.

ELF:    {"format": "elf", "machine": "x86_64"|"aarch64", "os": "linux"|"freebsd", "type": "exec"|
         "shared"|"relocatable", "soname", "needed": [...], "interp", "exports": [...] (defined
         global functions of .dynsym), "glibc": highest GLIBC_x.y version needed}
Mach-O: {"format": "macho", "machine": "x86_64"|"arm64", "type": "exec"|"dylib", "install_name",
         "dylibs": [...], "exports": [...] (external defined symbols, without the leading _)}
PE:     {"format": "pe", "machine": "x86_64", "type": "exec"|"dll", "dll_name", "imports": [...]
         (DLL names), "exports": [...]}
"""

import json
import struct
import sys


def cstr(data, offset):
    end = data.index(b"\0", offset)
    return data[offset:end].decode()


def elf(data):
    assert data[4] == 2 and data[5] == 1, "64-bit little-endian ELF only"
    osabi = data[7]
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    e_shoff, = struct.unpack_from("<Q", data, 0x28)
    e_shentsize, e_shnum, e_shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    e_phoff, = struct.unpack_from("<Q", data, 0x20)
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, 0x36)
    sections = []
    for i in range(e_shnum):
        off = e_shoff + i * e_shentsize
        name, typ, _flags, _addr, offset, size, link, _info, _align, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, off)
        sections.append(dict(name=name, type=typ, offset=offset, size=size, link=link, entsize=entsize))
    shstr = sections[e_shstrndx]
    for s in sections:
        s["name"] = cstr(data, shstr["offset"] + s["name"])
    by_name = {s["name"]: s for s in sections}
    out = {"format": "elf", "machine": {62: "x86_64", 183: "aarch64"}.get(e_machine, e_machine),
           "type": {1: "relocatable", 2: "exec", 3: "shared"}.get(e_type, e_type),
           "os": "freebsd" if osabi == 9 else "linux", "needed": [], "soname": None,
           "interp": None, "exports": [], "glibc": None}
    for i in range(e_phnum):
        p_type, _f, p_offset, _v, _p, p_filesz = struct.unpack_from("<IIQQQQ", data, e_phoff + i * e_phentsize)
        if p_type == 3:
            out["interp"] = data[p_offset:p_offset + p_filesz].rstrip(b"\0").decode()
    dynamic, dynstr = by_name.get(".dynamic"), by_name.get(".dynstr")
    if dynamic and dynstr:
        for off in range(dynamic["offset"], dynamic["offset"] + dynamic["size"], 16):
            tag, val = struct.unpack_from("<qQ", data, off)
            if tag == 1:
                out["needed"].append(cstr(data, dynstr["offset"] + val))
            elif tag == 14:
                out["soname"] = cstr(data, dynstr["offset"] + val)
    dynsym = by_name.get(".dynsym")
    if dynsym and dynstr:
        for off in range(dynsym["offset"] + 24, dynsym["offset"] + dynsym["size"], 24):
            st_name, st_info, _other, st_shndx = struct.unpack_from("<IBBH", data, off)
            if st_shndx != 0 and st_info >> 4 in (1, 2) and st_info & 0xF == 2:
                out["exports"].append(cstr(data, dynstr["offset"] + st_name))
    if out["type"] == "shared" and out["interp"]:
        out["type"] = "exec"  # a position-independent executable
    # A FreeBSD binary may say ELFOSABI_NONE: its interpreter or its libc tell.
    if out["interp"] == "/libexec/ld-elf.so.1" or "libc.so.7" in out["needed"]:
        out["os"] = "freebsd"
    versions = [v for v in (s for s in data.split(b"\0") if s.startswith(b"GLIBC_2.")) ]
    if versions:
        parsed = []
        for v in versions:
            try:
                parsed.append(tuple(int(x) for x in v[6:].decode().split(".")))
            except ValueError:
                pass
        if parsed:
            out["glibc"] = ".".join(map(str, max(parsed)))
    out["exports"].sort()
    return out


def macho(data):
    magic, cputype, _sub, filetype, ncmds, _size, _flags, _res = struct.unpack_from("<IiiIIIII", data, 0)
    assert magic == 0xFEEDFACF, "64-bit Mach-O only"
    out = {"format": "macho", "machine": {0x01000007: "x86_64", 0x0100000C: "arm64"}.get(cputype, cputype),
           "type": {2: "exec", 6: "dylib"}.get(filetype, filetype), "install_name": None,
           "dylibs": [], "exports": []}
    off = 32
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", data, off)
        if cmd in (0xC, 0xD, 0x80000018):  # LC_LOAD_DYLIB, LC_ID_DYLIB, LC_LOAD_WEAK_DYLIB
            name_off, = struct.unpack_from("<I", data, off + 8)
            name = cstr(data, off + name_off)
            if cmd == 0xD:
                out["install_name"] = name
            else:
                out["dylibs"].append(name)
        elif cmd == 0x2:  # LC_SYMTAB
            symoff, nsyms, stroff, _strsize = struct.unpack_from("<IIII", data, off + 8)
            for i in range(nsyms):
                n_strx, n_type, _sect, _desc, _value = struct.unpack_from("<IBBhQ", data, symoff + 16 * i)
                if n_type & 0xE0 == 0 and n_type & 0x01 and n_type & 0x0E == 0x0E:
                    out["exports"].append(cstr(data, stroff + n_strx).removeprefix("_"))
        off += cmdsize
    out["exports"].sort()
    return out


def pe(data):
    pe_off, = struct.unpack_from("<I", data, 0x3C)
    assert data[pe_off:pe_off + 4] == b"PE\0\0"
    machine, nsections, _t, _p, _n, opt_size, characteristics = struct.unpack_from("<HHIIIHH", data, pe_off + 4)
    opt = pe_off + 24
    assert struct.unpack_from("<H", data, opt)[0] == 0x20B, "PE32+ only"
    sections = []
    for i in range(nsections):
        s = opt + opt_size + 40 * i
        vsize, vaddr, rawsize, rawptr = struct.unpack_from("<IIII", data, s + 8)
        sections.append((vaddr, max(vsize, rawsize), rawptr))

    def at(rva):
        for vaddr, size, rawptr in sections:
            if vaddr <= rva < vaddr + size:
                return rawptr + rva - vaddr
        raise ValueError(f"RVA {rva:#x} in no section")

    directories = opt + 112
    export_rva, export_size = struct.unpack_from("<II", data, directories)
    import_rva, _ = struct.unpack_from("<II", data, directories + 8)
    out = {"format": "pe", "machine": {0x8664: "x86_64"}.get(machine, machine),
           "type": "dll" if characteristics & 0x2000 else "exec", "dll_name": None,
           "imports": [], "exports": []}
    if export_rva and export_size:
        e = at(export_rva)
        name_rva, = struct.unpack_from("<I", data, e + 12)
        nnames, = struct.unpack_from("<I", data, e + 24)
        names_rva, = struct.unpack_from("<I", data, e + 32)
        out["dll_name"] = cstr(data, at(name_rva))
        names = at(names_rva)
        out["exports"] = sorted(cstr(data, at(struct.unpack_from("<I", data, names + 4 * i)[0]))
                                for i in range(nnames))
    if import_rva:
        d = at(import_rva)
        while True:
            fields = struct.unpack_from("<IIIII", data, d)
            if not any(fields):
                break
            out["imports"].append(cstr(data, at(fields[3])))
            d += 20
    return out


def describe(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] == b"\x7fELF":
        return elf(data)
    if data[:4] == b"\xcf\xfa\xed\xfe":
        return macho(data)
    if data[:2] == b"MZ":
        return pe(data)
    if data[:8] == b"!<arch>\n":
        return {"format": "archive"}
    raise SystemExit(f"{path}: not ELF, Mach-O, PE or an archive")


if __name__ == "__main__":
    print(json.dumps(describe(sys.argv[1])))
