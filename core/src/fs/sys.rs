//! The calls of the OS file systems that differ between Unixes, behind one surface: Linux's own
//! (`linux.rs`: `getdents64`, `O_PATH`, `openat2`) on Linux, the portable ones (`portable.rs`:
//! `readdir`, `O_SEARCH`, no `openat2`) on every other Unix — and on Linux too in the tests'
//! runs that select them (`linux::selected`), so that every rule is checked on both paths. The
//! rest of `fs/` never names a platform; everything else it asks (`openat`, `fstatat`,
//! `readlinkat`, `pread`, `fstat`) is POSIX.

use std::ffi::OsString;
use std::os::fd::{BorrowedFd, OwnedFd};

use rustix::fs::{OFlags, Stat};
use rustix::io::Errno;

#[cfg(target_os = "linux")]
use super::linux;
use super::portable;

pub(super) use portable::open;

/// The flags of a directory opened to be listed: `O_NONBLOCK`, so that a FIFO swapped in for it
/// cannot block the open (Linux refuses it for `O_DIRECTORY` before opening it; another Unix
/// need not).
pub(super) const LIST_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NONBLOCK)
    .union(OFlags::CLOEXEC);

/// The names the directory `dir` (relative to `at`) lists, `.` and `..` left out.
pub(super) fn list(at: BorrowedFd<'_>, dir: &[u8]) -> Result<Vec<OsString>, Errno> {
    list_fd(open(at, dir, LIST_FLAGS)?)
}

/// The names the directory open as `fd` ([`LIST_FLAGS`]) lists, `.` and `..` left out.
pub(super) fn list_fd(fd: OwnedFd) -> Result<Vec<OsString>, Errno> {
    #[cfg(target_os = "linux")]
    if linux::selected() {
        return linux::list_fd(fd);
    }
    portable::list_fd(fd)
}

/// The directory `dir` (relative to `at`), opened to resolve names from: located only
/// (`O_PATH`) on Linux, opened to search where the OS can (`O_SEARCH`), to read elsewhere.
/// A final link is followed only with `follow`.
pub(super) fn open_dir(at: BorrowedFd<'_>, dir: &[u8], follow: bool) -> Result<OwnedFd, Errno> {
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
pub(super) fn has_openat2(root: BorrowedFd<'_>) -> bool {
    #[cfg(target_os = "linux")]
    if linux::selected() {
        return linux::has_openat2(root);
    }
    let _ = root;
    false
}

/// `stat(2)` of `name` beneath `root`, following a final link only with `follow`; `EXDEV`
/// where the resolution would leave `root`. Asked only where [`has_openat2`].
pub(super) fn stat_beneath(root: BorrowedFd<'_>, name: &[u8], follow: bool) -> Result<Stat, Errno> {
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
pub(super) fn open_beneath(
    root: BorrowedFd<'_>,
    name: &[u8],
    flags: OFlags,
) -> Result<OwnedFd, Errno> {
    #[cfg(target_os = "linux")]
    return linux::open_beneath(root, name, flags);
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (root, name, flags);
        Err(Errno::NOSYS)
    }
}
