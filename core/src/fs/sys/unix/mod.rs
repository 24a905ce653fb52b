//! The OS file systems on Unix, by typed system calls (rustix): the OS ([`OsFs`], walked by
//! [`Anchors`]), names below `/`, and the OS beneath a root (`confined.rs`).
//!
//! A chain's lookup costs one `fstatat` per name per directory plus one per hit (its
//! case-swapped twin, or the directory's listing where names fold: `lookup.rs`), from an
//! [`Anchor`] that keeps the kernel's path walk short.
//! A file read is `openat` (`O_NOFOLLOW`), `pread` and `close` when one read returns the whole
//! file; a name that is a link costs a failed `openat` and an `fstat` more ([`open_file`]).
//!
//! The few calls that differ between Unixes are asked through the functions at the end of this
//! file: Linux's own (`linux.rs`: `getdents64`, `O_PATH`, `openat2`) on Linux, the portable
//! ones (`portable.rs`: `readdir`, `O_SEARCH`, no `openat2`) on every other Unix — and on Linux
//! too in the tests' runs that select them (`linux::selected`), so that every rule is checked on
//! both paths. Everything else asked here (`openat`, `fstatat`, `readlinkat`, `pread`, `fstat`)
//! is POSIX.

mod confined;
#[cfg(target_os = "linux")]
mod linux;
mod lookup;
mod portable;

pub use confined::ConfinedFs;

use std::cell::RefCell;
use std::ffi::OsString;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::fs::{fstat, statat, AtFlags, FileType, OFlags, Stat, CWD};
use rustix::io::Errno;

use super::Backend;
use crate::error::Error;
use crate::fs::{not_found, Entry, FileSystem, Kind, Lookup};
use crate::path::{self, FsName, OS_ROOT};
use lookup::{entry_of, leads_nowhere, nowhere_or, At, Folding};
use portable::open;

/// The OS file system. Names are below `/`; compared byte for byte, so exact spelling holds on
/// a case-insensitive host too.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsFs;

impl FileSystem for OsFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        Anchors::default().list(&path::os_path(OS_ROOT, dir))
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        Anchors::default().stat(&path::os_path(OS_ROOT, name))
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        let file = Anchors::default().open(&path::os_path(OS_ROOT, name), None)?;
        Ok(Box::new(file))
    }
}

/// The OS as a chain asks it: its anchors change as the walk goes down ([`Anchors::lookup`]),
/// and every other question is asked from the nearest one.
pub(crate) type Os = RefCell<Anchors>;

impl Backend for Os {
    fn base(&self) -> Option<&[u8]> {
        Some(OS_ROOT)
    }

    fn stat(&self, name: &FsName) -> io::Result<Kind> {
        self.borrow()
            .stat(&path::os_path(OS_ROOT, name))
            .map(Kind::from)
    }

    fn stat_exactly(&self, name: &FsName) -> io::Result<Kind> {
        let path = path::os_path(OS_ROOT, name);
        self.borrow().stat_exactly(&path).map(Kind::from)
    }

    fn entry(&self, name: &FsName) -> Result<Option<Kind>, Error> {
        self.borrow().entry(&path::os_path(OS_ROOT, name))
    }

    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        self.borrow().list(&path::os_path(OS_ROOT, dir))
    }

    fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Option<Result<Lookup, Error>> {
        let dir = path::os_path(OS_ROOT, dir);
        Some(self.borrow_mut().lookup(&dir, names))
    }

    fn open(&self, name: &FsName, size: Option<u64>) -> io::Result<Box<dyn Read + '_>> {
        let file = self.borrow().open(&path::os_path(OS_ROOT, name), size)?;
        Ok(Box::new(file))
    }
}

