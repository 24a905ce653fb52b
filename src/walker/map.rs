//! The walker's maps: keyed by paths, looked up several times per call, so hashed with FNV-1a,
//! which is fast on short byte strings (the standard SipHash guards against chosen keys, which
//! local paths are not).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a, 64 bits.
pub(super) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A hash map keyed by paths.
pub(super) type Map<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;

/// Whether `path` is `dir` or below it.
pub(super) fn at_or_below(path: &[u8], dir: &[u8]) -> bool {
    if dir == b"/" {
        return true;
    }
    path.starts_with(dir) && (path.len() == dir.len() || path[dir.len()] == b'/')
}
