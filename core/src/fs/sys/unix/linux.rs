//! The calls only Linux has: `getdents64` and `openat2` with `RESOLVE_BENEATH`.

use std::ffi::OsString;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;

use rustix::fs::{openat2, Mode, OFlags, RawDir, ResolveFlags};
use rustix::io::Errno;

/// Whether Linux's own calls are used: always, but in the tests' runs of the portable path
/// (feature `test-portable`, `AGENTSMD_TEST_PORTABLE=1`).
pub(super) fn selected() -> bool {
    static PORTABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let portable = || std::env::var_os("AGENTSMD_TEST_PORTABLE").is_some_and(|v| v == "1");
    !cfg!(feature = "test-portable") || !*PORTABLE.get_or_init(portable)
}

/// The names the open directory `fd` lists, by `getdents64` into one buffer of glibc's size.
pub(super) fn list_fd(fd: OwnedFd) -> Result<Vec<OsString>, Errno> {
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

/// Whether the kernel has `openat2` (Linux 5.6) and no seccomp filter refuses it (`EPERM`).
pub(super) fn has_openat2(root: BorrowedFd<'_>) -> bool {
    !matches!(
        open_beneath(root, b".", OFlags::PATH),
        Err(Errno::NOSYS | Errno::PERM)
    )
}

/// `name` opened beneath the directory `root` with `flags` (`EXDEV` where it would leave it),
/// retried on `EAGAIN`, which says a rename raced a `..` of the resolution, as openat2(2) advises.
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
