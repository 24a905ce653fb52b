//! Confinement as a file system: the OS file system opened beneath a root, every name resolved
//! by `openat2` with `RESOLVE_BENEATH`, so that the kernel refuses — atomically, with no window
//! for a link swapped in meanwhile — any resolution that would leave the root: a `..` above it,
//! or a symbolic link whose target is absolute (even one naming a place inside) or climbs out.
//! A link that leads out is an [`Entry::Escapes`] (an instruction file's name) or a
//! [`Lookup::Escapes`] (a directory of the walk), never followed.
//!
//! Where `openat2` is missing (Linux before 5.6, or refused by a seccomp filter), names are
//! resolved element by element instead ([`walk_beneath`]), with the same answers.

use std::ffi::CStr;
use std::io::Read;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::fs::{
    fstat, openat, openat2, readlinkat, FileType, Mode, OFlags, ResolveFlags, Stat, CWD,
};
use rustix::io::Errno;

use super::os::{list_fd, open_file, read_file, OsFile};
use super::os_lookup::{
    self, entry_of, leads_nowhere, leads_nowhere_at, At, CPath, Names, NulFree,
};
use super::{Dirs, Entry, FileSystem, Lookup, LookupsBelow};
use crate::error::Error;
use crate::path::{self, FsName};

/// The OS file system beneath `root`: names are below it, and nothing outside it is opened.
#[derive(Debug)]
pub struct ConfinedFs {
    root: Vec<u8>,
    fd: OwnedFd,
    /// Whether the kernel has `openat2`; without it, names are resolved by [`walk_beneath`].
    openat2: bool,
}

const BENEATH: ResolveFlags = ResolveFlags::BENEATH.union(ResolveFlags::NO_MAGICLINKS);

/// How often a resolution that a concurrent rename or swap raced is tried before its error
/// stands.
const TRIES: usize = 64;

impl ConfinedFs {
    /// Opens the directory `root` (absolute and clean; resolved as given: the host chose it).
    pub fn open(root: &std::path::Path) -> Result<Self, Error> {
        let root = path::bytes(root).to_vec();
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = openat(CWD, root.as_slice(), flags, Mode::empty())
            .map_err(|errno| Error::io("open root", &root, errno.into()))?;
        let mut confined = Self {
            root,
            fd,
            openat2: true,
        };
        if let Err(Errno::NOSYS | Errno::PERM) = confined.resolve(b".", OFlags::PATH) {
            confined.openat2 = false;
        }
        Ok(confined)
    }

