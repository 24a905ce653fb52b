//! The portable path: the calls of `mod.rs` that differ between Unixes, by POSIX alone, as every Unix but Linux answers
//! them — and Linux too, where a test build selects this path (`linux::selected`). A directory
//! is listed through rustix's [`Dir`] (`readdir`), and opened to resolve names from with
//! `O_SEARCH` where the OS has it (macOS, FreeBSD: search permission is enough, as for Linux's
//! `O_PATH`), `O_RDONLY` elsewhere. No call resolves names beneath a root: confinement is the
//! element walk of `confined.rs`.

use std::ffi::OsString;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;

use rustix::fs::{openat, Dir, Mode, OFlags};
use rustix::io::Errno;

/// The names the open directory `fd` lists, by `readdir`. A directory removed while it is read
/// ends there, as Linux's `getdents64` ends.
pub(super) fn list_fd(fd: OwnedFd) -> Result<Vec<OsString>, Errno> {
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

/// The flags of a directory opened to resolve names from: `O_SEARCH` where the OS has it, so
/// that a directory that may be searched but not read opens as it does on Linux; `O_NONBLOCK`,
/// so that nothing swapped in for it can block the open.
pub(super) const DIR_FLAGS: OFlags = SEARCH
    .union(OFlags::DIRECTORY)
    .union(OFlags::NONBLOCK)
    .union(OFlags::CLOEXEC);

#[cfg(any(target_os = "macos", target_os = "freebsd"))]
const SEARCH: OFlags = OFlags::from_bits_retain(libc::O_SEARCH as u32);
#[cfg(not(any(target_os = "macos", target_os = "freebsd")))]
const SEARCH: OFlags = OFlags::RDONLY;

/// `name` opened relative to `at` with `flags` (`openat(2)`), a final link refused with `ELOOP`
/// under `O_NOFOLLOW` on every Unix (FreeBSD says `EMLINK`).
pub(super) fn open(at: BorrowedFd<'_>, name: &[u8], flags: OFlags) -> Result<OwnedFd, Errno> {
    match openat(at, name, flags, Mode::empty()) {
        #[cfg(any(target_os = "freebsd", target_os = "dragonfly"))]
        Err(Errno::MLINK) if flags.contains(OFlags::NOFOLLOW) => Err(Errno::LOOP),
        answer => answer,
    }
}
