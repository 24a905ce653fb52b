//! The files of the result that imports compare targets against (SPEC.md §5.4 "Expansion"):
//! every path in one buffer, each found by a seeded hash of its bytes. A chain keeps a few files
//! or thousands, and each costs no allocation of its own; the hash is keyed per map, so no set
//! of names a repository chooses makes a look-up slower than a comparison of bytes.

use std::hash::BuildHasher;
use std::ops::Range;

use foldhash::quality::RandomState;
use hashbrown::HashTable;

/// Paths, each with a value, in the order inserted; the last ones can be taken back.
pub(super) struct PathMap<V> {
    bytes: Vec<u8>,
    entries: Vec<Entry<V>>,
    /// The index of each entry, by the hash of its path: each path hashed once, when it is
    /// inserted or looked for, and entries of one hash (a collision of 64 seeded bits, kept
    /// correct all the same) told apart by their bytes.
    table: HashTable<usize>,
    hasher: RandomState,
}

struct Entry<V> {
    path: Range<usize>,
    hash: u64,
    value: V,
}

impl<V> PathMap<V> {
    /// A map with room for `paths` paths of `bytes` bytes in all, made at once rather than by
    /// doubling.
    pub(super) fn with_capacity(paths: usize, bytes: usize) -> Self {
        Self {
            bytes: Vec::with_capacity(bytes),
            entries: Vec::with_capacity(paths),
            table: HashTable::with_capacity(paths),
            hasher: RandomState::default(),
        }
    }

    /// The entry of `path`, if it was inserted.
    pub(super) fn find(&self, path: &[u8]) -> Option<usize> {
        self.find_hashed(path, self.hash(path))
    }

    /// The hash of `path` in this map: for a look-up and then an insert of one path, hashed
    /// once.
    pub(super) fn hash(&self, path: &[u8]) -> u64 {
        self.hasher.hash_one(path)
    }

    /// [`PathMap::find`] of `path`, whose [`PathMap::hash`] is `hash`.
    pub(super) fn find_hashed(&self, path: &[u8], hash: u64) -> Option<usize> {
        let (bytes, entries) = (&self.bytes, &self.entries);
        let is_path = |&index: &usize| bytes[entries[index].path.clone()] == *path;
        self.table.find(hash, is_path).copied()
    }

    /// Inserts `path` with `value` unless it is in the map already; its entry either way.
    pub(super) fn insert(&mut self, path: &[u8], value: V) -> usize {
        self.insert_hashed(path, self.hash(path), value)
    }

    /// [`PathMap::insert`] of `path`, whose [`PathMap::hash`] is `hash`.
    pub(super) fn insert_hashed(&mut self, path: &[u8], hash: u64, value: V) -> usize {
        let (bytes, entries) = (&mut self.bytes, &mut self.entries);
        let is_path = |&index: &usize| bytes[entries[index].path.clone()] == *path;
        let entry = self
            .table
            .entry(hash, is_path, |&index| entries[index].hash);
        match entry {
            hashbrown::hash_table::Entry::Occupied(found) => *found.get(),
            hashbrown::hash_table::Entry::Vacant(vacant) => {
                let start = bytes.len();
                bytes.extend_from_slice(path);
                let index = entries.len();
                entries.push(Entry {
                    path: start..bytes.len(),
                    hash,
                    value,
                });
                vacant.insert(index);
                index
            }
        }
    }

    /// The path of entry `index`.
    pub(super) fn path(&self, index: usize) -> &[u8] {
        &self.bytes[self.entries[index].path.clone()]
    }

    /// The value of entry `index`.
    pub(super) fn value(&self, index: usize) -> &V {
        &self.entries[index].value
    }

    /// How many entries there are.
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Takes back every entry from the `len`th on, the latest first.
    pub(super) fn truncate(&mut self, len: usize) {
        while self.entries.len() > len {
            let Some(entry) = self.entries.pop() else {
                break;
            };
            let index = self.entries.len();
            if let Ok(found) = self.table.find_entry(entry.hash, |&at| at == index) {
                found.remove();
            }
            self.bytes.truncate(entry.path.start);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_inserted_once_and_found_by_its_bytes() {
        let mut map = PathMap::with_capacity(0, 0);
        let a = map.insert(b"/r/a.md", 1);
        assert_eq!(map.insert(b"/r/a.md", 2), a);
        let b = map.insert(b"/r/b.md", 3);
        assert_eq!(
            (map.find(b"/r/a.md"), map.find(b"/r/b.md")),
            (Some(a), Some(b))
        );
        assert_eq!(map.find(b"/r/c.md"), None);
        assert_eq!((map.path(b), *map.value(a)), (&b"/r/b.md"[..], 1));
    }

    #[test]
    fn truncating_takes_back_the_latest_entries_only() {
        let mut map = PathMap::with_capacity(0, 0);
        map.insert(b"a", ());
        let mark = map.len();
        map.insert(b"b", ());
        map.insert(b"c", ());
        map.truncate(mark);
        assert_eq!(map.find(b"a"), Some(0));
        assert_eq!((map.find(b"b"), map.find(b"c")), (None, None));
        assert_eq!(map.insert(b"c", ()), 1);
        assert_eq!(map.path(1), b"c");
    }

    #[test]
    fn entries_of_one_hash_are_told_apart_by_their_bytes() {
        // Every hash is the same here: what a collision would be.
        let mut map = PathMap::with_capacity(0, 0);
        for path in [&b"x"[..], b"y", b"z"] {
            map.insert_hashed(path, 0, ());
        }
        assert_eq!(map.find_hashed(b"x", 0), Some(0));
        assert_eq!(map.find_hashed(b"y", 0), Some(1));
        map.truncate(1);
        assert_eq!(map.find_hashed(b"x", 0), Some(0));
        assert_eq!(map.find_hashed(b"y", 0), None);
    }
}