    /// `name` opened beneath the root: by `openat2`, or [`walk_beneath`] without it. The kernel
    /// answers `EAGAIN` when a rename anywhere on the system raced a `..` of the resolution (it
    /// cannot then vouch that the walk stayed beneath); the call is retried, as openat2(2)
    /// advises.
    fn resolve(&self, name: &[u8], flags: OFlags) -> Result<OwnedFd, Errno> {
        if !self.openat2 {
            return walk_beneath(self.fd.as_fd(), name, flags | OFlags::CLOEXEC);
        }
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

    /// `stat(2)` of `name`, following links, beneath the root: `EXDEV` where the resolution
    /// would leave it. For a caller that tells "not found" from every other failure.
    pub(crate) fn stat_beneath(&self, name: &[u8]) -> Result<Stat, Errno> {
        self.resolve(name, OFlags::PATH).and_then(fstat)
    }

    fn os_path_of(&self, name: &FsName) -> Vec<u8> {
        path::os_path(&self.root, name)
    }

    fn open_name(&self, name: &FsName, size: Option<u64>) -> Result<OsFile, Errno> {
        open_file(|flags| self.resolve(name.as_bytes(), flags), size)
    }
}

/// `name` resolved beneath `root` without `openat2`, as `openat2` with `RESOLVE_BENEATH`
/// resolves it: one element at a time from the descriptor of the directory before it, so that
/// the kernel resolves no more than one element. Each element is opened `O_PATH | O_NOFOLLOW`
/// and told by `fstat` of that descriptor: a link's target is read from the same descriptor
/// (`readlinkat`), so a link swapped in meanwhile is read as what it is, and walked in its place;
/// `..` goes back to the directory held before it, never above `root`. An absolute target or a
/// `..` above `root` is `EXDEV`, more than 40 links (Linux's limit) `ELOOP`.
fn walk_beneath(root: BorrowedFd<'_>, name: &[u8], flags: OFlags) -> Result<OwnedFd, Errno> {
    const MAX_LINKS: usize = 40;
    let elements = |path: &[u8]| -> Vec<Vec<u8>> {
        path.split(|&b| b == b'/')
            .rev()
            .map(<[u8]>::to_vec)
            .collect()
    };
    // The directories walked into below `root`, the current one last; what is left to walk,
    // the next element last.
    let mut held: Vec<OwnedFd> = Vec::new();
    let mut left = elements(name);
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
        let last = left.is_empty();
        if last && flags.contains(OFlags::NOFOLLOW) {
            return openat(at, element.as_slice(), flags, Mode::empty());
        }
        let path = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = openat(at, element.as_slice(), path, Mode::empty())?;
        match FileType::from_raw_mode(fstat(&fd)?.st_mode) {
            FileType::Symlink => {
                links += 1;
                if links > MAX_LINKS {
                    return Err(Errno::LOOP);
                }
                let target = readlinkat(&fd, "", Vec::new())?.into_bytes();
                if target.starts_with(b"/") {
                    return Err(Errno::XDEV);
                }
                left.extend(elements(&target));
            }
            _ if last && flags.difference(OFlags::CLOEXEC) == OFlags::PATH => return Ok(fd),
            _ if last => match openat(
                at,
                element.as_slice(),
                flags | OFlags::NOFOLLOW,
                Mode::empty(),
            ) {
                // A link swapped in since the `fstat`: the element is walked again.
                Err(Errno::LOOP) if tries < TRIES => {
                    tries += 1;
                    left.push(element);
                }
                opened => return opened,
            },
            FileType::Directory => held.push(fd),
            _ => return Err(Errno::NOTDIR),
        }
    }
    openat(
        held.last().map_or(root, AsFd::as_fd),
        ".",
        flags,
        Mode::empty(),
    )
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
        match opened.and_then(|fd| list_fd(fd.as_fd())) {
            Ok(names) => Ok(Some(names)),
            Err(errno) if leads_nowhere_at(self, dir.as_bytes(), errno) => Ok(None),
            Err(errno) => Err(escaped("list", &self.os_path_of(dir), errno)),
        }
    }

    fn stat(&self, name: &FsName) -> Result<Option<Entry>, Error> {
        match self.resolve(name.as_bytes(), OFlags::PATH).and_then(fstat) {
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
            opened => {
                let mut buf = Vec::new();
                Ok(read_file(opened, &path, size_hint, limit, &mut buf)?.map(|_| buf))
            }
        }
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
        let mut lookups = Vec::with_capacity(dirs.len());
        let mut stats = Vec::new();
        let deepest = NulFree::deepest(dirs)?;
        let names = Names::new(names);
        let below = Names::new(below);
        let longest = names.longest().max(below.longest());
        let mut path = CPath::with_capacity(deepest.len() + longest + 2);
        for i in 0..dirs.len() {
            path.truncate(0);
            path.push_dir(deepest, dirs.bytes(i));
            let lookup = os_lookup::names_in(self, &mut path, 0, &names)?;
            if let Lookup::Names(_) = lookup {
                for index in 0..below.len() {
                    let entry = os_lookup::entry_below(self, &mut path, 0, below.get(index));
                    stats.push(entry);
                }
            }
            let escapes = lookup == Lookup::Escapes;
            lookups.push(lookup);
            // The directories below one that leads out are not looked at: fewer answers.
            if escapes {
                break;
            }
        }
        Ok((lookups, stats))
    }
}

impl At for ConfinedFs {
    fn lstat(&self, name: &CStr) -> Result<Stat, Errno> {
        fstat(self.resolve(name.to_bytes(), OFlags::PATH | OFlags::NOFOLLOW)?)
    }

    fn stat(&self, name: &CStr) -> Result<Stat, Errno> {
        fstat(self.resolve(name.to_bytes(), OFlags::PATH)?)
    }

    fn list(&self, dir: &[u8]) -> Result<Vec<Vec<u8>>, Errno> {
        list_fd(
            self.resolve(dir, OFlags::RDONLY | OFlags::DIRECTORY)?
                .as_fd(),
        )
    }

