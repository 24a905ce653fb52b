//! Confinement as a file system: the OS file system opened beneath a root, so that no name
//! resolves outside it: a `..` above it, or a symbolic link whose target is absolute (even one
//! naming a place inside) or climbs out, is refused (`EXDEV`). A link that leads out is an
//! [`Entry::Escapes`] (an instruction file's name, or a directory of the walk), never followed.
//!
//! Two ways, with the same answers (SECURITY.md, "Confinement"):
//! - where the kernel has `openat2` (Linux 5.6 and later), every name is resolved by it with
//!   `RESOLVE_BENEATH`, which refuses a way out atomically, with no window for a link swapped
//!   in meanwhile;
//! - everywhere else (macOS, the BSDs, a Linux without `openat2` or with a seccomp filter that
//!   refuses it), names are resolved element by element ([`walk_beneath`]), the kernel never
//!   resolving more than one element and never following a link.

use std::ffi::OsString;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use rustix::fs::{readlinkat, statat, AtFlags, FileType, OFlags, Stat, CWD};
use rustix::io::Errno;

use super::lookup::{entry_of, nowhere_or, At, Folding};
use super::os::{open_file, OsFile};
use super::{sys, Entry, FileSystem};
use crate::error::Error;
use crate::path::{self, FsName};

/// The OS file system beneath `root`: names are below it, and nothing outside it is opened.
#[derive(Debug)]
pub struct ConfinedFs {
    root: Vec<u8>,
    fd: OwnedFd,
    /// Whether the kernel resolves names beneath the root (`openat2`); without it, they are
    /// walked element by element ([`walk_beneath`]).
    openat2: bool,
    /// Whether the chain has met a directory that folds names (`lookup.rs`).
    pub(super) folding: Folding,
}

impl ConfinedFs {
    /// Opens the directory `root` (absolute and clean; resolved as given: the host chose it).
    pub fn open(root: &Path) -> Result<Self, Error> {
        let root = path::bytes(root).to_vec();
        let fd = sys::open_dir(CWD, &root, true)
            .map_err(|errno| Error::io("open root", &root, errno.into()))?;
        let openat2 = sys::has_openat2(fd.as_fd());
        Ok(Self {
            root,
            fd,
            openat2,
            folding: Folding::default(),
        })
    }

    /// The OS path names are below.
    pub(crate) fn root(&self) -> &[u8] {
        &self.root
    }

    /// `stat(2)` of `name` beneath the root, following a final link only with `follow`:
    /// `EXDEV` where the resolution would leave the root. For a caller that tells "not found"
    /// from every other failure.
    pub(crate) fn stat_beneath(&self, name: &[u8], follow: bool) -> Result<Stat, Errno> {
        if self.openat2 {
            return sys::stat_beneath(self.fd.as_fd(), name, follow);
        }
        walk_beneath(self.fd.as_fd(), name, |at, last| {
            let stat = statat(at, last, AtFlags::SYMLINK_NOFOLLOW)?;
            match follow && FileType::from_raw_mode(stat.st_mode) == FileType::Symlink {
                true => Ok(Last::Link(Errno::LOOP)),
                false => Ok(Last::Found(stat)),
            }
        })
    }

    /// `name` opened beneath the root with `flags` (a final link followed unless they hold
    /// `O_NOFOLLOW`): `EXDEV` where the resolution would leave the root.
    fn open_beneath(&self, name: &[u8], flags: OFlags) -> Result<OwnedFd, Errno> {
        let flags = flags | OFlags::CLOEXEC;
        if self.openat2 {
            return sys::open_beneath(self.fd.as_fd(), name, flags);
        }
        let follow = !flags.contains(OFlags::NOFOLLOW);
        walk_beneath(self.fd.as_fd(), name, |at, last| {
            match sys::open(at, last, flags | OFlags::NOFOLLOW) {
                // A link, or (`O_DIRECTORY`) what may be one.
                Err(errno @ (Errno::LOOP | Errno::NOTDIR)) if follow => Ok(Last::Link(errno)),
                opened => opened.map(Last::Found),
            }
        })
    }

    /// The file `name`, opened to read; `size` is what its stat reported.
    pub(crate) fn open_name(&self, name: &FsName, size: Option<u64>) -> io::Result<OsFile> {
        open_file(|flags| self.open_beneath(name.as_bytes(), flags), size)
    }
}

/// What the last element of a walk is, told by the question asked of it.
enum Last<T> {
    /// The answer.
    Found(T),
    /// A symbolic link to follow, or what may be one: the question, which does not follow a
    /// link, failed with this errno.
    Link(Errno),
}

