//! The directories a walker has looked into, from `/` down: whether each exists, what its
//! instruction-file names are, which of its entries are known to be no directory, and how each
//! of these answers is kept true (a watch, or a stat per call).

use std::collections::HashSet;
use std::ffi::CString;

use super::contents::{now_ns, Known};
use super::map::{at_or_below, Map};
use crate::chain::start_directory;
use crate::error::Error;
use crate::fs::os_dir::{self, c_string, Access, Dir, Stat, What};
use crate::fs::os_fstype;
use crate::fs::os_watch::{Event, Interest, Watcher};
use crate::fs::{base, c_names, names_in, Found, Named};
use crate::path;

/// How a directory's cached answer is kept true.
#[derive(Clone, Copy, Debug)]
enum Check {
    /// An inotify watch reports every change to its entries.
    Watch { wd: i32, interest: Interest },
    /// A stat of its path on every call must equal this one, taken before it was looked into;
    /// `settled` when its times were old enough to show any later change.
    Stat { stat: Stat, settled: bool },
}

/// A directory that exists.
struct Present {
    check: Check,
    /// The type of its file system.
    magic: Option<u64>,
    /// Its entries named like instruction files (regular files and links), once looked up:
    /// only for a directory at or below a root, and `None` again after one of them changed.
    names: Option<Vec<Named>>,
    /// Entries known to be neither a directory nor a link (a file, a FIFO, nothing at all): a
    /// path there starts its walk in this directory.
    plain: HashSet<Vec<u8>>,
}

/// A cached directory path.
struct Node {
    /// `Some` when the last element of the path was a symbolic link: the (device, inode) it led
    /// to, or `None` when it dangled. A watch cannot see a link's target change, so this is
    /// re-stat'ed on every call.
    link: Option<Option<(u64, u64)>>,
    /// `None`: the directory does not exist.
    dir: Option<Present>,
    /// The call that last found this node true.
    validated: u64,
}

/// The directory cache of a walker.
pub(super) struct Dirs {
    watcher: Option<Watcher>,
    /// The names looked for, as the walker's options give them, and as the OS takes them.
    names: Vec<Vec<u8>>,
    c_names: Vec<CString>,
    nodes: Map<Vec<u8>, Node>,
    /// The paths each watch stands for: one directory may be reached by several paths.
    watches: Map<i32, Vec<Vec<u8>>>,
    /// The current call.
    generation: u64,
    /// Stats of files taken during the current call, for the reads to reuse.
    fresh: Map<Vec<u8>, Stat>,
    /// Directories dropped, and instruction files whose names changed: the contents read
    /// there may be forgotten.
    dropped: Vec<Vec<u8>>,
    /// Moves each time the cache forgets anything: what was found while it stood still is
    /// found again, without a system call, by a call that needs no check on every call.
    pub(super) stamp: u64,
    /// How many reported changes made the cache forget something.
    pub(super) reported: u64,
}

impl Dirs {
    /// A cache for `names`, which must each be one path element (the walk checks them before
    /// it asks anything of the cache).
    pub(super) fn new(watcher: Option<Watcher>, names: Vec<Vec<u8>>) -> Self {
        // A name that is no C string is refused by the walk before the cache is asked.
        let c_names = c_names(&names).unwrap_or_default();
        Self {
            watcher,
            names,
            c_names,
            nodes: Map::default(),
            watches: Map::default(),
            generation: 0,
            fresh: Map::default(),
            dropped: Vec::new(),
            stamp: 0,
            reported: 0,
        }
    }

    /// Forgets every directory.
    pub(super) fn clear(&mut self) {
        self.drop_below(b"/");
        self.fresh.clear();
    }

    /// Starts a call: applies every change reported since the last one.
    pub(super) fn begin(&mut self) {
        self.generation += 1;
        self.fresh.clear();
        let events = self
            .watcher
            .as_ref()
            .map(Watcher::events)
            .unwrap_or_default();
        for event in events {
            match event {
                Event::Everything => {
                    self.reported += 1;
                    self.drop_below(b"/");
                }
                Event::Changed { wd, name } => {
                    for dir in self.watches.get(&wd).cloned().unwrap_or_default() {
                        self.changed(&dir, &name);
                    }
                }
            }
        }
    }

