//! The calls the OS file systems make that only Linux has: a directory read by `getdents64`,
//! a descriptor that only locates a name (`O_PATH`), and `openat2` with `RESOLVE_BENEATH`.
//! Everything else they ask (`fstatat`, `openat`, `pread`, `fstat`, `readlinkat`) is POSIX.

use std::ffi::OsString;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;

use rustix::fs::{openat, openat2, Mode, OFlags, RawDir, ResolveFlags};
use rustix::io::Errno;

/// The names the directory `dir` (relative to `at`) lists, `.` and `..` left out.
pub(super) fn list(at: BorrowedFd<'_>, dir: &[u8]) -> Result<Vec<OsString>, Errno> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    list_fd(openat(at, dir, flags, Mode::empty())?.as_fd())
}

/// The names the open directory `fd` lists: `getdents64` into one buffer of glibc's `readdir`
/// size (a few hundred entries per call, and room for any entry a file system gives) until it
/// answers none. A directory removed while it is read ends there, as `readdir` ends.
pub(super) fn list_fd(fd: BorrowedFd<'_>) -> Result<Vec<OsString>, Errno> {
    let mut buf = Vec::with_capacity(32 << 10);
    let mut entries = RawDir::new(fd, buf.spare_capacity_mut());
    let mut names = Vec::new();
    loop {
        match entries.next() {
            None | Some(Err(Errno::NOENT)) => return Ok(names),
            Some(Err(errno)) => return Err(errno),
            Some(Ok(entry)) => match entry.file_name().to_bytes() {
                b"." | b".." => {}
                name => names.push(OsString::from_vec(name.to_vec())),
            },
        }
    }
}

/// `name` (relative to `at`) opened only to locate it (`O_PATH`): a directory to resolve names
/// from, or an element of a confined walk, told by `fstat` of the descriptor. A final link is
/// followed only with `follow`.
pub(super) fn locate(at: BorrowedFd<'_>, name: &[u8], follow: bool) -> Result<OwnedFd, Errno> {
    let flags = OFlags::PATH | OFlags::CLOEXEC;
    let flags = if follow {
        flags
    } else {
        flags | OFlags::NOFOLLOW
    };
    openat(at, name, flags, Mode::empty())
}

/// The directory `dir` (relative to `at`), located (`O_PATH`) to resolve names from.
pub(super) fn locate_dir(at: BorrowedFd<'_>, dir: &[u8]) -> Result<OwnedFd, Errno> {
    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
    openat(at, dir, flags, Mode::empty())
}

/// `name` opened beneath the directory `root` with `flags`, by `openat2` with `RESOLVE_BENEATH`:
/// the kernel refuses (`EXDEV`) any resolution that would leave `root`. It answers `EAGAIN`
/// when a rename anywhere on the system raced a `..` of the resolution (it cannot then vouch
/// that the walk stayed beneath); the call is retried, as openat2(2) advises. `ENOSYS` (Linux
/// before 5.6) or `EPERM` (a seccomp filter) says that it cannot be used.
pub(super) fn open_beneath(
    root: BorrowedFd<'_>,
    name: &[u8],
    flags: OFlags,
) -> Result<OwnedFd, Errno> {
    const TRIES: usize = 64;
    let beneath = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
    let mut tries = 1;
    loop {
        match openat2(root, name, flags | OFlags::CLOEXEC, Mode::empty(), beneath) {
            Err(Errno::AGAIN) if tries < TRIES => tries += 1,
            answer => return answer,
        }
    }
}
