//! Opening and stat'ing a name beneath a directory, never outside it: the mechanism of
//! confinement (`Options::confine`). Every symbolic link met on the way is resolved, and one
//! that leads out of the directory — by an absolute target, or by `..` above it — fails with
//! `EXDEV` before anything outside is opened. Links that stay beneath are followed.
//!
//! Two ways, with the same answers (the tests run every case through both):
//!
//! - **`openat2`** (Linux 5.6 and later) with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`: the
//!   kernel resolves the whole name and refuses any step out of the directory, atomically with
//!   the open, so a link swapped in at any moment cannot lead it out. `/proc` magic links (which
//!   jump anywhere) are refused with `ELOOP`. When the kernel cannot vouch for a `..` during a
//!   concurrent rename (`EAGAIN`), the walk below answers instead.
//! - **The component walk**, where `openat2` is missing (an older kernel, a seccomp filter that
//!   refuses it, another OS): each element is opened with `O_NOFOLLOW` relative to the directory
//!   before it; a link is read with `readlinkat` and its target resolved the same way; `..` is
//!   taken from the directories already entered, never asked of the kernel, so that a rename
//!   during the walk cannot move it out. As with `RESOLVE_BENEATH`, an absolute target is
//!   refused even when it names a place inside, and more than 40 links is `ELOOP`.

use std::ffi::{c_int, CStr};
use std::io;

use super::os_dir::{self, c_string, Access, Fd, Stat, What};

/// The most links one resolution follows: the kernel's own limit.
const MAX_LINKS: usize = 40;

/// Whether an open or stat beneath a directory failed because the name leads out of it.
pub(crate) fn escapes(err: &io::Error) -> bool {
    err.raw_os_error() == Some(libc::EXDEV)
}

fn escape() -> io::Error {
    io::Error::from_raw_os_error(libc::EXDEV)
}

/// Opens `rel` (a relative path; `.` for the directory itself) beneath the directory open at
/// `dir`, with `flags`. Fails with `EXDEV` ([`escapes`]) when it leads out.
pub(crate) fn open(dir: c_int, rel: &[u8], flags: c_int) -> io::Result<Fd> {
    #[cfg(target_os = "linux")]
    if openat2_available() {
        match openat2(dir, &c_string(rel)?, flags) {
            Err(err) if err.raw_os_error() == Some(libc::EAGAIN) => {}
            answer => return answer,
        }
    }
    walk(dir, rel, |at, name| open_entry(at, name, flags))
}

/// What `rel` is beneath the directory open at `dir`, following links that stay beneath it.
/// Fails with `EXDEV` ([`escapes`]) when it leads out. Nothing is opened for reading: a FIFO or a
/// device is stat'ed, not opened.
pub(crate) fn stat(dir: c_int, rel: &[u8]) -> io::Result<Stat> {
    #[cfg(target_os = "linux")]
    if openat2_available() {
        match openat2(dir, &c_string(rel)?, libc::O_PATH | libc::O_CLOEXEC) {
            Ok(fd) => return os_dir::fstat(fd.raw()),
            Err(err) if err.raw_os_error() == Some(libc::EAGAIN) => {}
            Err(err) => return Err(err),
        }
    }
    walk(dir, rel, |at, name| {
        let stat = os_dir::fstatat(at, name, libc::AT_SYMLINK_NOFOLLOW)?;
        Ok((stat.what != What::Link).then_some(stat))
    })
}

/// The component walk: resolves `rel` beneath `dir` one element at a time and hands the last
/// element, with the directory holding it, to `last`, which answers `None` when that element is
/// a symbolic link, to be read and followed.
fn walk<T>(
    dir: c_int,
    rel: &[u8],
    mut last: impl FnMut(c_int, &CStr) -> io::Result<Option<T>>,
) -> io::Result<T> {
    // The directories entered below `dir`: `..` leaves the last one, and never `dir` itself.
    let mut entered: Vec<Fd> = Vec::new();
    // The elements left to resolve, the next one last, so that a link's target goes in front.
    let mut left: Vec<Vec<u8>> = split(rel);
    let mut links = 0;
    loop {
        // Nothing left: the directory reached is the answer, as `.`.
        let element = left.pop().unwrap_or_default();
        let is_last = left.is_empty();
        let name = match element.as_slice() {
            b".." => {
                entered.pop().ok_or_else(escape)?;
                if !is_last {
                    continue;
                }
                c".".to_owned()
            }
            b"" | b"." if !is_last => continue,
            b"" => c".".to_owned(),
            _ => c_string(&element)?,
        };
        let at = entered.last().map_or(dir, Fd::raw);
        if is_last {
            if let Some(answer) = last(at, &name)? {
                return Ok(answer);
            }
        } else if let Some(fd) = enter(at, &name)? {
            entered.push(fd);
            continue;
        }
        // `name` is a link: its target is resolved from here, in its place.
        links += 1;
        if links > MAX_LINKS {
            return Err(io::Error::from_raw_os_error(libc::ELOOP));
        }
        match readlinkat(at, &name) {
            Ok(target) if target.starts_with(b"/") => return Err(escape()),
            Ok(target) => left.extend(split(&target)),
            // No longer a link: replaced between the look and the read. Look again.
            Err(err) if err.raw_os_error() == Some(libc::EINVAL) => left.push(element),
            Err(err) => return Err(err),
        }
    }
}

