//! The system calls of the OS walk, each behind a safe function: directories opened relative to
//! their parent, names looked up in them with `fstatat`, paths stat'ed, files read into their
//! final buffer, and a count of every system call made, for the tests and the benchmark that
//! show what a chain costs.

use std::cell::Cell;
use std::ffi::{c_int, CStr, CString};
use std::io;

use super::{Kind, Metadata};

thread_local! {
    // A const-initialized `Cell` registers no destructor, so unloading the library stays safe.
    static CALLS: Cell<u64> = const { Cell::new(0) };
}

pub(crate) fn count() {
    CALLS.with(|calls| calls.set(calls.get() + 1));
}

/// How many system calls this thread has made through the OS file system so far: a diagnostic
/// for tests and benchmarks, which read it before and after a chain. Every `open`, `fstatat`,
/// `read`, `close`, `poll` … the walk makes is one; memory allocation and the custom file
/// system's callbacks are not counted.
pub fn system_calls() -> u64 {
    CALLS.with(Cell::get)
}

/// The result of a system call returning an `int`, with `errno` as the error.
fn check(ret: c_int) -> io::Result<c_int> {
    count();
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

/// `Ok(None)` for "not found"; other errors stay errors.
pub(crate) fn not_found_is_none<T>(result: io::Result<T>) -> io::Result<Option<T>> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

/// Whether `err` is what resolving a name through a symbolic link that loops (`ELOOP`) or runs
/// through a non-directory (`ENOTDIR`) answers: a link that leads nowhere, which SPEC.md §1
/// takes as no file, like a dangling link.
pub(crate) fn leads_nowhere(err: &io::Error) -> bool {
    matches!(err.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR))
}

/// Whether `path`, whose resolution failed as [`leads_nowhere`] tells, fails at a symbolic link
/// on the way (the path's own included) that leads nowhere, so that the path does not exist;
/// rather than at a non-directory that is no such link used as a directory, which is an error.
/// `stat` stats a path following links; the prefixes of `path` that end before a `/` at or
/// after `first`, then `path` itself, are asked in turn, from the shortest, until one is not a
/// directory: that one decides.
pub(crate) fn through_link_to_nowhere(
    path: &[u8],
    first: usize,
    stat: impl Fn(&[u8]) -> io::Result<Stat>,
) -> bool {
    let slashes = path
        .iter()
        .enumerate()
        .skip(first)
        .filter(|&(_, &b)| b == b'/')
        .map(|(at, _)| at);
    for end in slashes.chain([path.len()]) {
        match stat(&path[..end]) {
            Ok(stat) if stat.what == What::Dir => {}
            // Below a directory, only a link can loop or run through a non-directory.
            Err(err) => return leads_nowhere(&err),
            Ok(_) => return false,
        }
    }
    false
}

/// A byte string as the OS takes it. Names and OS paths are checked for NUL before any I/O, so
/// this fails only on a caller's bug; it is still an error rather than a panic.
pub(crate) fn c_string(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "NUL in a path"))
}

/// An open file descriptor, closed (and counted) when dropped.
#[derive(Debug)]
pub(crate) struct Fd(c_int);

impl Fd {
    pub(crate) fn raw(&self) -> c_int {
        self.0
    }

    /// Takes ownership of the descriptor a system call returned.
    pub(crate) fn own(ret: c_int) -> io::Result<Self> {
        check(ret).map(Self)
    }
}

impl Drop for Fd {
    fn drop(&mut self) {
        count();
        // SAFETY: the descriptor is owned and closed once. An error on close of a directory or
        // of a file opened for reading loses nothing.
        unsafe { libc::close(self.0) };
    }
}

/// What an entry is. `Link` only from a lookup that does not follow links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum What {
    File,
    Dir,
    Link,
    Other,
}

