//! Confinement as a file system: the OS file system opened beneath a root, every name resolved
//! by `openat2` with `RESOLVE_BENEATH`, so that the kernel refuses — atomically, with no window
//! for a link swapped in meanwhile — any resolution that would leave the root: a `..` above it,
//! or a symbolic link whose target is absolute (even one naming a place inside) or climbs out.
//! A link that leads out is an [`Entry::Escapes`] (an instruction file's name) or a
//! [`Lookup::Escapes`] (a directory of the walk), never followed.
//!
//! Linux only, 5.6 or later: where `openat2` is missing, opening a `ConfinedFs` fails with an
//! `Io` error rather than confining by a weaker means (SECURITY.md, "Confinement").

use std::io::Read;
use std::os::fd::OwnedFd;

use rustix::fs::{fstat, openat, openat2, Mode, OFlags, ResolveFlags, Stat, CWD};
use rustix::io::Errno;

use super::os::{list_fd, open_file, read_file, OsFile};
use super::os_lookup::{self, entry_of, leads_nowhere, leads_nowhere_at, At};
use super::{Dirs, Entry, FileSystem, Lookup};
use crate::error::Error;
use crate::path::{self, FsName};

/// The OS file system beneath `root`: names are below it, and nothing outside it is opened.
#[derive(Debug)]
pub struct ConfinedFs {
    root: Vec<u8>,
    fd: OwnedFd,
}

const BENEATH: ResolveFlags = ResolveFlags::BENEATH.union(ResolveFlags::NO_MAGICLINKS);

impl ConfinedFs {
    /// Opens the directory `root` (absolute and clean; resolved as given: the host chose it).
    pub fn open(root: &std::path::Path) -> Result<Self, Error> {
        let root = path::bytes(root).to_vec();
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = openat(CWD, root.as_slice(), flags, Mode::empty())
            .map_err(|errno| Error::io("open root", &root, errno.into()))?;
        let confined = Self { root, fd };
        match confined.resolve(b".", OFlags::PATH) {
            Err(errno) if errno == Errno::NOSYS || errno == Errno::PERM => Err(Error::io(
                "confine to",
                &confined.root,
                std::io::Error::other(
                    "openat2 is not available (confinement needs Linux 5.6 or later)",
                ),
            )),
            _ => Ok(confined),
        }
    }

    /// `openat2` beneath the root. The kernel answers `EAGAIN` when a rename anywhere on the
    /// system raced a `..` of the resolution (it cannot then vouch that the walk stayed
    /// beneath); the call is retried, as openat2(2) advises, a bounded number of times.
    fn resolve(&self, name: &[u8], flags: OFlags) -> Result<OwnedFd, Errno> {
        const TRIES: usize = 64;
        let mut tries = 1;
        loop {
            match openat2(
                &self.fd,
                name,
                flags | OFlags::CLOEXEC,
                Mode::empty(),
                BENEATH,
            ) {
                Err(Errno::AGAIN) if tries < TRIES => tries += 1,
                answer => return answer,
            }
        }
    }

    fn os_path_of(&self, name: &FsName) -> Vec<u8> {
        path::os_path(&self.root, name)
    }

    fn open_name(&self, name: &FsName, size: Option<u64>) -> Result<OsFile, Errno> {
        open_file(|flags| self.resolve(name.as_bytes(), flags), size)
    }
}

/// An `EXDEV` from a read or an open after the lookup found the name inside: a link swapped in
/// during the walk. An `Io` error; nothing was read.
fn escaped(op: &str, path: &[u8], errno: Errno) -> Error {
    if errno == Errno::XDEV {
        return Error::escaped(op, path);
    }
    Error::io(op, path, errno.into())
}

impl FileSystem for ConfinedFs {
    fn list(&self, dir: &FsName) -> Result<Option<Vec<Vec<u8>>>, Error> {
        let opened = self.resolve(dir.as_bytes(), OFlags::RDONLY | OFlags::DIRECTORY);
        match opened.and_then(list_fd) {
            Ok(names) => Ok(Some(names)),
            Err(errno) if leads_nowhere_at(self, dir.as_bytes(), errno) => Ok(None),
            Err(errno) => Err(escaped("list", &self.os_path_of(dir), errno)),
        }
    }

    fn stat(&self, name: &FsName) -> Result<Option<Entry>, Error> {
        match At::stat(self, name.as_bytes()) {
            Ok(stat) => Ok(Some(entry_of(&stat))),
            Err(errno) if errno == Errno::XDEV => Ok(Some(Entry::Escapes)),
            Err(errno) if leads_nowhere_at(self, name.as_bytes(), errno) => Ok(None),
            Err(errno) => Err(Error::io("stat", &self.os_path_of(name), errno.into())),
        }
    }

    fn open(&self, name: &FsName) -> Result<Option<Box<dyn Read + '_>>, Error> {
        match self.open_name(name, None) {
            Ok(file) => Ok(Some(Box::new(file))),
            Err(errno) if leads_nowhere(errno) => Ok(None),
            Err(errno) => Err(escaped("open", &self.os_path_of(name), errno)),
        }
    }

    fn read(&self, name: &FsName, size_hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        let path = self.os_path_of(name);
        match self.open_name(name, Some(size_hint)) {
            Err(errno) if errno == Errno::XDEV => Err(escaped("open", &path, errno)),
            opened => read_file(opened, &path, size_hint, limit),
        }
    }

    fn lookup(&self, dirs: &Dirs, names: &[Vec<u8>]) -> Result<Vec<Lookup>, Error> {
        let mut lookups = Vec::with_capacity(dirs.len());
        let mut path = Vec::new();
        for i in 0..dirs.len() {
            let lookup = os_lookup::names_in(self, &mut path, dirs.bytes(i), names)?;
            let escapes = lookup == Lookup::Escapes;
            lookups.push(lookup);
            // The directories below one that leads out are not looked at: fewer answers.
            if escapes {
                break;
            }
        }
        Ok(lookups)
    }
}

impl At for ConfinedFs {
    fn lstat(&self, name: &[u8]) -> Result<Stat, Errno> {
        fstat(self.resolve(name, OFlags::PATH | OFlags::NOFOLLOW)?)
    }

    fn stat(&self, name: &[u8]) -> Result<Stat, Errno> {
        fstat(self.resolve(name, OFlags::PATH)?)
    }

    fn list(&self, dir: &[u8]) -> Result<Vec<Vec<u8>>, Errno> {
        list_fd(self.resolve(dir, OFlags::RDONLY | OFlags::DIRECTORY)?)
    }

    fn os_path(&self, name: &[u8]) -> Vec<u8> {
        os_lookup::join(&self.root, name)
    }
}
