//! Confinement as a file system: the OS file system opened beneath a root, every name resolved
//! by `openat2` with `RESOLVE_BENEATH`, so that the kernel refuses — atomically, with no window
//! for a link swapped in meanwhile — any resolution that would leave the root: a `..` above it,
//! or a symbolic link whose target is absolute (even one naming a place inside) or climbs out.
//! A link that leads out is an [`Entry::Escapes`] (an instruction file's name, or a directory of
//! the walk), never followed.
//!
//! Where `openat2` is missing (Linux before 5.6, or refused by a seccomp filter), names are
//! resolved element by element instead ([`walk_beneath`]), with the same answers.

use std::ffi::OsString;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use rustix::fs::{fstat, openat, readlinkat, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;

use super::lookup::{entry_of, nowhere_or, At};
use super::os::{open_file, OsFile};
use super::{linux, Entry, FileSystem};
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

impl ConfinedFs {
    /// Opens the directory `root` (absolute and clean; resolved as given: the host chose it).
    pub fn open(root: &Path) -> Result<Self, Error> {
        let root = path::bytes(root).to_vec();
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = openat(rustix::fs::CWD, root.as_slice(), flags, Mode::empty())
            .map_err(|errno| Error::io("open root", &root, errno.into()))?;
        let openat2 = !matches!(
            linux::open_beneath(fd.as_fd(), b".", OFlags::PATH),
            Err(Errno::NOSYS | Errno::PERM)
        );
        Ok(Self { root, fd, openat2 })
    }

    /// The OS path names are below.
    pub(crate) fn root(&self) -> &[u8] {
        &self.root
    }

    /// `name` opened beneath the root: by `openat2`, or [`walk_beneath`] without it.
    fn resolve(&self, name: &[u8], flags: OFlags) -> Result<OwnedFd, Errno> {
        match self.openat2 {
            true => linux::open_beneath(self.fd.as_fd(), name, flags),
            false => walk_beneath(self.fd.as_fd(), name, flags | OFlags::CLOEXEC),
        }
    }

    /// `stat(2)` of `name`, following links, beneath the root: `EXDEV` where the resolution
    /// would leave it. For a caller that tells "not found" from every other failure.
    pub(crate) fn stat_beneath(&self, name: &[u8]) -> Result<Stat, Errno> {
        self.resolve(name, OFlags::PATH).and_then(fstat)
    }

    /// The file `name`, opened to read; `size` is what its stat reported.
    pub(crate) fn open_name(&self, name: &FsName, size: Option<u64>) -> io::Result<OsFile> {
        open_file(|flags| self.resolve(name.as_bytes(), flags), size)
    }
}

/// `name` resolved beneath `root` without `openat2`, as `openat2` with `RESOLVE_BENEATH`
/// resolves it: one element at a time from the descriptor of the directory before it, so that
/// the kernel resolves no more than one element. Each element is located (`O_PATH |
/// O_NOFOLLOW`) and told by `fstat` of that descriptor: a link's target is read from the same
/// descriptor (`readlinkat`), so a link swapped in meanwhile is read as what it is, and walked
/// in its place; `..` goes back to the directory held before it, never above `root`. An
/// absolute target or a `..` above `root` is `EXDEV`, more than 40 links (Linux's limit)
/// `ELOOP`.
fn walk_beneath(root: BorrowedFd<'_>, name: &[u8], flags: OFlags) -> Result<OwnedFd, Errno> {
    const MAX_LINKS: usize = 40;
    const TRIES: usize = 64;
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
        let fd = linux::locate(at, &element, false)?;
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
            _ if last => {
                match openat(
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
                }
            }
            FileType::Directory => held.push(fd),
            _ => return Err(Errno::NOTDIR),
        }
    }
    let at = held.last().map_or(root, AsFd::as_fd);
    openat(at, ".", flags, Mode::empty())
}

impl FileSystem for ConfinedFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        At::list(self, dir.as_bytes()).map_err(|errno| nowhere_or(self, dir.as_bytes(), errno))
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        match self.stat_beneath(name.as_bytes()) {
            Ok(stat) => Ok(entry_of(&stat)),
            Err(Errno::XDEV) => Ok(Entry::Escapes),
            Err(errno) => Err(nowhere_or(self, name.as_bytes(), errno)),
        }
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(self.open_name(name, None)?))
    }
}

impl At for ConfinedFs {
    fn lstat(&self, path: &[u8]) -> Result<Stat, Errno> {
        fstat(self.resolve(path, OFlags::PATH | OFlags::NOFOLLOW)?)
    }

    fn stat(&self, path: &[u8]) -> Result<Stat, Errno> {
        self.stat_beneath(path)
    }

    fn list(&self, dir: &[u8]) -> Result<Vec<OsString>, Errno> {
        linux::list_fd(
            self.resolve(dir, OFlags::RDONLY | OFlags::DIRECTORY)?
                .as_fd(),
        )
    }

    fn os_path(&self, path: &[u8]) -> Vec<u8> {
        path::join(&self.root, path)
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
        let mut compared = 0;
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
            // Not a pass with nothing compared: where openat2 is missing, this test fails.
            assert!(
                by_openat2.openat2,
                "no openat2 here (an old kernel, or a filter): nothing to compare the walk with"
            );
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
                    compared += 1;
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
                    compared += 1;
                }
            }
        }
        assert!(compared > 1_000, "only {compared} answers compared");
    }
}
