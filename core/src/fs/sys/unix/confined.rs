//! Confinement as a file system (docs/security.md, "Confinement"): a name that would resolve
//! outside the root, by `..` or a link that is absolute or climbs out, is refused (`EXDEV`),
//! atomically by `openat2` where Linux has it, by [`walk_beneath`] elsewhere.

use std::ffi::OsString;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use rustix::fs::{readlinkat, statat, AtFlags, FileType, OFlags, Stat, CWD};
use rustix::io::Errno;

use super::lookup::{self, At, Folding};
use super::{open_file, Backend};
use crate::error::Error;
use crate::fs::{Kind, Lookup};
use crate::path::{self, FsName};

/// The OS file system beneath `root`: names are below it, and nothing outside it is opened.
#[derive(Debug)]
pub struct ConfinedFs {
    root: Vec<u8>,
    fd: OwnedFd,
    /// Whether the kernel resolves names beneath the root (`openat2`).
    #[cfg(target_os = "linux")]
    openat2: bool,
    folding: Folding,
}

impl ConfinedFs {
    /// Opens the directory `root` (absolute and clean; resolved as given: the host chose it).
    pub fn open(root: &Path) -> Result<Self, Error> {
        let root = path::bytes(root).to_vec();
        let fd = super::open_dir(CWD, &root, true)
            .map_err(|errno| Error::io("open root", &root, errno.into()))?;
        Ok(Self {
            #[cfg(target_os = "linux")]
            openat2: super::linux::selected() && super::linux::has_openat2(fd.as_fd()),
            root,
            fd,
            folding: Folding::default(),
        })
    }

    /// `stat(2)` of `name` beneath the root (`EXDEV` where it would leave it), following a final
    /// link only with `follow`.
    fn stat_beneath(&self, name: &[u8], follow: bool) -> Result<Stat, Errno> {
        #[cfg(target_os = "linux")]
        if self.openat2 {
            let mut flags = OFlags::PATH;
            flags.set(OFlags::NOFOLLOW, !follow);
            return rustix::fs::fstat(self.open_beneath(name, flags)?);
        }
        walk_beneath(self.fd.as_fd(), name, follow, |at, last| {
            let stat = statat(at, last, AtFlags::SYMLINK_NOFOLLOW)?;
            match follow && FileType::from_raw_mode(stat.st_mode) == FileType::Symlink {
                true => Err(Errno::LOOP),
                false => Ok(stat),
            }
        })
    }

    /// `name` opened beneath the root with `flags` (`EXDEV` where it would leave it).
    fn open_beneath(&self, name: &[u8], flags: OFlags) -> Result<OwnedFd, Errno> {
        let flags = flags | OFlags::CLOEXEC;
        #[cfg(target_os = "linux")]
        if self.openat2 {
            return super::linux::open_beneath(self.fd.as_fd(), name, flags);
        }
        let follow = !flags.contains(OFlags::NOFOLLOW);
        walk_beneath(self.fd.as_fd(), name, follow, |at, last| {
            super::open(at, last, flags | OFlags::NOFOLLOW)
        })
    }
}

