//! The OS file system, by typed system calls (rustix). Names are below `/`.
//!
//! A chain's lookup costs one `fstatat` per name per directory plus one per hit (its
//! case-swapped twin, [`super::os_lookup`]), with no directory opened on the way down: a
//! directory's names are looked up by their path from an anchor, which is `/` for the first 8
//! levels and then a directory opened every 8 levels, so that the kernel's path walk stays short
//! however deep the start is; a fragment directory is looked up from the same anchor, and one
//! found is opened once ([`OsDir`]) so that its files are asked about and read by their names in
//! it. A file read is `openat` (`O_NOFOLLOW`), `pread` and `close` when one read returns the whole
//! file, into the room of the buffer it is read onto; a name that is a link costs a failed
//! `openat` and an `fstat` more ([`open_file`]).

use std::ffi::CStr;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::buffer::spare_capacity;
use rustix::fs::{openat, statat, AtFlags, FileType, Mode, OFlags, RawDir, Stat, CWD};
use rustix::io::Errno;

use super::os_lookup::{
    self, entry_of, leads_nowhere, leads_nowhere_at, At, CPath, Names, NulFree,
};
use super::{Appended, Dirs, Entry, FileSystem, Lookup, LookupsBelow, ReadOnto};
use crate::error::Error;
use crate::path::{self, FsName, OS_ROOT};

/// The OS file system. Names are below `/`; compared byte for byte, so exact spelling holds on
/// a case-insensitive host too.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsFs;

impl OsFs {
    /// [`FileSystem::stat`] of the name whose OS path is `path` (absolute and clean), for a
    /// caller that holds the path already.
    pub(crate) fn stat_path(&self, path: &[u8]) -> Result<Option<Entry>, Error> {
        match statat(CWD, path, AtFlags::empty()) {
            Ok(stat) => Ok(Some(entry_of(&stat))),
            Err(errno) if leads_nowhere_at(&Anchor::root(), path, errno) => Ok(None),
            Err(errno) => Err(Error::io("stat", path, errno.into())),
        }
    }

    /// [`FileSystem::read`] of the name whose OS path is `path` (absolute and clean), onto the
    /// end of `buf`.
    pub(crate) fn read_path(
        &self,
        path: &[u8],
        size_hint: u64,
        limit: u64,
        buf: &mut Vec<u8>,
    ) -> Appended {
        read_at(CWD, path, path, size_hint, limit, buf)
    }
}

/// The file `name` resolves to from `at`, whose OS path is `path`, read onto the end of `buf`
/// ([`open_file`], then the one bounded read loop); `size_hint` and `limit` as
/// [`FileSystem::read`] takes them.
fn read_at(
    at: BorrowedFd<'_>,
    name: &[u8],
    path: &[u8],
    size_hint: u64,
    limit: u64,
    buf: &mut Vec<u8>,
) -> Appended {
    let opened = open_file(
        |flags| openat(at, name, flags, Mode::empty()),
        Some(size_hint),
    );
    read_file(opened, path, size_hint, limit, buf)
}

/// A directory opened to list it and then ask about and read its files by their names in it,
/// each resolved from the directory rather than by its whole path from `/`: a fragment
/// directory, whose files the walk reads right after listing it. A file deep in the tree costs
/// the same calls as by its path, without the kernel walking every directory above it twice.
pub(crate) struct OsDir {
    fd: OwnedFd,
}

impl OsDir {
    /// The directory whose OS path is `path` (absolute and clean), opened; `None` where
    /// [`FileSystem::list`] answers that it does not exist.
    pub(crate) fn open(path: &[u8]) -> Result<Option<Self>, Error> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        match openat(CWD, path, flags, Mode::empty()) {
            Ok(fd) => Ok(Some(Self { fd })),
            Err(errno) if leads_nowhere_at(&Anchor::root(), path, errno) => Ok(None),
            Err(errno) => Err(Error::io("list", path, errno.into())),
        }
    }

    /// The names it lists; `path` is its OS path, for errors.
    pub(crate) fn names(&self, path: &[u8]) -> Result<Vec<Vec<u8>>, Error> {
        list_fd(self.fd.as_fd()).map_err(|errno| Error::io("list", path, errno.into()))
    }

    /// [`FileSystem::stat`] of the entry `name` (one element it listed) whose OS path is `path`.
    /// One element below a directory leads nowhere on exactly the errors [`leads_nowhere`]
    /// names: the directory itself is on no way to it.
    pub(crate) fn stat(&self, name: &[u8], path: &[u8]) -> Result<Option<Entry>, Error> {
        match statat(&self.fd, name, AtFlags::empty()) {
            Ok(stat) => Ok(Some(entry_of(&stat))),
            Err(errno) if leads_nowhere(errno) => Ok(None),
            Err(errno) => Err(Error::io("stat", path, errno.into())),
        }
    }

    /// [`OsFs::read_path`] of the entry `name` whose OS path is `path`, onto the end of `buf`.
    pub(crate) fn read(
        &self,
        name: &[u8],
        path: &[u8],
        size_hint: u64,
        limit: u64,
        buf: &mut Vec<u8>,
    ) -> Appended {
        read_at(self.fd.as_fd(), name, path, size_hint, limit, buf)
    }
}

