//! The calls only Linux has: a directory read by `getdents64`, and `openat2` with
//! `RESOLVE_BENEATH`. Asked unless a test build selected the portable path ([`selected`]).

use std::ffi::OsString;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;

use rustix::fs::{fstat, openat2, Mode, OFlags, RawDir, ResolveFlags, Stat};
use rustix::io::Errno;

/// Whether Linux's own calls are used: always, but in a build with the feature `test-portable`
/// (the tests' own) whose environment sets `AGENTSMD_TEST_PORTABLE=1`: the tests run every suite
/// again that way.
#[cfg(feature = "test-portable")]
pub(super) fn selected() -> bool {
    static PORTABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    !*PORTABLE.get_or_init(|| std::env::var_os("AGENTSMD_TEST_PORTABLE").is_some_and(|v| v == "1"))
}

/// Whether Linux's own calls are used: always, outside the tests' builds.
#[cfg(not(feature = "test-portable"))]
pub(super) const fn selected() -> bool {
    true
}

/// The names the open directory `fd` lists: `getdents64` into one buffer of glibc's `readdir`
/// size until it answers none. A directory removed while it is read ends there.
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

/// Whether the kernel resolves names beneath `root` (`openat2`, Linux 5.6): `ENOSYS` (an older
/// kernel) or `EPERM` (a seccomp filter) says that it cannot be used.
pub(super) fn has_openat2(root: BorrowedFd<'_>) -> bool {
    !matches!(
        open_beneath(root, b".", OFlags::PATH),
        Err(Errno::NOSYS | Errno::PERM)
    )
}

/// `stat(2)` of `name` beneath the directory `root`, by `openat2` (`O_PATH`, with `O_NOFOLLOW`
/// unless `follow`) and `fstat` of the descriptor.
pub(super) fn stat_beneath(root: BorrowedFd<'_>, name: &[u8], follow: bool) -> Result<Stat, Errno> {
    let flags = match follow {
        true => OFlags::PATH,
        false => OFlags::PATH | OFlags::NOFOLLOW,
    };
    fstat(open_beneath(root, name, flags)?)
}

/// `name` opened beneath the directory `root` with `flags`, by `openat2` with `RESOLVE_BENEATH`:
/// the kernel refuses (`EXDEV`) any resolution that would leave `root`. It answers `EAGAIN`
/// when a rename anywhere on the system raced a `..` of the resolution (it cannot then vouch
/// that the walk stayed beneath); the call is retried, as openat2(2) advises.
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
