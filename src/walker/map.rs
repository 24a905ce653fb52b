//! The walker's maps: keyed by paths, looked up several times per call, so hashed eight bytes
//! at a time, in the manner of rustc's FxHash (the standard SipHash guards against chosen keys,
//! which local paths are not, at several times the cost on a path of 50 bytes).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiplicative hash of 64-bit words; the last multiplication carries every word into the
/// high bits, which the map's probing uses.
#[derive(Default)]
pub(super) struct Words(u64);

impl Words {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Words {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut full = [0; 8];
            full.copy_from_slice(word);
            self.add(u64::from_le_bytes(full));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

/// A hash map keyed by paths.
pub(super) type Map<K, V> = HashMap<K, V, BuildHasherDefault<Words>>;

/// Whether `path` is `dir` or below it.
pub(super) fn at_or_below(path: &[u8], dir: &[u8]) -> bool {
    if dir == b"/" {
        return true;
    }
    path.starts_with(dir) && (path.len() == dir.len() || path[dir.len()] == b'/')
}
