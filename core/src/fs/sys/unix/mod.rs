//! The OS file systems on Unix, by typed system calls (rustix): the OS ([`OsFs`]) and the OS
//! beneath a root (`confined.rs`), looking names up the same way (`lookup.rs`). The calls are
//! POSIX but where Linux has its own (`linux.rs`), which the tests also run without.

mod confined;
#[cfg(target_os = "linux")]
mod linux;
mod lookup;

pub use confined::ConfinedFs;

use std::cell::RefCell;
use std::ffi::OsString;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;

use rustix::fs::{fstat, openat, statat, AtFlags, Dir, FileType, Mode, OFlags, Stat, CWD};
use rustix::io::Errno;

use super::Backend;
use crate::error::Error;
use crate::fs::{not_a_regular_file, not_found, Entry, FileSystem, Kind, Lookup};
use crate::path::{self, FsName, OS_ROOT};
use lookup::{leads_nowhere, At, Folding};

/// The OS file system. Names are below `/`, spelled as their directories list them.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsFs;

impl FileSystem for OsFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        Anchors::default().ask(dir, lookup::list)
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        Anchors::default().ask(name, lookup::stat).map(Kind::entry)
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        Anchors::default().open(name, None)
    }
}

/// The OS as a chain asks it, from the anchors its walk leaves.
pub(crate) type Os = RefCell<Anchors>;

impl Backend for Os {
    fn base(&self) -> Option<&[u8]> {
        Some(OS_ROOT)
    }

    fn stat(&self, name: &FsName) -> io::Result<Kind> {
        self.borrow().ask(name, lookup::stat)
    }

    fn stat_exactly(&self, name: &FsName) -> io::Result<Kind> {
        let path = path::os_path(OS_ROOT, name);
        Ok(lookup::kind_of(&statat(CWD, path, AtFlags::empty())?))
    }

    fn entry(&self, name: &FsName) -> Result<Option<Kind>, Error> {
        self.borrow().ask(name, lookup::entry)
    }

    fn is_link(&self, name: &FsName) -> Result<bool, Error> {
        self.borrow().ask(name, lookup::is_link)
    }

    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        self.borrow().ask(dir, lookup::list)
    }

    fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Option<Result<Lookup, Error>> {
        let dir = path::os_path(OS_ROOT, dir);
        Some(self.borrow_mut().lookup(&dir, names))
    }

    fn open(&self, name: &FsName, size: Option<u64>) -> io::Result<Box<dyn Read + '_>> {
        self.borrow().open(name, size)
    }
}

/// Where the OS looks names up from: `/`, or a directory the walk opened every
/// [`Anchors::LEVELS`] levels, so that the kernel resolves a short path however deep it goes.
#[derive(Default)]
pub(crate) struct Anchors {
    /// The OS path of the deepest directory opened: each in `opened` (with the length of its
    /// path, root first) is a prefix of it.
    path: Vec<u8>,
    opened: Vec<(OwnedFd, usize)>,
    /// Directories looked up since the last one was opened.
    used: usize,
    folding: Folding,
}

/// Names resolved from a directory open, or from `/` (`path` empty: names are absolute paths).
struct Anchor<'a> {
    fd: BorrowedFd<'a>,
    path: &'a [u8],
}

impl Anchors {
    /// Directories looked up from one anchor before the next one is opened.
    const LEVELS: usize = 8;