/// Everything a stat tells that a cache needs to notice a change: identity, size, link count
/// and both times to the nanosecond. `ctime` catches an edit whose `mtime` was set back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stat {
    pub(crate) what: What,
    pub(crate) dev: u64,
    pub(crate) ino: u64,
    pub(crate) size: u64,
    pub(crate) nlink: u64,
    pub(crate) mtime: (i64, i64),
    pub(crate) ctime: (i64, i64),
}

impl Stat {
    fn of(st: &libc::stat) -> Self {
        let what = match st.st_mode & libc::S_IFMT {
            libc::S_IFREG => What::File,
            libc::S_IFDIR => What::Dir,
            libc::S_IFLNK => What::Link,
            _ => What::Other,
        };
        // The field widths differ between platforms; these conversions are lossless on each.
        #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
        Self {
            what,
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
            size: u64::try_from(st.st_size).unwrap_or(0),
            nlink: st.st_nlink as u64,
            mtime: (st.st_mtime as i64, st.st_mtime_nsec as i64),
            ctime: (st.st_ctime as i64, st.st_ctime_nsec as i64),
        }
    }

    /// What the walk sees of it: a link followed is its target, so `Link` is no file.
    pub(crate) fn metadata(&self) -> Metadata {
        Metadata {
            kind: match self.what {
                What::File => Kind::File,
                What::Dir => Kind::Dir,
                What::Link | What::Other => Kind::Other,
            },
            size: self.size,
        }
    }

    /// The later of the two times, in nanoseconds since the epoch.
    pub(crate) fn changed_ns(&self) -> i128 {
        let ns = |(sec, nsec): (i64, i64)| i128::from(sec) * 1_000_000_000 + i128::from(nsec);
        ns(self.mtime).max(ns(self.ctime))
    }
}

pub(crate) fn fstatat(dirfd: c_int, name: &CStr, flags: c_int) -> io::Result<Stat> {
    // SAFETY: `stat` is plain data that the call fills in; `name` is NUL-terminated.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    check(unsafe { libc::fstatat(dirfd, name.as_ptr(), &mut st, flags) })?;
    Ok(Stat::of(&st))
}

/// The stat of the open descriptor `fd`.
pub(crate) fn fstat(fd: c_int) -> io::Result<Stat> {
    // SAFETY: `stat` is plain data that the call fills in.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    check(unsafe { libc::fstat(fd, &mut st) })?;
    Ok(Stat::of(&st))
}

/// Opens `name` relative to the directory open at `dirfd` (or the current directory, for
/// `AT_FDCWD`).
pub(crate) fn openat(dirfd: c_int, name: &CStr, flags: c_int) -> io::Result<Fd> {
    // SAFETY: `name` is NUL-terminated; the descriptor returned is owned by `Fd`.
    Fd::own(unsafe { libc::openat(dirfd, name.as_ptr(), flags) })
}

/// What `path` is, following symbolic links when `follow` is set; `None` when not found.
/// Following links, a link on the way that leads nowhere means "not found" too
/// ([`through_link_to_nowhere`]).
pub(crate) fn stat_path(path: &[u8], follow: bool) -> io::Result<Option<Stat>> {
    let flags = if follow { 0 } else { libc::AT_SYMLINK_NOFOLLOW };
    match fstatat(libc::AT_FDCWD, &c_string(path)?, flags) {
        Err(err) if follow && leads_nowhere(&err) && through_link_to_nowhere(path, 1, stat_at) => {
            Ok(None)
        }
        answer => not_found_is_none(answer),
    }
}

/// What the absolute `path` is, following links.
fn stat_at(path: &[u8]) -> io::Result<Stat> {
    fstatat(libc::AT_FDCWD, &c_string(path)?, 0)
}

/// A name looked up in a directory: whether the entry is a symbolic link, and what it is after
/// following it (`None` for a dangling link).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Looked {
    pub(crate) link: bool,
    pub(crate) stat: Option<Stat>,
    /// Under confinement only: the link leads out of the root, and was not followed.
    pub(crate) escapes: bool,
}

