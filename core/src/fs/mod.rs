//! The file-system abstraction: the three questions of SPEC.md §3 (list a directory, stat a
//! name, open a file to read it), and the one question the walk asks, [`FileSystem::lookup`],
//! whose default answer is built from the three. The OS answers `lookup` without listing
//! ([`OsFs`]); confinement is the OS file system opened beneath a root ([`ConfinedFs`]), the way
//! Go's `os.Root.FS()` confines, so the walk has no branch for it.

mod confined;
mod os;
mod os_lookup;

pub use confined::ConfinedFs;
pub(crate) use os::OsDir;
pub use os::OsFs;

use std::io::{self, Read};

use crate::error::Error;
use crate::path::FsName;

/// What a name is, after following symbolic links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A regular file, with the size the file system reports: the only kind that can be an
    /// instruction file.
    File {
        /// The size in bytes.
        size: u64,
    },
    /// A directory.
    Dir,
    /// Anything else: a FIFO, a socket, a device, or a link that dangles, loops or runs through
    /// a non-directory.
    Other,
    /// A symbolic link leading out of a confined file system's root: nothing was asked of it.
    Escapes,
}

/// What one directory of the walk holds under the names looked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The directory does not exist (or leads nowhere): it lists nothing, and no directory below
    /// it is asked about.
    Missing,
    /// The directory is a link leading out of a confined root: nothing in or below it is asked.
    Escapes,
    /// The names the directory lists, each with what it is, in the order of the names looked
    /// for: `(index in names, entry)`.
    Names(Vec<(usize, Entry)>),
}

/// The directories of a walk, from its root down to its start, each the parent of the next:
/// prefixes of one name, so that memory stays linear in the start's length however deep it is.
/// The name is borrowed from the request: a walk copies no directory's name to ask about it.
#[derive(Clone, Debug)]
pub struct Dirs<'a> {
    /// The bytes of a valid name whose prefixes the directories are (the start's, or one below
    /// it).
    name: &'a [u8],
    /// The length of each directory's name in `name`; 0 for the root `.`.
    ends: Vec<usize>,
}

impl<'a> Dirs<'a> {
    /// The directories from the name `top` down to the start, which is within it: the first
    /// `end` bytes of the name `path` (a prefix ending an element; 0, or any `end` of the root
    /// `.`, is the root).
    pub(crate) fn new(top: &[u8], path: &'a [u8], end: usize) -> Self {
        let end = if path == b"." { 0 } else { end };
        let first = if top == b"." { 0 } else { top.len() };
        // The element ends after `first`: each `/` of the rest (but one that begins it), and
        // the start's own end. No more than one in two bytes of the rest is a `/`.
        let rest = &path[first.min(end)..end];
        let mut ends = Vec::with_capacity(2 + rest.len() / 2);
        ends.push(first);
        if end > first {
            for (at, &b) in rest.iter().enumerate().skip(1) {
                if b == b'/' {
                    ends.push(first + at);
                }
            }
            ends.push(end);
        }
        Self { name: path, ends }
    }

    /// How many directories.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none (never, for a walk).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The bytes of the `i`th directory's name (`.` for the root).
    pub fn bytes(&self, i: usize) -> &'a [u8] {
        match self.ends[i] {
            0 => b".",
            end => &self.name[..end],
        }
    }

    /// The last element of the `i`th directory's name (`i` > 0): what its parent's name lacks.
    pub(crate) fn element(&self, i: usize) -> &'a [u8] {
        let start = match self.ends[i - 1] {
            0 => 0,
            end => end + 1,
        };
        &self.name[start..self.ends[i]]
    }

    /// The `i`th directory's name.
    pub fn name(&self, i: usize) -> FsName {
        // Not checked again, so a deep walk costs one copy per directory, not a check of every
        // prefix.
        FsName::prefix_of(self.name, self.ends[i])
    }
}