/// Where the OS looks names up from on the walk's way down: `/`, or one of the directories it
/// opened every [`Anchors::LEVELS`] directories, so that the kernel resolves a short path however
/// deep the walk goes — below the whole-path floor from 64 levels on (BENCHMARKS.md), for one
/// `openat` and one `close` per [`Anchors::LEVELS`] directories. They stay open for the chain:
/// its files, fragment directories and imports are read from the nearest one too.
#[derive(Default)]
pub(crate) struct Anchors {
    /// The OS path of the deepest directory opened: every one opened is a prefix of it.
    path: Vec<u8>,
    /// Each directory opened ([`open_dir`]), root first, with the length of its path.
    opened: Vec<(OwnedFd, usize)>,
    /// Directories looked up since the last one was opened.
    used: usize,
    /// Whether the chain has met a directory that folds names (`lookup.rs`).
    folding: Folding,
}

/// Names resolved from a directory open, or from `/` (`fd` `None`: names are absolute paths).
struct Anchor<'a> {
    fd: Option<BorrowedFd<'a>>,
    path: &'a [u8],
}

/// The anchor `/`.
const SLASH: Anchor = Anchor {
    fd: None,
    path: b"",
};

impl Anchors {
    /// Directories looked up from one anchor before the next one is opened.
    const LEVELS: usize = 8;

    /// What the directory whose OS path is `dir`, the next of the walk, holds under `names`.
    fn lookup(&mut self, dir: &[u8], names: &[Vec<u8>]) -> Result<Lookup, Error> {
        self.used += 1;
        if self.used > Self::LEVELS {
            self.used = 0;
            let (at, relative) = self.nearest(dir);
            match open_dir(at.fd.unwrap_or(CWD), relative, true) {
                Ok(fd) => {
                    self.path = dir.to_vec();
                    self.opened.push((fd, dir.len()));
                }
                Err(errno) if leads_nowhere(errno) => return Ok(Lookup::Missing),
                // A directory that cannot be opened is still looked up through its path.
                Err(_) => {}
            }
        }
        let (at, relative) = self.nearest(dir);
        lookup::names_in(&at, relative, names, &self.folding)
    }

    /// What the name whose OS path is `path` is, as a name its directory holds
    /// (`lookup::entry`): a fragment directory.
    fn entry(&self, path: &[u8]) -> Result<Option<Kind>, Error> {
        let (at, relative) = self.nearest(path);
        lookup::entry(&at, relative)
    }

    /// [`FileSystem::stat`] of the name whose OS path is `path`.
    fn stat(&self, path: &[u8]) -> io::Result<Entry> {
        let (at, relative) = self.nearest(path);
        match at.stat(relative) {
            Ok(stat) => Ok(entry_of(&stat)),
            Err(errno) => Err(nowhere_or(&at, relative, errno)),
        }
    }

    /// What the OS's `stat(2)` answers for the OS path `path`: only "not found" (`ENOENT`) is
    /// "not found" (an overlay directory, `Files::stat_exactly`).
    fn stat_exactly(&self, path: &[u8]) -> io::Result<Entry> {
        Ok(entry_of(&statat(CWD, path, AtFlags::empty())?))
    }

    /// [`FileSystem::list`] of the directory whose OS path is `path`.
    fn list(&self, path: &[u8]) -> io::Result<Vec<OsString>> {
        let (at, relative) = self.nearest(path);
        at.list(relative)
            .map_err(|errno| nowhere_or(&at, relative, errno))
    }

    /// The file whose OS path is `path`, opened to read; `size` is what its stat reported.
    fn open(&self, path: &[u8], size: Option<u64>) -> io::Result<OsFile> {
        let (at, relative) = self.nearest(path);
        let at = at.fd.unwrap_or(CWD);
        open_file(|flags| open(at, relative, flags), size)
    }

    /// The deepest anchor at or above the OS path `path`, and `path` from it.
    fn nearest<'p>(&self, path: &'p [u8]) -> (Anchor<'_>, &'p [u8]) {
        for (fd, len) in self.opened.iter().rev() {
            let dir = &self.path[..*len];
            let relative = match path.strip_prefix(dir) {
                Some(b"") => b".",
                Some(rest) => match rest.strip_prefix(b"/") {
                    Some(rest) => rest,
                    None => continue,
                },
                None => continue,
            };
            let fd = Some(fd.as_fd());
            return (Anchor { fd, path: dir }, relative);
        }
        (SLASH, path)
    }
}