/// The elements of a relative path, last first.
fn split(rel: &[u8]) -> Vec<Vec<u8>> {
    rel.split(|&b| b == b'/')
        .rev()
        .map(<[u8]>::to_vec)
        .collect()
}

/// Enters the directory `name` of the directory open at `at`, without following a link:
/// `None` when `name` is a link.
fn enter(at: c_int, name: &CStr) -> io::Result<Option<Fd>> {
    open_entry(at, name, os_dir::open_flags(Access::Pass))
}

/// How many times an open refused by a link that is gone by the time it is looked at is tried
/// again before its error stands.
const RETRIES: usize = 8;

/// Opens `name` of the directory open at `at` with `flags`, without following a link: `None`
/// when `name` is a link, to be read and followed.
fn open_entry(at: c_int, name: &CStr, flags: c_int) -> io::Result<Option<Fd>> {
    let mut tries = 0;
    loop {
        let err = match os_dir::openat(at, name, flags | libc::O_NOFOLLOW) {
            Ok(fd) => return Ok(Some(fd)),
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Err(err),
            Err(err) => err,
        };
        // O_NOFOLLOW refuses a link with ELOOP (ENOTDIR with O_DIRECTORY): whether the name is
        // a link tells one to follow from a true failure. A refusal that the entry no longer
        // explains was a link swapped for a file or a directory during the walk: open again.
        let what = os_dir::fstatat(at, name, libc::AT_SYMLINK_NOFOLLOW).map(|stat| stat.what);
        let swapped = matches!(
            (err.raw_os_error(), &what),
            (Some(libc::ELOOP), Ok(_)) | (Some(libc::ENOTDIR), Ok(What::Dir))
        );
        match what {
            Ok(What::Link) => return Ok(None),
            _ if swapped && tries < RETRIES => tries += 1,
            _ => return Err(err),
        }
    }
}

/// The target of the link `name` in the directory open at `at`.
fn readlinkat(at: c_int, name: &CStr) -> io::Result<Vec<u8>> {
    let mut buffer = vec![0u8; libc::PATH_MAX as usize];
    os_dir::count();
    // SAFETY: `name` is NUL-terminated; the buffer holds `buffer.len()` writable bytes.
    let got =
        unsafe { libc::readlinkat(at, name.as_ptr(), buffer.as_mut_ptr().cast(), buffer.len()) };
    if got < 0 {
        return Err(io::Error::last_os_error());
    }
    let got = got as usize;
    if got >= buffer.len() {
        return Err(io::Error::from_raw_os_error(libc::ENAMETOOLONG));
    }
    buffer.truncate(got);
    Ok(buffer)
}

/// `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`.
#[cfg(target_os = "linux")]
fn openat2(dir: c_int, rel: &CStr, flags: c_int) -> io::Result<Fd> {
    // SAFETY: `open_how` is plain data (non-exhaustive in libc, so zeroed and then filled).
    let mut how: libc::open_how = unsafe { std::mem::zeroed() };
    how.flags = flags as u64;
    how.resolve = libc::RESOLVE_BENEATH | libc::RESOLVE_NO_MAGICLINKS;
    loop {
        // SAFETY: `rel` is NUL-terminated and `how` is an `open_how` of the size passed; the
        // descriptor returned is owned by `Fd`.
        let ret = unsafe {
            libc::syscall(
                libc::SYS_openat2,
                dir,
                rel.as_ptr(),
                &how as *const libc::open_how,
                std::mem::size_of::<libc::open_how>(),
            )
        };
        match Fd::own(ret as c_int) {
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            answer => return answer,
        }
    }
}

/// Whether confined opens on this thread go through `openat2`: where the kernel has it, unless
/// a test forced the component walk.
#[cfg(target_os = "linux")]
fn openat2_available() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    const UNKNOWN: u8 = 0;
    const YES: u8 = 1;
    const NO: u8 = 2;
    static KERNEL: AtomicU8 = AtomicU8::new(UNKNOWN);

    #[cfg(feature = "test-hooks")]
    if hooks::WALK.with(std::cell::Cell::get) {
        return false;
    }
    match KERNEL.load(Ordering::Relaxed) {
        YES => true,
        NO => false,
        _ => {
            let yes = probe();
            KERNEL.store(if yes { YES } else { NO }, Ordering::Relaxed);
            yes
        }
    }
}

/// Asks the kernel for `openat2` once: opening `/` without resolve flags succeeds wherever it
/// has the call, and fails with `ENOSYS` (before Linux 5.6) or `EPERM` (a seccomp filter
/// written before it) where it does not.
#[cfg(target_os = "linux")]
fn probe() -> bool {
    // SAFETY: as in `openat2`.
    let mut how: libc::open_how = unsafe { std::mem::zeroed() };
    how.flags = (libc::O_PATH | libc::O_CLOEXEC) as u64;
    // SAFETY: as in `openat2`.
    let ret = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            libc::AT_FDCWD,
            c"/".as_ptr(),
            &how as *const libc::open_how,
            std::mem::size_of::<libc::open_how>(),
        )
    };
    Fd::own(ret as c_int).is_ok()
}