/// Levels walked from one anchor before the next directory is opened as the anchor.
const LEVELS_PER_ANCHOR: usize = 8;

impl FileSystem for OsFs {
    fn list(&self, dir: &FsName) -> Result<Option<Vec<Vec<u8>>>, Error> {
        let path = path::os_path(OS_ROOT, dir);
        OsDir::open(&path)?.map(|dir| dir.names(&path)).transpose()
    }

    fn stat(&self, name: &FsName) -> Result<Option<Entry>, Error> {
        self.stat_path(&path::os_path(OS_ROOT, name))
    }

    fn open(&self, name: &FsName) -> Result<Option<Box<dyn Read + '_>>, Error> {
        let path = path::os_path(OS_ROOT, name);
        let opened = open_file(|flags| openat(CWD, &path, flags, Mode::empty()), None);
        Ok(open_or_none(opened, &path)?.map(|f| Box::new(f) as _))
    }

    fn read(&self, name: &FsName, size_hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        let mut buf = Vec::new();
        let read = self.read_path(&path::os_path(OS_ROOT, name), size_hint, limit, &mut buf)?;
        Ok(read.map(|_| buf))
    }

    fn lookup(&self, dirs: &Dirs<'_>, names: &[Vec<u8>]) -> Result<Vec<Lookup>, Error> {
        Ok(self.lookup_below(dirs, names, &[])?.0)
    }

    fn lookup_below(
        &self,
        dirs: &Dirs<'_>,
        names: &[Vec<u8>],
        below: &[Vec<u8>],
    ) -> Result<LookupsBelow, Error> {
        let mut anchor = Anchor::root();
        let mut stats = Vec::with_capacity(dirs.len() * below.len());
        let mut levels = 0;
        let mut lookups = Vec::with_capacity(dirs.len());
        let deepest = NulFree::deepest(dirs)?;
        let names = Names::new(names);
        let below = Names::new(below);
        // The directory's OS path, and after it each name looked up in it, in one buffer made
        // once: each directory's name is a prefix of the start's, so it never grows.
        let longest = names.longest().max(below.longest());
        let mut path = CPath::with_capacity(deepest.len() + longest + 3);
        for i in 0..dirs.len() {
            path.truncate(0);
            path.push(NulFree::SLASH);
            path.push_dir(deepest, dirs.bytes(i));
            levels += 1;
            if levels > LEVELS_PER_ANCHOR {
                levels = 0;
                match anchor.open_dir(path.as_bytes()) {
                    Ok(fd) => {
                        anchor = Anchor {
                            fd: Some(fd),
                            path: path.as_bytes().to_vec(),
                        }
                    }
                    Err(errno) if leads_nowhere(errno) => {
                        lookups.resize(dirs.len(), Lookup::Missing);
                        break;
                    }
                    // A directory that cannot be opened is still looked up through its path.
                    Err(_) => {}
                }
            }
            let from = anchor.start_of(path.as_bytes());
            let lookup = os_lookup::names_in(&anchor, &mut path, from, &names)?;
            if let Lookup::Names(_) = lookup {
                for index in 0..below.len() {
                    stats.push(anchor.stat_below(&mut path, below.get(index)));
                }
            }
            lookups.push(lookup);
        }
        Ok((lookups, stats))
    }
}

/// Where the lookup stands: `/` through the current directory's fd with absolute paths, or an
/// open directory with paths relative to it.
struct Anchor {
    fd: Option<OwnedFd>,
    path: Vec<u8>,
}

impl Anchor {
    /// `/`, through the current directory's fd with absolute paths (`path` is unused).
    fn root() -> Self {
        Self {
            fd: None,
            path: Vec::new(),
        }
    }

    fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_ref().map_or(CWD, |fd| fd.as_fd())
    }

    /// Where, in the absolute path `dir`, its name relative to the anchor begins: at 0 below
    /// `/`; past the anchor's path and its `/`, or at the end for the anchor itself.
    fn start_of(&self, dir: &[u8]) -> usize {
        match self.fd {
            None => 0,
            Some(_) => (self.path.len() + 1).min(dir.len()),
        }
    }

    /// What `name` below the directory whose absolute path is in `path` is, as a name the
    /// directory holds ([`os_lookup::entry_below`]), resolved from the anchor. `path` is left as
    /// it was.
    fn stat_below(
        &self,
        path: &mut CPath,
        name: Result<NulFree, Errno>,
    ) -> Result<Option<Entry>, Error> {
        let from = self.start_of(path.as_bytes());
        os_lookup::entry_below(self, path, from, name)
    }

    fn open_dir(&self, dir: &[u8]) -> Result<OwnedFd, Errno> {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let relative = match &dir[self.start_of(dir)..] {
            b"" => b".",
            relative => relative,
        };
        openat(self.fd(), relative, flags, Mode::empty())
    }
}

