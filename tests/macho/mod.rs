//! Reading a 64-bit Mach-O file (macOS's executables, dylibs and objects) as far as the tests
//! need: its CPU and file type, the install name, the dylibs it loads and its rpaths, the
//! platform it was built for, the symbols it exports (both the export trie, which is what dyld
//! binds to, and the symbol table, which is what `nm -gU` lists) and whether its code
//! signature's page hashes hold. Every offset is checked against the file: a malformed file fails the test with a
//! message, never a slice panic.

// Each test file uses the parts it needs; the rest would be dead code there.
#![allow(dead_code)]

use std::collections::BTreeSet;

pub const CPU_X86_64: u32 = 0x0100_0007;
pub const CPU_ARM64: u32 = 0x0100_000c;
pub const MH_EXECUTE: u32 = 2;
pub const MH_DYLIB: u32 = 6;
pub const PLATFORM_MACOS: u32 = 1;

const MH_MAGIC_64: u32 = 0xfeed_facf;
const LC_SYMTAB: u32 = 0x2;
const LC_LOAD_DYLIB: u32 = 0xc;
const LC_ID_DYLIB: u32 = 0xd;
const LC_CODE_SIGNATURE: u32 = 0x1d;
const LC_VERSION_MIN_MACOSX: u32 = 0x24;
const LC_BUILD_VERSION: u32 = 0x32;
const LC_DYLD_INFO: u32 = 0x22;
const LC_REQ_DYLD: u32 = 0x8000_0000;
const LC_LOAD_WEAK_DYLIB: u32 = 0x18 | LC_REQ_DYLD;
const LC_RPATH: u32 = 0x1c | LC_REQ_DYLD;
const LC_REEXPORT_DYLIB: u32 = 0x1f | LC_REQ_DYLD;
const LC_DYLD_INFO_ONLY: u32 = LC_DYLD_INFO | LC_REQ_DYLD;
const LC_DYLD_EXPORTS_TRIE: u32 = 0x33 | LC_REQ_DYLD;

/// What the tests read of one Mach-O file.
#[derive(Debug)]
pub struct MachO {
    pub cpu: u32,
    pub file_type: u32,
    /// LC_ID_DYLIB's name: how a program linked with this dylib asks for it.
    pub install_name: Option<String>,
    /// Every LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB and LC_REEXPORT_DYLIB name, in order.
    pub loads: Vec<String>,
    /// Every LC_RPATH: where `@rpath/` of a loaded dylib is looked for.
    pub rpaths: Vec<String>,
    /// The platform and minimum OS version (`(major, minor)`) of LC_BUILD_VERSION, or of
    /// LC_VERSION_MIN_MACOSX, which the linker writes instead for a macOS before 10.14.
    pub platform: Option<(u32, (u32, u32))>,
    /// The names of the export trie (LC_DYLD_INFO(_ONLY) or LC_DYLD_EXPORTS_TRIE).
    pub exports: BTreeSet<String>,
    /// The external symbols the symbol table defines (neither undefined nor private extern).
    pub defined_externals: BTreeSet<String>,
    /// LC_CODE_SIGNATURE's (offset, size) in the file.
    pub signature: Option<(usize, usize)>,
}