/// A directory opened for lookups.
#[derive(Debug)]
pub(crate) struct Dir {
    fd: Fd,
}

/// A directory opened by [`Dir::open_child`], and whether the name was a symbolic link.
#[derive(Debug)]
pub(crate) struct Opened {
    /// `None` when the directory does not exist (or the link dangles).
    pub(crate) dir: Option<Dir>,
    pub(crate) link: bool,
}

/// How a directory is opened: to be read (listed, looked into), or only to reach the
/// directories below it, which needs no read permission (`O_PATH`, Linux).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    Pass,
}

/// The flags a directory is opened with for `access`.
pub(crate) fn open_flags(access: Access) -> c_int {
    let base = libc::O_DIRECTORY | libc::O_CLOEXEC;
    match access {
        Access::Read => base | libc::O_RDONLY,
        #[cfg(target_os = "linux")]
        Access::Pass => base | libc::O_PATH,
        #[cfg(not(target_os = "linux"))]
        Access::Pass => base | libc::O_RDONLY,
    }
}

impl Dir {
    /// Opens the directory at `path`, resolved from the current directory (or `/`). `None` when
    /// it does not exist.
    pub(crate) fn open_path(path: &[u8], access: Access) -> io::Result<Option<Self>> {
        let c_path = c_string(path)?;
        // SAFETY: `c_path` is NUL-terminated; the descriptor returned is owned by `Fd`.
        let fd =
            Fd::own(unsafe { libc::openat(libc::AT_FDCWD, c_path.as_ptr(), open_flags(access)) });
        match fd {
            Err(err) if leads_nowhere(&err) && through_link_to_nowhere(path, 1, stat_at) => {
                Ok(None)
            }
            fd => Ok(not_found_is_none(fd)?.map(|fd| Self { fd })),
        }
    }

    /// Opens the directory `name` (one element) relative to this one, the way resolving the
    /// joined path would, and tells whether `name` was a symbolic link. The first attempt does
    /// not follow a link, so that a plain directory costs one call and a link two.
    pub(crate) fn open_child(&self, name: &CString, access: Access) -> io::Result<Opened> {
        open_last(self.fd.raw(), name, access)
    }

    /// Opens the directory at `path` as [`Dir::open_child`] opens one in its parent, resolving
    /// the directories above it from `/`: one call instead of two (the parent's `open`, and
    /// its `close`) when the parent is not open.
    pub(crate) fn open_path_child(path: &[u8], access: Access) -> io::Result<Opened> {
        open_last(libc::AT_FDCWD, &c_string(path)?, access)
    }

    /// Looks `name` up without listing the directory: one `fstatat` that does not follow a
    /// link, and a second that does when the entry is one. `None` when there is no entry; a
    /// link that dangles or leads nowhere ([`leads_nowhere`]) has no stat.
    pub(crate) fn look(&self, name: &CString) -> io::Result<Option<Looked>> {
        self.look_following(name, || {
            let stat = match fstatat(self.fd.raw(), name, 0) {
                Err(err) if leads_nowhere(&err) => None,
                stat => not_found_is_none(stat)?,
            };
            Ok(Looked {
                link: true,
                stat,
                escapes: false,
            })
        })
    }

    /// Looks `name` up as [`Dir::look`] does, with `follow` telling where the entry leads
    /// when it is a symbolic link.
    pub(crate) fn look_following(
        &self,
        name: &CString,
        follow: impl FnOnce() -> io::Result<Looked>,
    ) -> io::Result<Option<Looked>> {
        let Some(entry) =
            not_found_is_none(fstatat(self.fd.raw(), name, libc::AT_SYMLINK_NOFOLLOW))?
        else {
            return Ok(None);
        };
        if entry.what == What::Link {
            return follow().map(Some);
        }
        Ok(Some(Looked {
            link: false,
            stat: Some(entry),
            escapes: false,
        }))
    }

    /// A directory already opened (with [`open_flags`]).
    pub(crate) fn of(fd: Fd) -> Self {
        Self { fd }
    }