impl At for Anchor<'_> {
    fn lstat(&self, path: &[u8]) -> Result<Stat, Errno> {
        statat(self.fd.unwrap_or(CWD), path, AtFlags::SYMLINK_NOFOLLOW)
    }

    fn stat(&self, path: &[u8]) -> Result<Stat, Errno> {
        statat(self.fd.unwrap_or(CWD), path, AtFlags::empty())
    }

    fn list(&self, dir: &[u8]) -> Result<Vec<OsString>, Errno> {
        list(self.fd.unwrap_or(CWD), dir)
    }

    fn os_path(&self, path: &[u8]) -> Vec<u8> {
        match self.fd {
            None => path.to_vec(),
            Some(_) => path::join(self.path, path),
        }
    }
}

/// Opens a file to read, by `open` with the flags it is given (docs/security.md, "No blocking").
/// First with `O_NOFOLLOW`: what opens is then the entry at the name itself, on the name's file
/// system — a regular file, or, swapped in after the lookup, a directory, FIFO or socket (a
/// socket does not open, `ENXIO`), which [`OsFile`] refuses without reading; no device, which an
/// unprivileged user cannot make. A name that is a link (`ELOOP`) is opened through it and
/// `fstat`-ed before the first read, since a link can lead to any device or FIFO. `O_NONBLOCK`:
/// a FIFO does not block the open, and a regular file ignores the flag. A name that leads
/// nowhere is "not found".
fn open_file(
    open: impl Fn(OFlags) -> Result<OwnedFd, Errno>,
    size: Option<u64>,
) -> io::Result<OsFile> {
    let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOCTTY | OFlags::NONBLOCK;
    let (fd, check) = match open(flags | OFlags::NOFOLLOW) {
        Ok(fd) => (fd, Check::ByOffset),
        Err(Errno::LOOP) => match open(flags) {
            Ok(fd) => (fd, Check::ByStat),
            Err(errno) => return Err(opened(errno)),
        },
        Err(errno) => return Err(opened(errno)),
    };
    Ok(OsFile {
        fd,
        size,
        read: 0,
        ended: false,
        check,
    })
}

/// The error of an open that failed with `errno`: "not found" where the name leads nowhere.
fn opened(errno: Errno) -> io::Error {
    match leads_nowhere(errno) {
        true => not_found(),
        false => errno.into(),
    }
}

/// A file open to read. A read shorter than asked, once the size its stat reported has been
/// read, is its end: the next read answers 0 without asking the OS, so a whole file costs one
/// read.
///
/// Only a regular file is read (SPEC.md §1): a name swapped for a FIFO after its lookup opens at
/// once (`O_NONBLOCK`), and a read would then take a writer's bytes, or answer an empty file for
/// one with no writer.
struct OsFile {
    fd: OwnedFd,
    size: Option<u64>,
    read: u64,
    ended: bool,
    check: Check,
}

/// How an [`OsFile`] makes sure it reads a regular file.
#[derive(Clone, Copy)]
enum Check {
    /// Read at an offset (`pread`), which a FIFO or socket refuses (`ESPIPE`) and a directory
    /// too (`EISDIR`) before a byte is taken: no `fstat` for a plain file. A regular file that
    /// cannot be read at an offset (a FUSE file opened non-seekable) is then asked by `fstat`.
    ByOffset,
    /// Asked by `fstat` before the first read: opened through a link.
    ByStat,
    /// A regular file, read in order.
    Done,
}