/// Little-endian reads that fail with what was being read instead of panicking on a short file.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn slice(&self, at: usize, len: usize, what: &str) -> Result<&[u8], String> {
        at.checked_add(len)
            .and_then(|end| self.0.get(at..end))
            .ok_or_else(|| {
                format!(
                    "{what}: {len} bytes at {at} are past the end ({})",
                    self.0.len()
                )
            })
    }

    fn u32(&self, at: usize, what: &str) -> Result<u32, String> {
        let b = self.slice(at, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u32_be(&self, at: usize, what: &str) -> Result<u32, String> {
        let b = self.slice(at, 4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn at(&self, at: usize, what: &str) -> Result<usize, String> {
        self.u32(at, what).map(|v| v as usize)
    }

    /// The NUL-terminated string at `at`.
    fn c_str(&self, at: usize, what: &str) -> Result<String, String> {
        let rest = self
            .0
            .get(at..)
            .ok_or_else(|| format!("{what}: {at} is past the end"))?;
        let end = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| format!("{what}: no NUL after {at}"))?;
        String::from_utf8(rest[..end].to_vec()).map_err(|_| format!("{what}: not UTF-8"))
    }

    fn uleb(&self, at: &mut usize, what: &str) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self
                .0
                .get(*at)
                .ok_or_else(|| format!("{what}: ULEB128 past the end"))?;
            *at += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(format!("{what}: ULEB128 longer than 64 bits"))
    }
}

impl MachO {
    pub fn parse(data: &[u8]) -> Result<MachO, String> {
        let b = Bytes(data);
        let magic = b.u32(0, "magic")?;
        if magic != MH_MAGIC_64 {
            return Err(format!(
                "not a 64-bit little-endian Mach-O file (magic {magic:#x})"
            ));
        }
        let mut file = MachO {
            cpu: b.u32(4, "cputype")?,
            file_type: b.u32(12, "filetype")?,
            install_name: None,
            loads: Vec::new(),
            rpaths: Vec::new(),
            platform: None,
            exports: BTreeSet::new(),
            defined_externals: BTreeSet::new(),
            signature: None,
        };
        let count = b.u32(16, "ncmds")?;
        let mut at = 32;
        for _ in 0..count {
            let cmd = b.u32(at, "load command")?;
            let size = b.at(at + 4, "load command size")?;
            if size < 8 || b.slice(at, size, "load command").is_err() {
                return Err(format!("load command {cmd:#x} at {at} has size {size}"));
            }
            let lc = Bytes(&data[at..at + size]);
            match cmd {
                LC_ID_DYLIB => {
                    file.install_name = Some(lc.c_str(lc.at(8, "dylib name")?, "install name")?)
                }
                LC_LOAD_DYLIB | LC_LOAD_WEAK_DYLIB | LC_REEXPORT_DYLIB => file
                    .loads
                    .push(lc.c_str(lc.at(8, "dylib name")?, "loaded dylib")?),
                LC_RPATH => file.rpaths.push(lc.c_str(lc.at(8, "rpath")?, "rpath")?),
                LC_BUILD_VERSION => {
                    let minos = lc.u32(12, "minos")?;
                    file.platform = Some((lc.u32(8, "platform")?, version(minos)));
                }
                LC_VERSION_MIN_MACOSX => {
                    file.platform = Some((PLATFORM_MACOS, version(lc.u32(8, "version")?)));
                }
                LC_DYLD_INFO | LC_DYLD_INFO_ONLY => {
                    let (off, len) = (lc.at(40, "export_off")?, lc.at(44, "export_size")?);
                    file.exports = trie(&Bytes(b.slice(off, len, "export trie")?))?;
                }
                LC_DYLD_EXPORTS_TRIE => {
                    let (off, len) = (lc.at(8, "dataoff")?, lc.at(12, "datasize")?);
                    file.exports = trie(&Bytes(b.slice(off, len, "export trie")?))?;
                }
                LC_SYMTAB => file.defined_externals = symtab(&b, &lc)?,
                LC_CODE_SIGNATURE => {
                    file.signature = Some((lc.at(8, "dataoff")?, lc.at(12, "datasize")?))
                }
                _ => {}
            }
            at += size;
        }
        Ok(file)
    }

    /// Checks the code signature's code directories: every page's hash is the hash of that page
    /// of the file as it is. Apple silicon refuses to map code whose signature does not hold, so
    /// a step after the link that changes a byte (a strip, an edit of the install name) and does
    /// not sign again leaves a dylib that no Mac loads. Returns how many pages were checked.
    pub fn check_signature(&self, data: &[u8]) -> Result<usize, String> {
        let (off, len) = self.signature.ok_or("no LC_CODE_SIGNATURE")?;
        let b = Bytes(data);
        let blob = Bytes(b.slice(off, len, "code signature")?);
        if blob.u32_be(0, "SuperBlob magic")? != 0xfade_0cc0 {
            return Err("the code signature is not an embedded SuperBlob".into());
        }
        let mut pages = 0;
        for index in 0..blob.u32_be(8, "blob count")? as usize {
            let start = blob.u32_be(12 + 8 * index + 4, "blob offset")? as usize;
            if blob.u32_be(start, "blob magic")? != 0xfade_0c02 {
                continue; // Requirements, entitlements: nothing to hash.
            }
            let cd = Bytes(blob.slice(
                start,
                blob.u32_be(start + 4, "CodeDirectory length")? as usize,
                "CodeDirectory",
            )?);
            let hash_offset = cd.u32_be(16, "hashOffset")? as usize;
            let code_slots = cd.u32_be(28, "nCodeSlots")? as usize;
            let code_limit = cd.u32_be(32, "codeLimit")? as usize;
            let header = cd.slice(36, 4, "hash size, type, platform, page size")?;
            let (hash_size, hash_type, page_shift) = (header[0] as usize, header[1], header[3]);
            if hash_type != 2 || hash_size != 32 {
                continue; // Not SHA-256: an alternate directory, beside the SHA-256 one.
            }
            if code_limit != off {
                return Err(format!(
                    "the signature covers {code_limit} bytes, not the {off} before it"
                ));
            }
            let page = 1usize << page_shift;
            if code_slots != code_limit.div_ceil(page) {
                return Err(format!("{code_slots} page hashes for {code_limit} bytes"));
            }
            for slot in 0..code_slots {
                let bytes = &data[slot * page..code_limit.min((slot + 1) * page)];
                let recorded = cd.slice(hash_offset + slot * hash_size, hash_size, "page hash")?;
                if sha256(bytes) != recorded {
                    return Err(format!(
                        "page {slot} (bytes {}..) does not match its hash",
                        slot * page
                    ));
                }
            }
            pages += code_slots;
        }
        if pages == 0 {
            return Err("the code signature has no SHA-256 CodeDirectory".into());
        }
        Ok(pages)
    }
}

/// A Mach-O version, `xxxx.yy.zz` in nibbles, as (major, minor).
fn version(packed: u32) -> (u32, u32) {
    (packed >> 16, (packed >> 8) & 0xff)
}

/// The names of an export trie: a node is its terminal information (skipped: it says where the
/// symbol is, not what it is named) then its edges, each a label and the offset of the node it
/// leads to; a name is the labels on the way from the root to a terminal node.
fn trie(b: &Bytes) -> Result<BTreeSet<String>, String> {
    let mut names = BTreeSet::new();
    if b.0.is_empty() {
        return Ok(names);
    }
    let mut stack = vec![(0usize, Vec::<u8>::new())];
    let mut visits = 0;
    while let Some((node, prefix)) = stack.pop() {
        visits += 1;
        if visits > b.0.len() {
            return Err("the export trie loops".into());
        }
        let mut at = node;
        let terminal = b.uleb(&mut at, "terminal size")? as usize;
        if terminal > 0 {
            names.insert(
                String::from_utf8(prefix.clone()).map_err(|_| "an exported name is not UTF-8")?,
            );
        }
        at += terminal;
        let children =
            *b.0.get(at)
                .ok_or("the export trie's child count is past the end")?;
        at += 1;
        for _ in 0..children {
            let label = b.c_str(at, "edge label")?;
            at += label.len() + 1;
            let child = b.uleb(&mut at, "child offset")? as usize;
            let mut name = prefix.clone();
            name.extend_from_slice(label.as_bytes());
            stack.push((child, name));
        }
    }
    Ok(names)
}

/// The external symbols `symtab` defines: `nlist_64` entries that are not debugging entries
/// (N_STAB), are external (N_EXT) but not private (N_PEXT), and are not undefined.
fn symtab(file: &Bytes, lc: &Bytes) -> Result<BTreeSet<String>, String> {
    let (symoff, nsyms) = (lc.at(8, "symoff")?, lc.at(12, "nsyms")?);
    let (stroff, strsize) = (lc.at(16, "stroff")?, lc.at(20, "strsize")?);
    let strings = Bytes(file.slice(stroff, strsize, "string table")?);
    let mut names = BTreeSet::new();
    for index in 0..nsyms {
        let entry = file.slice(symoff + 16 * index, 16, "symbol")?;
        let n_type = entry[4];
        let (stab, private, external, kind) =
            (n_type & 0xe0, n_type & 0x10, n_type & 0x01, n_type & 0x0e);
        if stab == 0 && private == 0 && external != 0 && kind != 0 {
            let strx = u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]) as usize;
            names.insert(strings.c_str(strx, "symbol name")?);
        }
    }
    Ok(names)
}

/// SHA-256 (FIPS 180-4), for the code signature's page hashes: small enough to keep here rather
/// than take a crate for.
fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in message.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            (hh, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
        }
        for (state, add) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *state = state.wrapping_add(add);
        }
    }
    let mut digest = [0u8; 32];
    for (out, word) in digest.chunks_exact_mut(4).zip(h) {
        out.copy_from_slice(&word.to_be_bytes());
    }
    digest
}

#[test]
fn sha256_matches_the_standard_vectors() {
    let hex = |d: [u8; 32]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
    assert_eq!(
        hex(sha256(b"")),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        hex(sha256(b"abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        hex(sha256(
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        )),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
}
