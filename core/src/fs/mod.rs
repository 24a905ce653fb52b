//! The file-system abstraction (SPEC §3, §3.1), as Go's `io/fs`: the OS ([`OsFs`]) and the OS
//! beneath a root ([`ConfinedFs`]) are implementations like any other. A chain asks everything
//! through `Files` (`files.rs`): the OS (`sys/`) or a custom file system (`custom.rs`).

pub(crate) mod batch;
mod custom;
mod files;
mod sys;

use batch::{list_each, read_each};
pub use batch::{Batches, Listed};
pub(crate) use custom::Answers;
pub(crate) use files::{read_limit, Files, Lookup};
pub use sys::{ConfinedFs, OsFs};

use std::ffi::OsString;
use std::io::{self, Read};

use crate::error::out_of_memory;
use crate::path::FsName;

/// What a name is, after following symbolic links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// a non-directory (or, for [`ConfinedFs`], leads out of its root).
    Other,
}

/// What a name is to the walk: an [`Entry`], or a symbolic link leading out of a confined
/// root (`Escapes`), which a custom file system cannot answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File { size: u64 },
    Dir,
    Other,
    Escapes,
}

impl Kind {
    /// The answer of [`FileSystem::stat`]: a link out of the root leads nowhere it goes.
    pub(crate) fn entry(self) -> Entry {
        match self {
            Kind::File { size } => Entry::File { size },
            Kind::Dir => Entry::Dir,
            Kind::Other | Kind::Escapes => Entry::Other,
        }
    }
}

impl From<Entry> for Kind {
    fn from(entry: Entry) -> Self {
        match entry {
            Entry::File { size } => Kind::File { size },
            Entry::Dir => Kind::Dir,
            Entry::Other => Kind::Other,
        }
    }
}

/// A file system the walk reads (SPEC §3). Names are [`FsName`]s below its root (`/` for
/// [`OsFs`], the root for [`ConfinedFs`], `.` for a custom one); a listed name is one element.
///
/// [`io::ErrorKind::NotFound`] alone means "not found"; every other error ends the chain, as an
/// [`ErrorKind::Fs`] error naming the name (an [`ErrorKind::Io`] one where it has an OS code),
/// with the error as its [`Error::io_error`]. Implementations are shared between threads.
///
/// [`ErrorKind::Fs`]: crate::ErrorKind::Fs
/// [`ErrorKind::Io`]: crate::ErrorKind::Io
/// [`Error::io_error`]: crate::Error::io_error
pub trait FileSystem: Send + Sync {
    /// The names `dir` lists, in any order.
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>>;

    /// What `name` is, following symbolic links.
    fn stat(&self, name: &FsName) -> io::Result<Entry>;

    /// The file at `name`, opened for reading. The library reads it into buffers of its own,
    /// never more than `max_bytes + 1` bytes in all, and then drops it.
    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>>;

    /// `Some(self)` where this file system answers many questions in one call at about the cost
    /// of one ([`BatchFileSystem`]); `None` by default: a chain asks one question at a time.
    fn batched(&self) -> Option<&dyn BatchFileSystem> {
        None
    }
}