/// `name` resolved beneath `root` without `openat2`, as `openat2` with `RESOLVE_BENEATH`
/// resolves it, its last element answered by `last(directory, element)` (never following a
/// link; `.` where the name ends at a directory).
///
/// One element at a time, from the descriptor of the directory before it, so that the kernel
/// resolves no more than one element and follows no link: each element on the way is opened as
/// a directory with `O_NOFOLLOW` (`sys::open_dir`); one that does not open so is a link, whose
/// target is read from the same directory (`readlinkat`) and walked in its place, or no
/// directory (`ENOTDIR`; where the open cannot tell the two apart, `fstatat` without following
/// does). A link swapped in meanwhile is thus read as what it is, and an element swapped between
/// two of these calls is walked again (up to 64 times). `..` goes back to the directory held
/// before it, never above `root`. An absolute target or a `..` above `root` is `EXDEV`, more
/// than 40 links (Linux's limit) `ELOOP`. A final link is followed where `last` answers
/// [`Last::Link`].
fn walk_beneath<T>(
    root: BorrowedFd<'_>,
    name: &[u8],
    last: impl Fn(BorrowedFd<'_>, &[u8]) -> Result<Last<T>, Errno>,
) -> Result<T, Errno> {
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
        let asked = match left.is_empty() {
            true => last(at, &element)?,
            false => match sys::open_dir(at, &element, false) {
                Ok(dir) => {
                    held.push(dir);
                    continue;
                }
                Err(errno @ (Errno::LOOP | Errno::NOTDIR)) => Last::Link(errno),
                Err(errno) => return Err(errno),
            },
        };
        let errno = match asked {
            Last::Found(found) => return Ok(found),
            Last::Link(errno) => errno,
        };
        // `ENOTDIR` from an open that would not follow a link: a link, or no directory.
        if errno == Errno::NOTDIR {
            let stat = statat(at, element.as_slice(), AtFlags::SYMLINK_NOFOLLOW)?;
            match FileType::from_raw_mode(stat.st_mode) {
                FileType::Symlink => {}
                // A directory now: swapped since the open, walked again.
                FileType::Directory if tries < TRIES => {
                    tries += 1;
                    left.push(element);
                    continue;
                }
                _ => return Err(errno),
            }
        }
        match readlinkat(at, element.as_slice(), Vec::new()) {
            Ok(target) => {
                links += 1;
                if links > MAX_LINKS {
                    return Err(Errno::LOOP);
                }
                let target = target.into_bytes();
                if target.starts_with(b"/") {
                    return Err(Errno::XDEV);
                }
                left.extend(elements(&target));
            }
            // A link no more: swapped since, walked again.
            Err(Errno::INVAL) if tries < TRIES => {
                tries += 1;
                left.push(element);
            }
            Err(Errno::INVAL) => return Err(errno),
            Err(failed) => return Err(failed),
        }
    }
    let at = held.last().map_or(root, AsFd::as_fd);
    match last(at, b".")? {
        Last::Found(found) => Ok(found),
        Last::Link(errno) => Err(errno),
    }
}

impl FileSystem for ConfinedFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        At::list(self, dir.as_bytes()).map_err(|errno| nowhere_or(self, dir.as_bytes(), errno))
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        match self.stat_beneath(name.as_bytes(), true) {
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
        self.stat_beneath(path, false)
    }

    fn stat(&self, path: &[u8]) -> Result<Stat, Errno> {
        self.stat_beneath(path, true)
    }

    fn list(&self, dir: &[u8]) -> Result<Vec<OsString>, Errno> {
        sys::list_fd(self.open_beneath(dir, sys::LIST_FLAGS)?)
    }

    fn os_path(&self, path: &[u8]) -> Vec<u8> {
        path::join(&self.root, path)
    }
}

// The walk is compared with `openat2`, which only Linux has.
#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::os::unix::fs::symlink;
    use std::sync::Arc;

    use rustix::fs::fstat;

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

    /// What a question answered, comparable: the entry, or the errno.
    type Answer = Result<(u64, u64, u32), Errno>;

    /// What every question a chain asks of `name` answers: its stat without and with following a
    /// final link, and its opens as a directory to list, as a file to read through a link, and as
    /// one not to.
    fn answers(fs: &ConfinedFs, name: &str) -> [Answer; 5] {
        let name = name.as_bytes();
        let answer = |stat: Result<Stat, Errno>| stat.map(|s| (s.st_dev, s.st_ino, s.st_mode));
        let opened = |flags| answer(fs.open_beneath(name, flags).and_then(fstat));
        [
            answer(fs.stat_beneath(name, false)),
            answer(fs.stat_beneath(name, true)),
            opened(OFlags::RDONLY | OFlags::DIRECTORY),
            opened(OFlags::RDONLY | OFlags::NONBLOCK),
            opened(OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW),
        ]
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
            // openat2 even where the tests selected the portable path, whose walk is compared.
            let mut by_openat2 = ConfinedFs::open(&root).unwrap();
            // Not a pass with nothing compared: where openat2 is missing, this test fails.
            assert!(
                super::super::linux::has_openat2(by_openat2.fd.as_fd()),
                "no openat2 here (an old kernel, or a filter): nothing to compare the walk with"
            );
            by_openat2.openat2 = true;
            let mut by_walk = ConfinedFs::open(&root).unwrap();
            by_walk.openat2 = false;

            let mut names = vec![".".to_string(), "..".into(), "a/../..".into()];
            for (link, _) in links {
                for below in [
                    "",
                    "/",
                    "/.",
                    "/AGENTS.md",
                    "/deeper/AGENTS.md",
                    "/x",
                    "/..",
                ] {
                    names.push(format!("{link}{below}"));
                }
            }
            for name in &names {
                compared += 5;
                assert_eq!(
                    answers(&by_walk, name),
                    answers(&by_openat2, name),
                    "root{i}: {name} (stat, stat following, open to list, to read, to read \
                     without following)"
                );
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

    #[test]
    fn the_walk_of_the_portable_path_answers_as_openat2_does() {
        // The test above, again with the portable path's calls selected (`sys.rs`): its walk
        // opens each directory to search (`O_RDONLY` on Linux, `O_SEARCH` on macOS and
        // FreeBSD) rather than to locate (`O_PATH`).
        let run = std::process::Command::new(std::env::current_exe().unwrap())
            .env("AGENTSMD_TEST_PORTABLE", "1")
            .args([
                "--exact",
                "fs::confined::tests::the_walk_without_openat2_answers_as_openat2_does",
            ])
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&run.stdout);
        assert!(run.status.success() && out.contains("1 passed"), "{out}");
    }
}