    fn os_path(&self, name: &[u8]) -> Vec<u8> {
        os_lookup::join(&self.root, name)
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;
    use std::sync::Arc;

    use super::*;
    use crate::{chain, Options};

    /// Hostile layouts, each below a root of its own beside `outside/` (which holds secrets):
    /// (link, target); `{base}` and `{root}` stand for those directories' paths.
    const LAYOUTS: &[&[(&str, &str)]] = &[
        &[("AGENTS.md", "/etc/passwd")],
        &[("a/AGENTS.md", "../../outside/AGENTS.md")],
        &[("a/AGENTS.md", "{base}/outside/AGENTS.md")],
        &[("up", "..")],
        &[("AGENTS.md", "l1"), ("l1", "a/l2"), ("a/l2", "../b/l3")],
        &[("b/l3", "../../outside/AGENTS.md"), ("c", "b")],
        &[("a/b/AGENTS.md", "../../a/b/../../../outside/AGENTS.md")],
        &[
            ("a/b/AGENTS.md", "../../shared/../rules.md"),
            ("a/b/alias", "../../real"),
        ],
        &[("a", "../outside"), ("in", "a/deeper")],
        &[("in", "a/b"), ("a/b", "../../outside")],
        &[
            ("AGENTS.md", "/nonexistent-agentsmd/AGENTS.md"),
            ("dangling", "nowhere"),
        ],
        &[
            ("a/AGENTS.md", "{root}/rules.md"),
            ("a/CLAUDE.md", "../rules.md/x"),
        ],
        &[
            ("loop", "loop"),
            ("a/AGENTS.md", "../loop"),
            ("a/CLAUDE.md", "../real/"),
        ],
    ];

    /// What `resolve` answered, comparable: the entry opened, or the errno.
    fn answer(resolved: Result<OwnedFd, Errno>) -> Result<(u64, u64, u32), Errno> {
        resolved.map(|fd| {
            let stat = fstat(fd).unwrap();
            (stat.st_dev, stat.st_ino, stat.st_mode)
        })
    }

    #[test]
    fn the_walk_without_openat2_answers_as_openat2_does() {
        let base = tempfile::tempdir().unwrap();
        let write = |path: std::path::PathBuf, text: &str| {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(base.path().join("outside/deeper/AGENTS.md"), "secret\n");
        write(base.path().join("outside/AGENTS.md"), "secret\n");
        // 41 links in a row: one more than Linux follows.
        let mut layouts: Vec<Vec<(String, String)>> = LAYOUTS
            .iter()
            .map(|links| links.iter().map(|&(l, t)| (l.into(), t.into())).collect())
            .collect();
        let mut row: Vec<_> = (0..41)
            .map(|i| (format!("n{i}"), format!("n{}", i + 1)))
            .collect();
        row.push(("n41".into(), "rules.md".into()));
        layouts.push(row);
        for (i, links) in layouts.iter().enumerate() {
            let root = base.path().join(format!("root{i}"));
            write(root.join("AGENTS.md"), "root rules\n");
            write(root.join("rules.md"), "inside rules\n");
            write(root.join("real/AGENTS.md"), "real rules\n");
            std::fs::create_dir_all(root.join("shared")).unwrap();
            for (link, target) in links {
                let target = target
                    .replace("{base}", base.path().to_str().unwrap())
                    .replace("{root}", root.to_str().unwrap());
                let link = root.join(link);
                std::fs::create_dir_all(link.parent().unwrap()).unwrap();
                let _ = std::fs::remove_file(&link); // a link in place of the root's file
                symlink(target, link).unwrap();
            }
            let by_openat2 = ConfinedFs::open(&root).unwrap();
            if !by_openat2.openat2 {
                eprintln!("this kernel has no openat2: nothing to compare the walk with");
                return;
            }
            let mut by_walk = ConfinedFs::open(&root).unwrap();
            by_walk.openat2 = false;

            let mut names = vec![".".to_string(), "..".into(), "a/../..".into()];
            for (link, _) in links {
                for below in ["", "/AGENTS.md", "/deeper/AGENTS.md", "/x", "/.."] {
                    names.push(format!("{link}{below}"));
                }
            }
            let flags = [
                OFlags::PATH | OFlags::NOFOLLOW,
                OFlags::PATH,
                OFlags::RDONLY | OFlags::DIRECTORY,
                OFlags::RDONLY | OFlags::NONBLOCK,
            ];
            for name in &names {
                for flags in flags {
                    assert_eq!(
                        answer(by_walk.resolve(name.as_bytes(), flags)),
                        answer(by_openat2.resolve(name.as_bytes(), flags)),
                        "root{i}: {name} {flags:?}"
                    );
                }
            }
            // And the walk's answers, chain by chain, from the directory of each link and
            // from below it.
            let (by_walk, by_openat2) = (Arc::new(by_walk), Arc::new(by_openat2));
            let names = ["AGENTS.md", "CLAUDE.md"];
            for (link, _) in links {
                let dir = link.rsplit_once('/').map_or(".", |(dir, _)| dir);
                for path in [format!("{dir}/x"), format!("{link}/x"), link.clone()] {
                    let path = path.trim_start_matches("./");
                    let of = |fs: &Arc<ConfinedFs>| {
                        chain(path, &Options::new().names(names).fs(fs.clone()))
                            .map_err(|e| e.to_string())
                    };
                    assert_eq!(of(&by_walk), of(&by_openat2), "root{i}: {path}");
                }
            }
        }
    }
}