impl At for Anchor {
    fn lstat(&self, name: &CStr) -> Result<Stat, Errno> {
        statat(self.fd(), name, AtFlags::SYMLINK_NOFOLLOW)
    }

    fn stat(&self, name: &CStr) -> Result<Stat, Errno> {
        statat(self.fd(), name, AtFlags::empty())
    }

    fn list(&self, dir: &[u8]) -> Result<Vec<Vec<u8>>, Errno> {
        list_at(self.fd(), dir)
    }

    fn os_path(&self, name: &[u8]) -> Vec<u8> {
        if self.fd.is_none() {
            return name.to_vec();
        }
        os_lookup::join(&self.path, name)
    }
}

/// The names the directory at `dir` (relative to `at`) lists, `.` and `..` left out.
pub(super) fn list_at(at: BorrowedFd<'_>, dir: &[u8]) -> Result<Vec<Vec<u8>>, Errno> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let fd = openat(at, dir, flags, Mode::empty())?;
    list_fd(fd.as_fd())
}

/// The names the open directory `fd` lists: `getdents64` into one buffer until it answers
/// none, so that a small directory costs `open`, two `getdents64` and `close`. (rustix's `Dir`
/// would ask `fcntl` and open `.` again, and copy each name twice.) A directory removed while it
/// is read ends there, as `readdir` ends.
pub(super) fn list_fd(fd: BorrowedFd<'_>) -> Result<Vec<Vec<u8>>, Errno> {
    // glibc's `readdir` buffer: a few hundred entries per call.
    const FIRST: usize = 32 << 10;
    let mut buf: Vec<u8> = Vec::with_capacity(FIRST);
    let mut names = Vec::new();
    loop {
        let room = buf.capacity();
        let mut entries = RawDir::new(fd, buf.spare_capacity_mut());
        loop {
            match entries.next() {
                None | Some(Err(Errno::NOENT)) => return Ok(names),
                // The next entry does not fit, and none was consumed: a larger buffer goes on
                // from there.
                Some(Err(Errno::INVAL)) if room < MAX_DIRENT_BUFFER => break,
                Some(Err(errno)) => return Err(errno),
                Some(Ok(entry)) => match entry.file_name().to_bytes() {
                    b"." | b".." => {}
                    name => names.push(name.to_vec()),
                },
            }
        }
        buf.reserve(room * 2);
    }
}

/// A bound on the buffer [`list_fd`] grows to for one entry: far beyond any name a file
/// system gives.
const MAX_DIRENT_BUFFER: usize = 1 << 20;

/// Opens a file to read, by `open` with the flags it is given (SECURITY.md, "No blocking").
/// First with `O_NOFOLLOW`: what opens is then the entry at the name itself, on the name's file
/// system — a regular file, or, swapped in after the lookup, a directory, FIFO or socket (a
/// socket does not open, `ENXIO`), which [`OsFile`] refuses without reading; no device, which an
/// unprivileged user cannot make. A name that is a link (`ELOOP`) is opened through it and
/// `fstat`-ed before the first read, since a link can lead to any device or FIFO. `O_NONBLOCK`:
/// a FIFO does not block the open, and a regular file ignores the flag.
pub(super) fn open_file(
    open: impl Fn(OFlags) -> Result<OwnedFd, Errno>,
    size: Option<u64>,
) -> Result<OsFile, Errno> {
    let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOCTTY | OFlags::NONBLOCK;
    let (fd, check) = match open(flags | OFlags::NOFOLLOW) {
        Ok(fd) => (fd, Check::ByOffset),
        Err(Errno::LOOP) => (open(flags)?, Check::ByStat),
        Err(errno) => return Err(errno),
    };
    Ok(OsFile {
        fd,
        size,
        read: 0,
        ended: false,
        check,
    })
}

/// An open's answer as the trait gives it: not found is `None`.
pub(super) fn open_or_none(
    opened: Result<OsFile, Errno>,
    path: &[u8],
) -> Result<Option<OsFile>, Error> {
    match opened {
        Ok(file) => Ok(Some(file)),
        Err(errno) if leads_nowhere(errno) => Ok(None),
        Err(errno) => Err(Error::io("open", path, errno.into())),
    }
}