    /// What the directory whose OS path is `dir`, the next of the walk, holds under `names`.
    fn lookup(&mut self, dir: &[u8], names: &[Vec<u8>]) -> Result<Lookup, Error> {
        self.used += 1;
        if self.used > Self::LEVELS {
            self.used = 0;
            let (at, relative) = self.nearest(dir);
            match open_dir(at.fd, relative, true) {
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

    /// The file `name`, opened to read from the nearest anchor.
    fn open(&self, name: &FsName, size: Option<u64>) -> io::Result<Box<dyn Read>> {
        let file = self.ask(name, |at, path| {
            open_file(|flags| open(at.fd, path, flags), size)
        })?;
        Ok(Box::new(file))
    }

    /// `ask` of the OS path of `name`, from the nearest anchor.
    fn ask<'a, T>(&'a self, name: &FsName, ask: impl FnOnce(&Anchor<'a>, &[u8]) -> T) -> T {
        let path = path::os_path(OS_ROOT, name);
        let (at, relative) = self.nearest(&path);
        ask(&at, relative)
    }

    /// The deepest anchor at or above the OS path `path`, and `path` from it.
    fn nearest<'p>(&self, path: &'p [u8]) -> (Anchor<'_>, &'p [u8]) {
        for (fd, len) in self.opened.iter().rev() {
            let dir = &self.path[..*len];
            let relative = match path.strip_prefix(dir) {
                Some(b"") => b".",
                Some([b'/', rest @ ..]) => rest,
                _ => continue,
            };
            let fd = fd.as_fd();
            return (Anchor { fd, path: dir }, relative);
        }
        (Anchor { fd: CWD, path: b"" }, path)
    }
}

impl At for Anchor<'_> {
    fn lstat(&self, path: &[u8]) -> Result<Stat, Errno> {
        statat(self.fd, path, AtFlags::SYMLINK_NOFOLLOW)
    }

    fn stat(&self, path: &[u8]) -> Result<Stat, Errno> {
        statat(self.fd, path, AtFlags::empty())
    }

    fn list(&self, dir: &[u8]) -> Result<Vec<OsString>, Errno> {
        list(|flags| open(self.fd, dir, flags))
    }

    fn os_path(&self, path: &[u8]) -> Vec<u8> {
        match self.path {
            b"" => path.to_vec(),
            dir => path::join(dir, path),
        }
    }
}

/// Opens a file to read by `open` (docs/security.md, "No blocking"), first with `O_NOFOLLOW`:
/// the name's own entry, which no unprivileged user can make a device ([`OsFile`] refuses a FIFO
/// or directory unread); a link (`ELOOP`) is opened through and `fstat`-ed before a read.
fn open_file(
    open: impl Fn(OFlags) -> Result<OwnedFd, Errno>,
    size: Option<u64>,
) -> io::Result<OsFile> {
    let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOCTTY | OFlags::NONBLOCK;
    let opened = match open(flags | OFlags::NOFOLLOW) {
        Err(Errno::LOOP) => open(flags).map(|fd| (fd, Check::ByStat)),
        opened => opened.map(|fd| (fd, Check::ByOffset)),
    };
    match opened {
        Ok((fd, check)) => Ok(OsFile {
            fd,
            size,
            read: 0,
            ended: false,
            check,
        }),
        Err(errno) if leads_nowhere(errno) => Err(not_found()),
        Err(errno) => Err(errno.into()),
    }
}

/// A file open to read, only where it is a regular file (SPEC.md §1). A short read once its
/// stat's size is read is its end, so that a whole file costs one read.
struct OsFile {
    fd: OwnedFd,
    size: Option<u64>,
    read: u64,
    ended: bool,
    check: Check,
}

/// How an [`OsFile`] makes sure it reads a regular file.
enum Check {
    /// Read at an offset (`pread`), which a FIFO or directory refuses before a byte is taken:
    /// no `fstat` for a plain file. One that refuses (a non-seekable FUSE file) is then asked.
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
                        return Err(not_a_regular_file());
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

/// `openat(2)`, a final link refused with `ELOOP` on every Unix (FreeBSD says `EMLINK`).
fn open(at: BorrowedFd<'_>, name: &[u8], flags: OFlags) -> Result<OwnedFd, Errno> {
    match openat(at, name, flags, Mode::empty()) {
        #[cfg(any(target_os = "freebsd", target_os = "dragonfly"))]
        Err(Errno::MLINK) if flags.contains(OFlags::NOFOLLOW) => Err(Errno::LOOP),
        answer => answer,
    }
}

/// The names the directory that `open` opens with the flags it is given lists, `.` and `..`
/// left out; not blocking on a FIFO swapped in for it.
fn list(open: impl FnOnce(OFlags) -> Result<OwnedFd, Errno>) -> Result<Vec<OsString>, Errno> {
    let fd = open(OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NONBLOCK | OFlags::CLOEXEC)?;
    #[cfg(target_os = "linux")]
    if linux::selected() {
        return linux::list_fd(fd);
    }
    let mut names = Vec::new();
    for entry in Dir::new(fd)? {
        match entry {
            Ok(entry) => match entry.file_name().to_bytes() {
                b"." | b".." => {}
                name => names.push(OsString::from_vec(name.to_vec())),
            },
            Err(Errno::NOENT) => break,
            Err(errno) => return Err(errno),
        }
    }
    Ok(names)
}

/// The directory `dir`, opened to resolve names from (`O_PATH`, or `O_SEARCH`: one that may be
/// searched but not read opens too), following a final link only with `follow`.
fn open_dir(at: BorrowedFd<'_>, dir: &[u8], follow: bool) -> Result<OwnedFd, Errno> {
    #[cfg(any(target_os = "macos", target_os = "freebsd"))]
    let mut flags = OFlags::from_bits_retain(libc::O_SEARCH as u32) | OFlags::NONBLOCK;
    #[cfg(not(any(target_os = "macos", target_os = "freebsd")))]
    let mut flags = OFlags::RDONLY | OFlags::NONBLOCK;
    #[cfg(target_os = "linux")]
    if linux::selected() {
        flags = OFlags::PATH;
    }
    flags.set(OFlags::NOFOLLOW, !follow);
    open(at, dir, flags | OFlags::DIRECTORY | OFlags::CLOEXEC)
}