    /// The directories dropped since the last time this was asked.
    pub(super) fn take_dropped(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.dropped)
    }

    /// What this call knows of the instruction file at `path`, which it found: a stat taken
    /// during the call, and the file a watch vouches its name for.
    pub(super) fn known(&self, path: &[u8]) -> Known {
        Known {
            stat: self.fresh.get(path).copied(),
            named: self.named(path),
        }
    }

    /// The (device, inode) of the file that the instruction-file name `path` stands for, when
    /// the watch on its directory vouches that it still does: the entry was looked up under
    /// the watch, is no link, and no event about its name has come since.
    fn named(&self, path: &[u8]) -> Option<(u64, u64)> {
        let present = self.nodes.get(path::parent(path)?)?.dir.as_ref()?;
        if !matches!(present.check, Check::Watch { .. }) {
            return None;
        }
        let name = base(path);
        let entry = present
            .names
            .as_ref()?
            .iter()
            .find(|entry| self.names[entry.index] == name)?;
        let stat = entry.looked.stat.filter(|_| !entry.looked.link)?;
        Some((stat.dev, stat.ino))
    }

    /// The cache forgot something.
    fn forgot(&mut self) {
        self.stamp += 1;
    }

    /// The entry `name` of the watched directory `dir` changed (`name` empty: `dir` itself).
    fn changed(&mut self, dir: &[u8], name: &[u8]) {
        if name.is_empty() {
            self.reported += 1;
            return self.drop_below(dir);
        }
        let child = path::join(dir, name);
        let mut forgot = false;
        if self.nodes.contains_key(&child) {
            self.drop_below(&child);
            forgot = true;
        }
        let is_name = self.names.iter().any(|n| n == name);
        if is_name {
            // What was read under that name may no longer be what it names.
            self.dropped.push(child);
        }
        if let Some(present) = self.nodes.get_mut(dir).and_then(|n| n.dir.as_mut()) {
            forgot |= present.plain.remove(name);
            if is_name && present.names.is_some() {
                present.names = None;
                forgot = true;
            }
        }
        if forgot {
            self.reported += 1;
            self.forgot();
        }
    }

    /// Forgets `dir` and every directory below it, with their watches.
    fn drop_below(&mut self, dir: &[u8]) {
        let gone: Vec<Vec<u8>> = self
            .nodes
            .keys()
            .filter(|path| at_or_below(path, dir))
            .cloned()
            .collect();
        self.forgot();
        for path in gone {
            let Some(node) = self.nodes.remove(&path) else {
                continue;
            };
            if let Some(Present {
                check: Check::Watch { wd, .. },
                ..
            }) = node.dir
            {
                self.detach(wd, &path);
            }
        }
        self.dropped.push(dir.to_vec());
    }

    /// `path` no longer needs the watch `wd`; it is removed once no path does.
    fn detach(&mut self, wd: i32, path: &[u8]) {
        let Some(paths) = self.watches.get_mut(&wd) else {
            return;
        };
        paths.retain(|p| p != path);
        if paths.is_empty() {
            self.watches.remove(&wd);
            if let Some(watcher) = &self.watcher {
                watcher.unwatch(wd);
            }
        }
    }

    /// Whether the cached node at `path` is still true, checked once per call; one that is not
    /// is dropped with everything below it. Its parent must have been found true first.
    fn valid(&mut self, path: &[u8]) -> bool {
        let generation = self.generation;
        let Some(node) = self.nodes.get(path) else {
            return false;
        };
        if node.validated == generation {
            return true;
        }
        let mut seen = None;
        let mut ok = true;
        if let Some(led_to) = node.link {
            let stat = os_dir::stat_path(path, true);
            ok = matches!(&stat, Ok(stat) if stat.map(|s| (s.dev, s.ino)) == led_to);
            seen = Some(stat);
        }
        if let (
            true,
            Some(Present {
                check: Check::Stat { stat, settled },
                ..
            }),
        ) = (ok, &node.dir)
        {
            let now = seen.unwrap_or_else(|| os_dir::stat_path(path, true));
            ok = *settled && matches!(now, Ok(Some(now)) if now == *stat);
        }
        if !ok {
            self.drop_below(path);
            return false;
        }
        self.recheck_names(path);
        if let Some(node) = self.nodes.get_mut(path) {
            node.validated = generation;
        }
        true
    }

    /// Re-stats the instruction-file names of the directory at `path` that its check does not
    /// vouch for, forgetting its names when one differs.
    fn recheck_names(&mut self, path: &[u8]) {
        let Some(present) = self.nodes.get_mut(path).and_then(|n| n.dir.as_mut()) else {
            return;
        };
        let Some(named) = &present.names else {
            return;
        };
        let by_stat = matches!(present.check, Check::Stat { .. });
        for entry in named {
            let unwatched =
                entry.looked.link || entry.looked.stat.is_some_and(|stat| stat.nlink > 1);
            if !(by_stat || unwatched) {
                continue;
            }
            let file = path::join(path, &self.names[entry.index]);
            match os_dir::stat_path(&file, true) {
                Ok(now) if now == entry.looked.stat => {
                    if let Some(now) = now {
                        self.fresh.insert(file, now);
                    }
                }
                _ => {
                    present.names = None;
                    // `forgot`, by hand: `present` still borrows the nodes.
                    self.stamp += 1;
                    return;
                }
            }
        }
    }

    /// Whether `path` is a directory, from the cache where the directories above it (`up`,
    /// from `/` down to its parent) are known, otherwise from a stat (whose error is the
    /// chain's, as in the plain walk).
    fn is_dir(&mut self, path: &[u8], up: &[Vec<u8>]) -> Result<bool, Error> {
        let mut parent_known = false;
        if let Some(parent) = up.last() {
            let mut known = true;
            for dir in up {
                if !self.valid(dir) {
                    known = false;
                    break;
                }
                if self.nodes[dir].dir.is_none() {
                    // A directory above does not exist: neither does the path.
                    return Ok(false);
                }
            }
            if known {
                parent_known = true;
                if self.nodes[parent]
                    .dir
                    .as_ref()
                    .is_some_and(|p| p.plain.contains(base(path)))
                {
                    return Ok(false);
                }
                if self.valid(path) {
                    return Ok(self.nodes[path].dir.is_some());
                }
            }
        }
        let fail = |e: std::io::Error| Error::io("stat", path, &e);
        let entry = os_dir::stat_path(path, false).map_err(fail)?;
        if let Some(Stat {
            what: What::Link, ..
        }) = entry
        {
            let target = os_dir::stat_path(path, true).map_err(fail)?;
            return Ok(target.is_some_and(|s| s.what == What::Dir));
        }
        let is_dir = entry.is_some_and(|s| s.what == What::Dir);
        // Remembered only under a directory whose check was in place before this stat, so
        // that a change after it cannot go unseen.
        if !is_dir && parent_known {
            self.remember_plain(path);
        }
        Ok(is_dir)
    }

    /// Makes every directory of `all` (from `/` down to the start directory) known, looking the
    /// names up in those from `root_level` down, with the errors of the plain walk in its
    /// order: a directory above the root that cannot be opened fails as the root does when its
    /// path is resolved. Returns the last directory, when this call opened it.
    fn ensure(&mut self, all: &[Vec<u8>], root_level: usize) -> Result<Option<Dir>, Error> {
        let root = &all[root_level];
        // The directory of the previous level, when this call opened it.
        let mut above: Option<Dir> = None;
        let mut missing = false;
        for (level, dir) in all.iter().enumerate() {
            let looks = level >= root_level;
            let report: &[u8] = if looks { dir } else { root };
            let fail = |e: std::io::Error| Error::io("list", report, &e);
            let failure = |f: Failure| match f {
                Failure::Io(e) => Error::io("list", report, &e),
                Failure::Chain(e) => e,
            };
            if missing {
                // Below a directory that does not exist, none does.
                self.nodes.entry(dir.clone()).or_insert(Node {
                    link: None,
                    dir: None,
                    validated: self.generation,
                });
                continue;
            }
            if self.valid(dir) {
                above = self.refresh(dir, looks).map_err(failure)?;
                missing = self.nodes.get(dir).map_or(true, |n| n.dir.is_none());
                continue;
            }
            let opened = match (level, above.take()) {
                (0, _) => Dir::open_path(dir, access(looks)).map(|dir| (dir, false)),
                (_, Some(parent)) => c_string(base(dir))
                    .and_then(|name| parent.open_child(&name, access(looks)))
                    .map(|opened| (opened.dir, opened.link)),
                (_, None) => {
                    Dir::open_path_child(dir, access(looks)).map(|opened| (opened.dir, opened.link))
                }
            };
            let (opened, link) = opened.map_err(fail)?;
            let Some(opened) = opened else {
                self.nodes.insert(
                    dir.clone(),
                    Node {
                        link: link.then_some(None),
                        dir: None,
                        validated: self.generation,
                    },
                );
                missing = true;
                continue;
            };
            let interest = self.interest(all, level, looks, link);
            let present = self
                .present(&opened, dir, looks, interest)
                .map_err(failure)?;
            let link = match link {
                true => {
                    let stat = opened.stat().map_err(fail)?;
                    Some(Some((stat.dev, stat.ino)))
                }
                false => None,
            };
            self.nodes.insert(
                dir.clone(),
                Node {
                    link,
                    dir: Some(present),
                    validated: self.generation,
                },
            );
            above = Some(opened);
        }
        Ok(above)
    }

    /// What the watch of the directory at `level` of `all` must report: every change to its
    /// names when it is looked into; above the root, the directories below it, and its own
    /// permissions unless the watch of its parent (made known before it) already reports them
    /// — which it does not when the directory was reached through a link (`link`), whose
    /// target's entry lives in another directory.
    fn interest(&self, all: &[Vec<u8>], level: usize, looks: bool, link: bool) -> Interest {
        if looks {
            return Interest::Names;
        }
        if link {
            return Interest::Passage;
        }
        let parent = level.checked_sub(1).and_then(|up| self.nodes.get(&all[up]));
        match parent.and_then(|node| node.dir.as_ref()).map(|p| p.check) {
            Some(Check::Watch {
                interest: Interest::Names | Interest::Passage,
                ..
            }) => Interest::Entries,
            _ => Interest::Passage,
        }
    }

    /// A directory just opened: its check put in place, then its names looked up when it is
    /// at or below the root.
    fn present(
        &mut self,
        dir: &Dir,
        path: &[u8],
        looks: bool,
        interest: Interest,
    ) -> Result<Present, Failure> {
        let before = now_ns();
        let magic = os_fstype::magic_of(dir.fd());
        let check = self.check(dir, path, magic, interest, before)?;
        let names = if looks {
            Some(self.look(dir, path, magic)?)
        } else {
            None
        };
        Ok(Present {
            check,
            magic,
            names,
            plain: HashSet::new(),
        })
    }

    /// A watch on `dir` where its file system reports changes and one can be had; otherwise
    /// its stat, to compare on every call.
    fn check(
        &mut self,
        dir: &Dir,
        path: &[u8],
        magic: Option<u64>,
        interest: Interest,
        before: i128,
    ) -> Result<Check, Failure> {
        let wd = match (&self.watcher, magic) {
            (Some(watcher), Some(magic)) if os_fstype::watchable(magic) => {
                watcher.watch(dir, interest)
            }
            _ => None,
        };
        if let Some(wd) = wd {
            let paths = self.watches.entry(wd).or_default();
            if !paths.iter().any(|p| p == path) {
                paths.push(path.to_vec());
            }
            return Ok(Check::Watch { wd, interest });
        }
        let stat = dir.stat().map_err(Failure::Io)?;
        let settled = stat.changed_ns() < before - os_fstype::racy_window_ns(magic);
        Ok(Check::Stat { stat, settled })
    }

    /// The instruction-file names of `dir`, with their stats kept for this call's reads.
    fn look(&mut self, dir: &Dir, path: &[u8], magic: Option<u64>) -> Result<Vec<Named>, Failure> {
        let named =
            names_in(dir, path, &self.names, &self.c_names, Some(magic)).map_err(Failure::Chain)?;
        for entry in &named {
            if let Some(stat) = entry.looked.stat {
                self.fresh
                    .insert(path::join(path, &self.names[entry.index]), stat);
            }
        }
        Ok(named)
    }

    /// A directory found true: looks its names up if it now needs them and they are not known
    /// (a change dropped them, or it was only passed through before). Returns the directory
    /// when it had to be opened, for the level below.
    fn refresh(&mut self, path: &[u8], looks: bool) -> Result<Option<Dir>, Failure> {
        let needs = self
            .nodes
            .get(path)
            .and_then(|n| n.dir.as_ref())
            .is_some_and(|p| looks && p.names.is_none());
        if !needs {
            return Ok(None);
        }
        let Some(dir) = Dir::open_path(path, Access::Read).map_err(Failure::Io)? else {
            // Gone since the events were read: a change this call may or may not see.
            self.drop_below(path);
            self.nodes.insert(
                path.to_vec(),
                Node {
                    link: None,
                    dir: None,
                    validated: self.generation,
                },
            );
            return Ok(None);
        };
        let (check, magic) = match self.nodes[path].dir.as_ref() {
            Some(present) => (present.check, present.magic),
            None => return Ok(None),
        };
        if let (
            Check::Watch {
                interest: Interest::Passage | Interest::Entries,
                ..
            },
            Some(watcher),
        ) = (check, &self.watcher)
        {
            // Passed through before, looked into now: its watch must report writes too.
            if let Some(wd) = watcher.watch(&dir, Interest::Names) {
                if let Some(present) = self.nodes.get_mut(path).and_then(|n| n.dir.as_mut()) {
                    present.check = Check::Watch {
                        wd,
                        interest: Interest::Names,
                    };
                }
            }
        }
        let named = self.look(&dir, path, magic)?;
        if let Some(present) = self.nodes.get_mut(path).and_then(|n| n.dir.as_mut()) {
            present.names = Some(named);
        }
        Ok(Some(dir))
    }

    /// The instruction files of each directory from `root` down to the start directory of
    /// `path`, for the walk, as the plain walk finds them: whether `path` is a directory, then
    /// every directory from `/` down made known, the errors in the plain walk's order.
    pub(super) fn instruction_files(&mut self, path: &[u8], root: &[u8]) -> Result<Located, Error> {
        // Every directory from `/` down to the path's parent, then to the start directory.
        let mut all = match path::parent(path) {
            Some(parent) => path::directories(path::OS_ROOT, parent)
                .into_iter()
                .map(<[u8]>::to_vec)
                .collect(),
            None => Vec::new(),
        };
        let is_dir = self.is_dir(path, &all)?;
        let start = start_directory(path, root, is_dir);
        if start == path {
            all.push(start.clone());
        }
        let root_level = all
            .iter()
            .position(|dir| dir == root)
            .expect("the start directory is within the root");
        let opened = self.ensure(&all, root_level)?;
        Ok(Located {
            files: self.found(&all[root_level..]),
            start,
            opened,
            steady: self.steady(&all),
        })
    }

    /// Whether the cache knows, until it next forgets something, whether `path` is a
    /// directory: a directory it holds (or knows to be missing) that no link leads to, or an
    /// entry its parent's check knows to be none.
    pub(super) fn knows_type(&self, path: &[u8]) -> bool {
        if let Some(node) = self.nodes.get(path) {
            return node.link.is_none();
        }
        path::parent(path)
            .and_then(|parent| self.nodes.get(parent)?.dir.as_ref())
            .is_some_and(|present| present.plain.contains(base(path)))
    }

    /// Remembers that `path` is neither a directory nor a link, as a stat taken after its
    /// directory's check was in place showed: a change to it will make the cache forget.
    pub(super) fn remember_plain(&mut self, path: &[u8]) {
        let present =
            path::parent(path).and_then(|parent| self.nodes.get_mut(parent)?.dir.as_mut());
        if let Some(present) = present {
            present.plain.insert(base(path).to_vec());
        }
    }

    /// Whether no directory of `all` needs a check on every call: no link, no revalidation by
    /// stat, no name a watch cannot vouch for. What is found in steady directories is found
    /// again the same until the cache forgets something (its stamp moves).
    fn steady(&self, all: &[Vec<u8>]) -> bool {
        all.iter().all(|dir| {
            self.nodes.get(dir).is_some_and(|node| {
                node.link.is_none()
                    && node.dir.as_ref().map_or(true, |present| {
                        matches!(present.check, Check::Watch { .. })
                            && present.names.iter().flatten().all(|entry| {
                                !entry.looked.link
                                    && entry.looked.stat.map_or(true, |stat| stat.nlink <= 1)
                            })
                    })
            })
        })
    }

    /// The instruction files of each directory of `dirs`, for the walk; a directory that does
    /// not exist is skipped. Every one must have been made known this call.
    fn found(&self, dirs: &[Vec<u8>]) -> Vec<Vec<Found>> {
        dirs.iter()
            .filter_map(|dir| {
                let present = self.nodes.get(dir)?.dir.as_ref()?;
                let named = present.names.as_ref().expect("looked up this call");
                Some(
                    named
                        .iter()
                        .filter_map(|entry| {
                            entry.file_size().map(|size| Found {
                                path: path::join(dir, &self.names[entry.index]),
                                size,
                            })
                        })
                        .collect(),
                )
            })
            .collect()
    }
}

fn access(looks: bool) -> Access {
    if looks {
        Access::Read
    } else {
        Access::Pass
    }
}

/// The instruction files of a chain's directories, as the cache finds them.
pub(super) struct Located {
    /// For each directory from the root down to the start directory that exists, the
    /// instruction files found there.
    pub(super) files: Vec<Vec<Found>>,
    /// The start directory.
    pub(super) start: Vec<u8>,
    /// The start directory itself, when this call opened it.
    pub(super) opened: Option<Dir>,
    /// Whether every directory from `/` down needs no check on every call.
    pub(super) steady: bool,
}

/// A failure while a directory is taken in: the OS's (reported as a listing error of the
/// directory), or an error the lookup already made the chain's.
enum Failure {
    Io(std::io::Error),
    Chain(Error),
}