impl Read for OsFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ended || buf.is_empty() {
            return Ok(0);
        }
        let n = loop {
            match self.check {
                Check::ByOffset => match rustix::io::pread(&self.fd, &mut *buf, self.read) {
                    Ok(n) => break n,
                    Err(Errno::SPIPE | Errno::ISDIR) => self.check = Check::ByStat,
                    Err(errno) => return Err(errno.into()),
                },
                Check::ByStat => {
                    if FileType::from_raw_mode(fstat(&self.fd)?.st_mode) != FileType::RegularFile {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidInput,
                            "not a regular file (it changed after its stat); nothing was read",
                        ));
                    }
                    self.check = Check::Done;
                }
                Check::Done => break rustix::io::read(&self.fd, &mut *buf)?,
            }
        };
        self.read += n as u64;
        self.ended = n < buf.len() && self.size.is_some_and(|size| self.read >= size);
        Ok(n)
    }
}

/// Whether the OS error `code` says a path ran through a non-directory (`ENOTDIR`).
pub(crate) fn is_not_a_directory(code: i32) -> bool {
    code == Errno::NOTDIR.raw_os_error()
}

/// The flags of a directory opened to be listed: `O_NONBLOCK`, so that a FIFO swapped in for it
/// cannot block the open (Linux refuses it for `O_DIRECTORY` before opening it; another Unix
/// need not).
const LIST_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NONBLOCK)
    .union(OFlags::CLOEXEC);

/// The names the directory `dir` (relative to `at`) lists, `.` and `..` left out.
fn list(at: BorrowedFd<'_>, dir: &[u8]) -> Result<Vec<OsString>, Errno> {
    list_fd(open(at, dir, LIST_FLAGS)?)
}

/// The names the directory open as `fd` ([`LIST_FLAGS`]) lists, `.` and `..` left out.
fn list_fd(fd: OwnedFd) -> Result<Vec<OsString>, Errno> {
    #[cfg(target_os = "linux")]
    if linux::selected() {
        return linux::list_fd(fd);
    }
    portable::list_fd(fd)
}

/// The directory `dir` (relative to `at`), opened to resolve names from: located only
/// (`O_PATH`) on Linux, opened to search where the OS can (`O_SEARCH`), to read elsewhere.
/// A final link is followed only with `follow`.
fn open_dir(at: BorrowedFd<'_>, dir: &[u8], follow: bool) -> Result<OwnedFd, Errno> {
    let flags = dir_flags();
    let flags = match follow {
        true => flags,
        false => flags | OFlags::NOFOLLOW,
    };
    open(at, dir, flags)
}

fn dir_flags() -> OFlags {
    #[cfg(target_os = "linux")]
    if linux::selected() {
        return linux::DIR_FLAGS;
    }
    portable::DIR_FLAGS
}

/// Whether the kernel resolves names beneath the directory `root` in one call (Linux's
/// `openat2` with `RESOLVE_BENEATH`): [`stat_beneath`] and [`open_beneath`] are then asked;
/// without it, a confined name is walked element by element (`confined.rs`).
fn has_openat2(root: BorrowedFd<'_>) -> bool {
    #[cfg(target_os = "linux")]
    if linux::selected() {
        return linux::has_openat2(root);
    }
    let _ = root;
    false
}

/// `stat(2)` of `name` beneath `root`, following a final link only with `follow`; `EXDEV`
/// where the resolution would leave `root`. Asked only where [`has_openat2`].
fn stat_beneath(root: BorrowedFd<'_>, name: &[u8], follow: bool) -> Result<Stat, Errno> {
    #[cfg(target_os = "linux")]
    return linux::stat_beneath(root, name, follow);
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (root, name, follow);
        Err(Errno::NOSYS)
    }
}

/// `name` opened beneath `root` with `flags`; `EXDEV` where the resolution would leave `root`.
/// Asked only where [`has_openat2`].
fn open_beneath(root: BorrowedFd<'_>, name: &[u8], flags: OFlags) -> Result<OwnedFd, Errno> {
    #[cfg(target_os = "linux")]
    return linux::open_beneath(root, name, flags);
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (root, name, flags);
        Err(Errno::NOSYS)
    }
}