/// Test hooks, built only with the `test-hooks` feature.
#[cfg(feature = "test-hooks")]
pub(crate) mod hooks {
    use std::cell::Cell;

    thread_local! {
        // Const-initialized: no destructor is registered, so unloading the library stays safe.
        pub(crate) static WALK: Cell<bool> = const { Cell::new(false) };
    }
}

/// Makes confined opens and stats on the calling thread take the component walk even where the
/// kernel has `openat2` (`on` = true), or go back to `openat2` (false), so that a test runs every
/// case through both. Per thread, so tests running at once do not disturb each other. Built only
/// with the `test-hooks` feature.
#[cfg(feature = "test-hooks")]
pub fn confine_by_walking(on: bool) {
    hooks::WALK.with(|walk| walk.set(on));
}

/// Whether confined opens on the calling thread go through `openat2` now: false where the
/// kernel lacks it, off Linux, or after `confine_by_walking(true)`. Built only with the
/// `test-hooks` feature.
#[cfg(feature = "test-hooks")]
pub fn confines_with_openat2() -> bool {
    #[cfg(target_os = "linux")]
    return openat2_available();
    #[cfg(not(target_os = "linux"))]
    return false;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::{symlink, MetadataExt};

    /// What an answer says, comparable between the two ways: the inode reached, or the errno.
    fn outcome(answer: io::Result<Stat>) -> Result<u64, i32> {
        answer
            .map(|stat| stat.ino)
            .map_err(|err| err.raw_os_error().unwrap_or(-1))
    }

    #[test]
    fn the_walk_answers_as_openat2_does() {
        let base = tempfile::tempdir().unwrap();
        let root = base.path().join("root");
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::create_dir_all(base.path().join("outside")).unwrap();
        std::fs::write(base.path().join("outside/secret"), "secret").unwrap();
        let file = root.join("a/b/file");
        std::fs::write(&file, "inside").unwrap();
        let links: &[(&str, &str)] = &[
            ("in", "a/b/file"),
            ("a/up", "../a/b/file"),
            ("a/b/up2", "../../in"),
            ("out", "../outside/secret"),
            ("abs", "/etc/passwd"),
            ("abs_inside", file.to_str().unwrap()),
            ("dots", "a/../../root/a/b/file"),
            ("chain1", "chain2"),
            ("chain2", "a/chain3"),
            ("a/chain3", "../out"),
            ("dirlink", "a/b"),
            ("dirout", ".."),
            ("dangling", "nothing/here"),
            ("dangling_out", "/nothing/here"),
            ("loop", "loop"),
            ("slash", "a/b/"),
            ("dot", "."),
        ];
        for (name, target) in links {
            symlink(target, root.join(name)).unwrap();
        }
        let ino = |path: &std::path::Path| Ok(std::fs::metadata(path).unwrap().ino());
        let (f, b, r) = (ino(&file), ino(&root.join("a/b")), ino(&root));
        let exdev = Err(libc::EXDEV);
        let expected: &[(&str, Result<u64, i32>)] = &[
            (".", r),
            ("a/b/file", f),
            ("in", f),
            ("a/up", f),
            ("a/b/up2", f),
            ("dirlink", b),
            ("dirlink/file", f),
            // `..` after a link is taken from where the link led (a/b), not textually.
            ("dirlink/../up", f),
            ("dirlink/../in", Err(libc::ENOENT)),
            ("slash/file", f),
            ("dot/in", f),
            ("a/b/..", ino(&root.join("a"))),
            ("out", exdev),
            ("abs", exdev),
            ("abs_inside", exdev),
            ("dots", exdev),
            ("chain1", exdev),
            ("a/chain3", exdev),
            ("dirout", exdev),
            ("dirout/outside/secret", exdev),
            ("a/../..", exdev),
            ("dangling_out", exdev),
            ("dangling", Err(libc::ENOENT)),
            ("missing", Err(libc::ENOENT)),
            ("loop", Err(libc::ELOOP)),
            ("in/x", Err(libc::ENOTDIR)),
        ];
        let dir = os_dir::Dir::open_path(root.as_os_str().as_bytes(), Access::Read)
            .unwrap()
            .unwrap();
        for (rel, want) in expected {
            let walked = outcome(walk(dir.fd(), rel.as_bytes(), |at, name| {
                let stat = os_dir::fstatat(at, name, libc::AT_SYMLINK_NOFOLLOW)?;
                Ok((stat.what != What::Link).then_some(stat))
            }));
            assert_eq!(walked, *want, "walk {rel}");
            #[cfg(target_os = "linux")]
            if openat2_available() {
                let rel_c = c_string(rel.as_bytes()).unwrap();
                let kernel =
                    openat2(dir.fd(), &rel_c, libc::O_PATH).and_then(|fd| os_dir::fstat(fd.raw()));
                assert_eq!(outcome(kernel), *want, "openat2 {rel}");
            }
        }
    }
}