/// [`FileSystem::read`] of an OS file onto the end of `buf`: the one bounded read loop over the
/// file opened.
pub(super) fn read_file(
    opened: Result<OsFile, Errno>,
    path: &[u8],
    size_hint: u64,
    limit: u64,
    buf: &mut Vec<u8>,
) -> Appended {
    let Some(mut file) = open_or_none(opened, path)? else {
        return Ok(None);
    };
    super::read_onto(&mut file, size_hint, limit, buf)
        .map(Some)
        .map_err(|e| Error::io("read", path, e))
}

/// A file open to read. A read shorter than asked, once the file's size at open has been read,
/// is its end: the next read answers 0 without asking the OS, so a whole file costs one read.
///
/// Only a regular file is read (SPEC.md §1): a name swapped for a FIFO after its lookup opens at
/// once (`O_NONBLOCK`), and a read would then take a writer's bytes, or answer an empty file for
/// one with no writer.
pub(super) struct OsFile {
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
    /// too (`EISDIR`) before a byte is taken; then asked by `fstat`, for a regular file that
    /// cannot be read at an offset (a FUSE file opened non-seekable).
    ByOffset,
    /// Asked by `fstat` before the first read.
    ByStat,
    /// A regular file, read in order.
    Done,
}

impl OsFile {
    /// One read of at most `asked` bytes by `read`, which is given the descriptor and the
    /// offset to read at (`None`: in order) and puts the bytes where they go.
    #[inline]
    fn read_by(
        &mut self,
        asked: usize,
        mut read: impl FnMut(BorrowedFd<'_>, Option<u64>) -> Result<usize, Errno>,
    ) -> io::Result<usize> {
        if self.ended || asked == 0 {
            return Ok(0);
        }
        let n = loop {
            match self.check {
                Check::ByOffset => match read(self.fd.as_fd(), Some(self.read)) {
                    Ok(n) => break n,
                    Err(Errno::SPIPE | Errno::ISDIR) => self.check = Check::ByStat,
                    Err(errno) => return Err(errno.into()),
                },
                Check::ByStat => {
                    let stat = rustix::fs::fstat(&self.fd)?;
                    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidInput,
                            "not a regular file (it changed after its stat); nothing was read",
                        ));
                    }
                    self.check = Check::Done;
                }
                Check::Done => break read(self.fd.as_fd(), None)?,
            }
        };
        self.read += n as u64;
        self.ended = n < asked && self.size.is_some_and(|size| self.read >= size);
        Ok(n)
    }
}

/// Reads into a slice, as [`Read`] asks.
fn into_slice(
    buf: &mut [u8],
) -> impl FnMut(BorrowedFd<'_>, Option<u64>) -> Result<usize, Errno> + '_ {
    move |fd, at| match at {
        Some(offset) => rustix::io::pread(fd, &mut *buf, offset),
        None => rustix::io::read(fd, &mut *buf),
    }
}

impl Read for OsFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.read_by(buf.len(), into_slice(buf))
    }
}

/// The OS reads into a `Vec`'s room as it is, none of it zeroed, when the room ends at `end`
/// (the buffer holds nothing past the bytes read, and the room is no more than asked); else
/// as any reader does.
impl ReadOnto for OsFile {
    #[inline]
    fn read_onto(&mut self, buf: &mut Vec<u8>, filled: usize, end: usize) -> io::Result<usize> {
        if buf.len() == filled && buf.capacity() == end {
            return self.read_by(end - filled, |fd, at| match at {
                Some(offset) => rustix::io::pread(fd, spare_capacity(buf), offset),
                None => rustix::io::read(fd, spare_capacity(buf)),
            });
        }
        let reader: &mut dyn Read = self;
        reader.read_onto(buf, filled, end)
    }

    fn at_end(&self) -> bool {
        self.ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn a_file_is_read_onto_a_buffer_up_to_its_limit_whatever_its_room() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, vec![b'x'; 3000]).unwrap();
        let path = path.as_os_str().as_bytes();
        let open = || open_file(|flags| openat(CWD, path, flags, Mode::empty()), Some(3000));
        for room in [0, 100, 5000, 1 << 20] {
            for (limit, read) in [(10, 10), (3000, 3000), (3001, 3000), (1 << 20, 3000)] {
                let mut buf = Vec::with_capacity(room);
                buf.push(b'a');
                assert_eq!(
                    read_file(open(), path, 3000, limit, &mut buf).unwrap(),
                    Some(read)
                );
                assert_eq!(buf.len(), 1 + read, "room {room}, limit {limit}");
                assert!(buf[1..].iter().all(|&b| b == b'x'));
            }
        }
        let mut buf = b"kept".to_vec();
        let gone = dir.path().join("gone");
        let gone = gone.as_os_str().as_bytes();
        let open = open_file(|flags| openat(CWD, gone, flags, Mode::empty()), Some(1));
        assert_eq!(read_file(open, gone, 1, 10, &mut buf).unwrap(), None);
        assert_eq!(buf, b"kept");
    }
}