/// A file system the walk reads. Names are [`FsName`]s: below the root of the file system
/// (`/` for [`OsFs`], the root for [`ConfinedFs`], `.` for a custom one).
///
/// `Ok(None)` answers "not found", which alone means "no such file or directory"; every other
/// failure is an `Err` that ends the chain. Implementations are shared between threads.
pub trait FileSystem: Send + Sync {
    /// The names `dir` lists, in any order; `None` when it does not exist.
    fn list(&self, dir: &FsName) -> Result<Option<Vec<Vec<u8>>>, Error>;

    /// What `name` is, following symbolic links; `None` when it does not exist.
    fn stat(&self, name: &FsName) -> Result<Option<Entry>, Error>;

    /// The file at `name`, opened for reading; `None` when it does not exist.
    fn open(&self, name: &FsName) -> Result<Option<Box<dyn Read + '_>>, Error>;

    /// The bytes of the file at `name`, at most `limit` of them; `size_hint` is what a stat
    /// reported. The default opens it and reads it through [`read_bounded`], the one read loop;
    /// an implementation overrides it only to open the file differently.
    fn read(&self, name: &FsName, size_hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        let Some(mut file) = self.open(name)? else {
            return Ok(None);
        };
        read_bounded(&mut *file, size_hint, limit)
            .map(Some)
            .map_err(
                |e| match e.raw_os_error() == out_of_memory().raw_os_error() {
                    // The library's memory, not the file system's failure (SPEC.md §4).
                    true => Error::io("read", name.as_bytes(), e),
                    false => Error::fs("read", name.as_bytes(), &e.to_string()),
                },
            )
    }

    /// For each directory of `dirs`, what it holds under `names` (each one path element).
    ///
    /// The default lists each directory and stats the names it lists, stopping at the first
    /// directory that does not exist. An implementation that can answer more cheaply — the OS,
    /// by looking each name up directly instead of listing directories of thousands of entries
    /// — overrides it; the answer must be the same.
    fn lookup(&self, dirs: &Dirs<'_>, names: &[Vec<u8>]) -> Result<Vec<Lookup>, Error> {
        let mut lookups = Vec::with_capacity(dirs.len());
        for i in 0..dirs.len() {
            let dir = dirs.name(i);
            let Some(listed) = self.list(&dir)? else {
                lookups.resize(dirs.len(), Lookup::Missing);
                break;
            };
            let listed: std::collections::HashSet<&[u8]> =
                listed.iter().map(Vec::as_slice).collect();
            let mut found = Vec::new();
            for (index, name) in names.iter().enumerate() {
                if listed.contains(name.as_slice()) {
                    let entry = self.stat(&dir.join(name))?.unwrap_or(Entry::Other);
                    found.push((index, entry));
                }
            }
            lookups.push(Lookup::Names(found));
        }
        Ok(lookups)
    }

    /// [`FileSystem::lookup`], and for each directory it found ([`Lookup::Names`]) what each
    /// of `below` (relative names, such as a fragment directory `.agents/AGENTS.d`) is in it,
    /// as [`FileSystem::stat`] answers, but for a name that exists and leads nowhere (a link that
    /// dangles, loops or runs through a non-directory): [`Entry::Other`], as among the names of
    /// a lookup. An error is kept where it belongs so that the walk reports it in its order. The
    /// default asks `lookup`, then `stat` of each name (a custom file system tells its own
    /// links); the OS answers from the same anchors as its lookup, not by a whole path from `/`.
    fn lookup_below(
        &self,
        dirs: &Dirs<'_>,
        names: &[Vec<u8>],
        below: &[Vec<u8>],
    ) -> Result<LookupsBelow, Error> {
        let lookups = self.lookup(dirs, names)?;
        let mut stats = Vec::new();
        if !below.is_empty() {
            for (i, lookup) in lookups.iter().enumerate() {
                if let Lookup::Names(_) = lookup {
                    let dir = dirs.name(i);
                    stats.extend(below.iter().map(|name| self.stat(&dir.join(name))));
                }
            }
        }
        Ok((lookups, stats))
    }
}