    /// The directory's own stat.
    pub(crate) fn stat(&self) -> io::Result<Stat> {
        fstat(self.fd.raw())
    }

    /// The descriptor, for the calls of the sibling modules (`fstatfs`, `ioctl`, watches).
    pub(crate) fn fd(&self) -> c_int {
        self.fd.raw()
    }

    /// The names the directory lists. On Linux, read through a fresh descriptor so that this
    /// one's offset is untouched; elsewhere by `path`, the directory's path.
    #[cfg(target_os = "linux")]
    pub(crate) fn listing(&self, _path: &[u8]) -> io::Result<Vec<Vec<u8>>> {
        // SAFETY: "." is NUL-terminated; the descriptor returned is owned by `Fd`.
        let fd = Fd::own(unsafe {
            libc::openat(
                self.fd.raw(),
                c".".as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        })?;
        list_fd(&fd)
    }

    /// The names the directory lists. On Linux, read through a fresh descriptor so that this
    /// one's offset is untouched; elsewhere by `path`, the directory's path.
    #[cfg(not(target_os = "linux"))]
    pub(crate) fn listing(&self, path: &[u8]) -> io::Result<Vec<Vec<u8>>> {
        use std::os::unix::ffi::{OsStrExt, OsStringExt};
        count();
        std::fs::read_dir(std::ffi::OsStr::from_bytes(path))?
            .map(|entry| entry.map(|entry| entry.file_name().into_vec()))
            .collect()
    }
}

/// Every name in the directory open at `fd` but `.` and `..`, with `getdents64`.
#[cfg(target_os = "linux")]
fn list_fd(fd: &Fd) -> io::Result<Vec<Vec<u8>>> {
    // u64 words, so that the records (8-byte aligned by the kernel) are aligned too.
    let mut buffer = vec![0u64; 4096];
    let bytes = std::mem::size_of_val(buffer.as_slice());
    let mut names = Vec::new();
    loop {
        count();
        // SAFETY: the buffer is `bytes` writable bytes.
        let got = unsafe {
            libc::syscall(
                libc::SYS_getdents64,
                fd.raw(),
                buffer.as_mut_ptr().cast::<u8>(),
                bytes,
            )
        };
        if got < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        if got == 0 {
            return Ok(names);
        }
        // SAFETY: the kernel wrote `got` bytes of the buffer.
        let records =
            unsafe { std::slice::from_raw_parts(buffer.as_ptr().cast::<u8>(), got as usize) };
        let mut at = 0;
        // struct linux_dirent64 { u64 d_ino; i64 d_off; u16 d_reclen; u8 d_type; char d_name[]; }
        while at + 19 <= records.len() {
            let reclen = usize::from(u16::from_ne_bytes([records[at + 16], records[at + 17]]));
            if reclen == 0 || at + reclen > records.len() {
                break;
            }
            let name = &records[at + 19..at + reclen];
            let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
            if name != b"." && name != b".." {
                names.push(name.to_vec());
            }
            at += reclen;
        }
    }
}

/// [`Dir::open_child`] of `name` relative to `dirfd`: `O_NOFOLLOW` applies to the last
/// element only, so that a name resolved through several elements is opened as resolving its
/// parent and then its last element would.
fn open_last(dirfd: c_int, name: &CStr, access: Access) -> io::Result<Opened> {
    let flags = open_flags(access);
    match openat(dirfd, name, flags | libc::O_NOFOLLOW) {
        Ok(fd) => Ok(Opened {
            dir: Some(Dir { fd }),
            link: false,
        }),
        // A link refused by O_NOFOLLOW (ELOOP, or ENOTDIR with O_DIRECTORY), or a name that is
        // no directory at all: following tells which, with the error resolving the whole path
        // would give.
        Err(err) if leads_nowhere(&err) => {
            let dir = match openat(dirfd, name, flags) {
                // A link that leads nowhere is no directory, like a dangling one; a name that
                // is no link and no directory stays an error.
                Err(err) if leads_nowhere(&err) && is_link(dirfd, name) => None,
                opened => not_found_is_none(opened)?.map(|fd| Dir { fd }),
            };
            Ok(Opened { dir, link: true })
        }
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(Opened {
            dir: None,
            link: false,
        }),
        Err(err) => Err(err),
    }
}

/// Whether `name` in the directory open at `dirfd` is a symbolic link.
fn is_link(dirfd: c_int, name: &CStr) -> bool {
    fstatat(dirfd, name, libc::AT_SYMLINK_NOFOLLOW).is_ok_and(|stat| stat.what == What::Link)
}

/// A file read whole into the buffer it is returned in, and the stat of the open file.
pub(crate) struct Read {
    pub(crate) content: Vec<u8>,
    pub(crate) stat: Stat,
    pub(crate) fd: Fd,
}

/// The largest size a stat is believed for sizing a read buffer before reading (64 MiB).
const TRUSTED_SIZE: usize = 64 << 20;

/// Why [`read_file`] failed: which step, and the OS error.
pub(crate) struct ReadError {
    pub(crate) op: &'static str,
    pub(crate) err: io::Error,
}

/// Reads at most `limit` bytes of the regular file at `path` into one buffer sized from the
/// open file's stat, so that a file of the size it reports is read by one `read` into its
/// final place (and one more that finds the end). `None` when not found. A name that is no
/// regular file is an error: the walk only reads what a stat showed to be one.
pub(crate) fn read_file(path: &[u8], limit: u64) -> Result<Option<Read>, ReadError> {
    let fail = |err| ReadError { op: "open", err };
    let cpath = c_string(path).map_err(fail)?;
    let fd = openat(libc::AT_FDCWD, &cpath, READ_FLAGS);
    let Some(fd) = not_found_is_none(fd).map_err(fail)? else {
        return Ok(None);
    };
    read_open(fd, limit).map(Some)
}

/// How an instruction file is opened. O_NONBLOCK: a FIFO swapped in after the stat must not
/// block the open. O_NOCTTY: a terminal swapped in must not become the caller's.
pub(crate) const READ_FLAGS: c_int =
    libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;

/// Reads at most `limit` bytes of the file open at `fd` (opened with [`READ_FLAGS`]), as
/// [`read_file`] does once it has opened it.
pub(crate) fn read_open(fd: Fd, limit: u64) -> Result<Read, ReadError> {
    let stat = fstat(fd.raw()).map_err(|err| ReadError { op: "stat", err })?;
    if stat.what != What::File {
        return Err(ReadError {
            op: "open",
            err: io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"),
        });
    }
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    // One byte past the size, so that a file of the size its stat reported fills the buffer
    // without growing it, and a file that grew is noticed. The stat is believed only up to
    // TRUSTED_SIZE: a sparse or lying file must not make the host allocate what it claims
    // before a byte of it is read; past that, the buffer grows with what is read.
    let size = usize::try_from(stat.size).unwrap_or(usize::MAX);
    let mut content: Vec<u8> =
        Vec::with_capacity(size.saturating_add(1).min(limit).min(TRUSTED_SIZE));
    while content.len() < limit {
        if content.len() == content.capacity() {
            let more = content.len().max(8192).min(limit - content.len());
            content.reserve_exact(more);
        }
        let want = (content.capacity() - content.len()).min(limit - content.len());
        count();
        // SAFETY: the spare capacity holds `want` writable bytes; `set_len` covers only the
        // bytes the kernel wrote.
        let got = unsafe {
            libc::read(
                fd.raw(),
                content.as_mut_ptr().add(content.len()).cast(),
                want,
            )
        };
        if got < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(ReadError { op: "read", err });
        }
        if got == 0 {
            break;
        }
        unsafe { content.set_len(content.len() + got as usize) };
    }
    Ok(Read { content, stat, fd })
}