/// `name` resolved beneath `root` as `openat2`'s `RESOLVE_BENEATH` does, one element at a time
/// so that the kernel follows no link, its last answered by `last(directory, element)` (`.`
/// for a directory), which follows none: with `follow`, its `ELOOP` or `ENOTDIR` is taken for
/// a link, followed. An element swapped between two calls is walked again (up to 64 times).
fn walk_beneath<T>(
    root: BorrowedFd<'_>,
    name: &[u8],
    follow: bool,
    last: impl Fn(BorrowedFd<'_>, &[u8]) -> Result<T, Errno>,
) -> Result<T, Errno> {
    const MAX_LINKS: usize = 40;
    const TRIES: usize = 64;
    // The directories walked into, the current one last; what is left, the next element last.
    let mut held: Vec<OwnedFd> = Vec::new();
    let mut left: Vec<Vec<u8>> = name.rsplit(|&b| b == b'/').map(<[u8]>::to_vec).collect();
    let (mut links, mut tries) = (0, 0);
    while let Some(element) = left.pop() {
        let at = held.last().map_or(root, AsFd::as_fd);
        match element.as_slice() {
            b"" | b"." => continue,
            b".." => {
                held.pop().ok_or(Errno::XDEV)?;
                continue;
            }
            _ => {}
        }
        let errno = match left.is_empty() {
            true => match last(at, &element) {
                Err(errno @ (Errno::LOOP | Errno::NOTDIR)) if follow => errno,
                answer => return answer,
            },
            false => match super::open_dir(at, &element, false) {
                Ok(dir) => {
                    held.push(dir);
                    continue;
                }
                Err(errno @ (Errno::LOOP | Errno::NOTDIR)) => errno,
                Err(errno) => return Err(errno),
            },
        };
        // `ENOTDIR` from an open that would not follow a link: a link, or no directory.
        let kind = match errno {
            Errno::NOTDIR => {
                let stat = statat(at, element.as_slice(), AtFlags::SYMLINK_NOFOLLOW)?;
                FileType::from_raw_mode(stat.st_mode)
            }
            _ => FileType::Symlink,
        };
        let target = match kind {
            FileType::Symlink => readlinkat(at, element.as_slice(), Vec::new()),
            FileType::Directory => Err(Errno::INVAL),
            _ => return Err(errno),
        };
        match target {
            Ok(target) => {
                links += 1;
                if links > MAX_LINKS {
                    return Err(Errno::LOOP);
                }
                let target = target.into_bytes();
                if target.starts_with(b"/") {
                    return Err(Errno::XDEV);
                }
                left.extend(target.rsplit(|&b| b == b'/').map(<[u8]>::to_vec));
            }
            // No link (or a directory) now: swapped since, walked again.
            Err(Errno::INVAL) if tries < TRIES => {
                tries += 1;
                left.push(element);
            }
            Err(Errno::INVAL) => return Err(errno),
            Err(failed) => return Err(failed),
        }
    }
    last(held.last().map_or(root, AsFd::as_fd), b".")
}

impl Backend for ConfinedFs {
    fn base(&self) -> Option<&[u8]> {
        Some(&self.root)
    }

    fn confined(&self) -> bool {
        true
    }

    fn stat(&self, name: &FsName) -> io::Result<Kind> {
        lookup::stat(self, name.as_bytes())
    }

    fn stat_exactly(&self, name: &FsName) -> io::Result<Kind> {
        Ok(lookup::kind(self, name.as_bytes())?)
    }

    fn entry(&self, name: &FsName) -> Result<Option<Kind>, Error> {
        lookup::entry(self, name.as_bytes())
    }

    fn is_link(&self, name: &FsName) -> Result<bool, Error> {
        lookup::is_link(self, name.as_bytes())
    }

    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        lookup::list(self, dir.as_bytes())
    }

    fn lookup(&self, dir: &FsName, names: &[Vec<u8>]) -> Option<Result<Lookup, Error>> {
        Some(lookup::names_in(self, dir.as_bytes(), names, &self.folding))
    }

    fn open(&self, name: &FsName, size: Option<u64>) -> io::Result<Box<dyn Read + '_>> {
        let file = open_file(|flags| self.open_beneath(name.as_bytes(), flags), size)?;
        Ok(Box::new(file))
    }
}

impl At for ConfinedFs {
    fn lstat(&self, path: &[u8]) -> Result<Stat, Errno> {
        self.stat_beneath(path, false)
    }

    fn stat(&self, path: &[u8]) -> Result<Stat, Errno> {
        self.stat_beneath(path, true)
    }

    fn list(&self, dir: &[u8]) -> Result<Vec<OsString>, Errno> {
        super::list(|flags| self.open_beneath(dir, flags))
    }

    fn os_path(&self, path: &[u8]) -> Vec<u8> {
        path::join(&self.root, path)
    }
}

// The walk is compared with `openat2`, which only Linux has.
#[cfg(all(test, target_os = "linux"))]
#[path = "../../../../tests/unit/fs_confined.rs"]
mod tests;