/// A [`FileSystem`] that answers many questions in one call (SPEC §3.1, which says what a chain
/// asks and what it may read), as Go's `BatchFS` extends `fs.FS`: a chain asks it in batches
/// when [`FileSystem::batched`] returns it. A listing names everything in its directory; an
/// entry whose kind it does not say costs a [`FileSystem::stat`] when the walk needs to know.
///
/// ```
/// use std::ffi::OsString;
/// use std::io::{self, Read};
/// use std::sync::{atomic::{AtomicUsize, Ordering}, Arc};
/// use agentsmd_core::fs::{BatchFileSystem, Entry, FileSystem, Listed};
/// use agentsmd_core::{FsName, Options};
///
/// /// `AGENTS.md` in the root and in `a`, across a network: each call is a round trip.
/// #[derive(Default)]
/// struct Remote(AtomicUsize);
/// impl FileSystem for Remote {
///     // The single questions: asked only for what the batches did not answer.
///     fn list(&self, _: &FsName) -> io::Result<Vec<OsString>> { unreachable!() }
///     fn stat(&self, _: &FsName) -> io::Result<Entry> { unreachable!() }
///     fn open(&self, _: &FsName) -> io::Result<Box<dyn Read + '_>> { unreachable!() }
///     fn batched(&self) -> Option<&dyn BatchFileSystem> { Some(self) }
/// }
/// impl BatchFileSystem for Remote {
///     fn list_many(&self, dirs: &[FsName]) -> io::Result<Vec<Option<Vec<Listed>>>> {
///         self.0.fetch_add(1, Ordering::Relaxed);
///         let file = |name: &str| Listed { name: name.into(), entry: Some(Entry::File { size: 3 }) };
///         Ok(dirs.iter().map(|dir| match dir.as_bytes() {
///             b"." => Some(vec![file("AGENTS.md"), Listed { name: "a".into(), entry: Some(Entry::Dir) }]),
///             b"a" => Some(vec![file("AGENTS.md")]),
///             _ => None,
///         }).collect())
///     }
///     fn read_many(&self, names: &[FsName], _limit: u64) -> io::Result<Vec<Option<Vec<u8>>>> {
///         self.0.fetch_add(1, Ordering::Relaxed);
///         Ok(names.iter().map(|_| Some(b"hi\n".to_vec())).collect())
///     }
/// }
///
/// let remote = Arc::new(Remote::default());
/// let options = Options::new().fs(remote.clone());
/// let chain = agentsmd_core::chain("a/main.rs", &options)?;
/// assert_eq!(chain.files.len(), 2);
/// assert_eq!(remote.0.load(Ordering::Relaxed), 2); // one listing, one read
/// # Ok::<(), agentsmd_core::Error>(())
/// ```
pub trait BatchFileSystem: FileSystem {
    /// Which questions a chain asks in batches, rather than one name at a time: both by default.
    fn batches(&self) -> Batches {
        Batches {
            lists: true,
            reads: true,
        }
    }

    /// Lists each of `dirs`, in order: each name with what it is where the listing says, or
    /// `None` where there is no such directory (nothing, or no directory, has that name). An
    /// error fails the whole batch. By default, [`FileSystem::list`] of each, one at a time.
    fn list_many(&self, dirs: &[FsName]) -> io::Result<Vec<Option<Vec<Listed>>>> {
        list_each(self, dirs)
    }

    /// Reads each of `names`, in order, at most `limit` bytes of each (`max_bytes + 1`; more are
    /// dropped): `None` for a name that is not found or is no regular file. An error fails the
    /// whole batch. By default, [`FileSystem::stat`] then [`FileSystem::open`] of each, one by one.
    fn read_many(&self, names: &[FsName], limit: u64) -> io::Result<Vec<Option<Vec<u8>>>> {
        read_each(self, names, limit)
    }
}

/// A custom file system in a `Debug` (of [`Options`](crate::Options)): what it holds is its own.
impl std::fmt::Debug for dyn FileSystem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FileSystem")
    }
}

/// The answer "not found" of a [`FileSystem`].
pub(crate) fn not_found() -> io::Error {
    io::ErrorKind::NotFound.into()
}

/// The error of an OS file system's open of what is no regular file, found before a read.
pub(crate) fn not_a_regular_file() -> io::Error {
    let message = "not a regular file (it changed after its stat); nothing was read";
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// Reads `reader` to its end, at most `limit` bytes: the one read loop of every file system.
/// `size_hint` (a stat's size) sizes the first read, at most 64 KiB, so a lying size costs
/// nothing; the buffer then doubles, never past `limit`. Memory that cannot be had is an
/// `ENOMEM` error, not an abort (SPEC §4).
pub(crate) fn read_bounded(
    reader: &mut dyn Read,
    size_hint: u64,
    limit: u64,
) -> io::Result<Vec<u8>> {
    const FIRST_MAX: u64 = 64 << 10;
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut buf = Vec::new();
    let mut filled = 0;
    let mut grow = size_hint.saturating_add(1).min(FIRST_MAX) as usize;
    while filled < limit {
        if filled == buf.len() {
            let more = grow.min(limit - filled);
            buf.try_reserve_exact(more).map_err(|_| out_of_memory())?;
            // Zeroed once: `Read` reads only into initialized bytes.
            buf.resize(filled + more, 0);
            grow = filled.max(64);
        }
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n.min(buf.len() - filled),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(filled);
    Ok(buf)
}

#[cfg(test)]
#[path = "../../tests/unit/fs_read.rs"]
mod tests;