/// A custom file system in a `Debug` (of [`Options`](crate::Options)): what it holds is its own.
impl std::fmt::Debug for dyn FileSystem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FileSystem")
    }
}

/// What [`FileSystem::lookup_below`] answers: each directory's [`Lookup`], and then, for each
/// directory found ([`Lookup::Names`]) in order, what each of the names below it asked about
/// is — one flat list, so that no directory costs a list of its own.
pub type LookupsBelow = (Vec<Lookup>, Vec<Result<Option<Entry>, Error>>);

/// What a read onto the end of a buffer answers: how many bytes it appended, or `None`, with
/// the buffer as it was, when the file does not exist.
pub(crate) type Appended = Result<Option<usize>, Error>;

/// Reads `reader` to its end, at most `limit` bytes: the one read loop of every file system.
/// `size_hint` (what a stat reported) sizes the first buffer, never beyond `limit` or 64 KiB
/// before any byte has arrived, so a lying size costs nothing; the buffer then grows by as much
/// as has been read, so the cost is linear in the bytes read whatever the size of the pieces the
/// reader hands back.
pub fn read_bounded(reader: &mut dyn Read, size_hint: u64, limit: u64) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    read_onto(reader, size_hint, limit, &mut buf)?;
    Ok(buf)
}

/// Reads `reader` to its end onto the end of `buf`, at most `limit` bytes, and says how many:
/// the one read loop of every file system. On an error `buf` is left as it was.
///
/// It reads into the room `buf` has. `size_hint` (what a stat reported) sizes the room made
/// for the first read, never beyond `limit` or 64 KiB before any byte has arrived, so a lying
/// size costs nothing; once the room is full it grows by as much as has been read, never past
/// `limit`, so the cost is linear in the bytes read whatever the size of the pieces the reader
/// hands back. Room that cannot be had is an `ENOMEM` error ([`out_of_memory`]), not an abort:
/// a huge `limit` over a huge file (a sparse one reads as zeros) grows the buffer until then.
pub(crate) fn read_onto<R: ReadOnto + ?Sized>(
    reader: &mut R,
    size_hint: u64,
    limit: u64,
    buf: &mut Vec<u8>,
) -> io::Result<usize> {
    const FIRST_MAX: u64 = 64 << 10;
    let start = buf.len();
    let bound = start.saturating_add(usize::try_from(limit).unwrap_or(usize::MAX));
    let first = (size_hint.saturating_add(1).min(FIRST_MAX) as usize).min(bound - start);
    if buf.capacity() - start < first {
        buf.try_reserve_exact(first).map_err(|_| out_of_memory())?;
    }
    let mut filled = start;
    while filled < bound {
        if filled == buf.capacity() {
            let read = filled - start;
            if buf
                .try_reserve_exact(read.max(64).min(bound - filled))
                .is_err()
            {
                buf.truncate(start);
                return Err(out_of_memory());
            }
        }
        let end = buf.capacity().min(bound);
        match reader.read_onto(buf, filled, end) {
            Ok(0) => break,
            Ok(n) => {
                filled += n.min(end - filled);
                if reader.at_end() {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.truncate(start);
                return Err(e);
            }
        }
    }
    buf.truncate(filled);
    Ok(filled - start)
}

/// The error of memory the library cannot get (SPEC.md §4): `ENOMEM`, so that a chain says it
/// as an `Io` error with that code.
pub(crate) fn out_of_memory() -> io::Error {
    io::Error::from_raw_os_error(rustix::io::Errno::NOMEM.raw_os_error())
}

/// A reader that [`read_onto`] reads from: one read into the room of a `Vec`.
pub(crate) trait ReadOnto {
    /// Reads once, at most `end - filled` bytes, into `buf` from `filled` on, and says how
    /// many. `buf` has room for `end` bytes and holds at least `filled`: those read, then what
    /// an earlier call left past them, which is read over. It holds at least the bytes read
    /// after the call.
    fn read_onto(&mut self, buf: &mut Vec<u8>, filled: usize, end: usize) -> io::Result<usize>;

    /// Whether the reader knows that it has handed back its last byte, so that no read is made
    /// only to be told so.
    fn at_end(&self) -> bool {
        false
    }
}

/// A reader of `std`, which reads only into initialized bytes: each byte of the room is zeroed
/// once, since what a call leaves past the bytes read is kept for the next one.
impl ReadOnto for dyn Read + '_ {
    fn read_onto(&mut self, buf: &mut Vec<u8>, filled: usize, end: usize) -> io::Result<usize> {
        if buf.len() < end {
            buf.resize(end, 0);
        }
        self.read(&mut buf[filled..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directories_of_a_walk_are_prefixes_of_the_start() {
        let dirs = Dirs::new(b".", b"a/b/c/d.md", 5);
        let all: Vec<&[u8]> = (0..dirs.len()).map(|i| dirs.bytes(i)).collect();
        assert_eq!(all, [&b"."[..], b"a", b"a/b", b"a/b/c"]);
        let dirs = Dirs::new(b"a", b"a/b", 3);
        let all: Vec<&[u8]> = (0..dirs.len()).map(|i| dirs.bytes(i)).collect();
        assert_eq!(all, [&b"a"[..], b"a/b"]);
        let dirs = Dirs::new(b".", b".", 1);
        assert_eq!(dirs.len(), 1);
        assert_eq!(dirs.bytes(0), b".");
    }

    /// A reader that hands back one byte per call.
    struct OneByte<'a>(&'a [u8]);

    impl Read for OneByte<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buf.first_mut()) {
                (Some((&b, rest)), Some(slot)) => {
                    *slot = b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn a_read_never_takes_more_than_its_limit_whatever_the_pieces() {
        let data = vec![7u8; 100_000];
        assert_eq!(read_bounded(&mut OneByte(&data), 0, 1 << 20).unwrap(), data);
        assert_eq!(
            read_bounded(&mut OneByte(&data), u64::MAX, 11)
                .unwrap()
                .len(),
            11
        );
        assert_eq!(
            read_bounded(&mut &data[..], 5, 100_001).unwrap().len(),
            100_000
        );
        assert!(read_bounded(&mut &b""[..], 0, 10).unwrap().is_empty());
    }

    /// A reader that fails once it has handed back its bytes.
    struct Failing<'a>(&'a [u8]);

    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("gone"));
            }
            let n = self.0.len().min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_read_onto_a_buffer_keeps_its_bytes_and_counts_its_limit_in_the_bytes_appended() {
        let data = vec![7u8; 1000];
        // Room far beyond the limit: the limit still bounds what is read.
        let mut buf = Vec::with_capacity(1 << 16);
        buf.extend_from_slice(b"kept");
        let reader: &mut dyn Read = &mut OneByte(&data);
        assert_eq!(read_onto(reader, 0, 10, &mut buf).unwrap(), 10);
        assert_eq!(&buf[..4], b"kept");
        assert_eq!(buf[4..], [7; 10]);
        let reader: &mut dyn Read = &mut &data[..];
        assert_eq!(read_onto(reader, 3, 5000, &mut buf).unwrap(), 1000);
        assert_eq!(buf.len(), 1014);
    }

    #[test]
    fn a_failed_read_onto_a_buffer_leaves_it_as_it_was() {
        let mut buf = b"kept".to_vec();
        let reader: &mut dyn Read = &mut Failing(&[1; 300]);
        assert!(read_onto(reader, 0, 1000, &mut buf).is_err());
        assert_eq!(buf, b"kept");
    }
}
