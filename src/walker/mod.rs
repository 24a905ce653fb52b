//! The reusable walker: the chains of many paths under one set of options, sharing directory
//! lookups and file contents between calls, and never answering from a stale cache.
//!
//! A [`Walker`] keeps, for every directory it has looked into, what the lookup found, and for
//! every file it has read, the bytes and the stat they were read at. What keeps each answer
//! true:
//!
//! - **Watched directories** (Linux, local file systems; see `fs::os_fstype`): an inotify
//!   watch, installed before the directory is looked into, reports every entry created,
//!   deleted, renamed, written or re-permissioned. The events are read at the start of each
//!   call (one `poll` when there are none), and each drops what it touches: a directory's
//!   looked-up names, or a directory on the way and everything below it. The directories above
//!   the root are watched too, so that renaming one of them is seen; a change of permissions
//!   of one of them is reported by its parent's watch, or by its own where the parent's does
//!   not report those (see `Interest::Entries`). `/proc/self/mountinfo` reports mounts, after
//!   which nothing cached is trusted.
//! - **Directories revalidated by stat** — on a network or FUSE file system, when no watch can
//!   be had (the watch limit, no `/proc`), off Linux, or with [`Walker::without_watches`]: one
//!   `stat` of the directory per call, compared on identity, size, link count and both times to
//!   the nanosecond; a change drops the directory and everything below it. Every instruction
//!   file found there is re-stat'ed too, since writing one does not touch the directory.
//! - **Names that a watch cannot vouch for** — a symbolic link (its target lives elsewhere), a
//!   file with more than one hard link (written through another name), a directory reached
//!   through a link — are re-stat'ed on every call.
//! - **Contents**: each file the chain reads is re-stat'ed on every call, which also catches a
//!   write through `mmap` that raises no event, and read again when its stat differs, or when
//!   it changed so recently that its times could not yet show a further change (see
//!   `fs::os_fstype`). Where a watch vouches for the file's name, the stat is an `fstat` of the
//!   descriptor the file was read through, kept open for that (at most 128; see `contents`).
//!   A path beside a kept answer is looked up in the start directory's descriptor, kept open
//!   with the answer (at most 128).
//! - **Answers**: a call whose directories all need no check on every call leaves its chain
//!   as the answer for its start directory until the cache forgets anything, and remembers
//!   where its path starts when the cache vouches for the path's type. A later call for a path
//!   that starts there — the same path, or a new one whose stat shows it to be no directory in
//!   a directory that has an answer — re-stats the files the chain read (and the extra files)
//!   and, when every stat is the same, returns a copy of that chain, with no other work. (Not
//!   when the root or an extra file is a relative path, which each call resolves against the
//!   current directory anew.)
//!
//! So on an unchanged tree a call costs one `poll` and one `stat` per file in the chain (plus
//! one `stat` per extra file, link or hard-linked file, and, the first time a path is asked,
//! one to tell whether it is a directory); the first call in each directory also looks into
//! the directories the walker has not met. A custom file system gives no notice of change: a
//! walker over one runs the plain [`chain`](crate::chain) on every call. So does a confined
//! walker ([`Options::confine`]): the cache looks names up by following links wherever they
//! lead, so under confinement every call takes the confined walk afresh.

mod contents;
mod dirs;
mod map;

use std::collections::VecDeque;
use std::sync::Mutex;

use crate::chain::{Request, Walk};
use crate::error::Error;
use crate::fs::base;
use crate::fs::os_dir::{c_string, stat_path, Dir, Stat, What};
use crate::fs::os_watch::Watcher;
use crate::path;
use crate::{Chain, File, Options};

use contents::{Contents, Known, Served};
use dirs::Dirs;
use map::Map;

/// The chains of many paths under one set of options, with directory lookups and file contents
/// shared between calls. Each call answers exactly what [`chain`](crate::chain) would answer at
/// that moment: an instruction file (or a directory on the way) edited, added, removed or
/// renamed since the last call is seen. Calls may come from several threads at once; they take
/// turns on the cache.
///
/// What it holds on Linux: one inotify instance, with a watch per directory it has looked
/// into; the open descriptors of up to 128 instruction files it has read, so that a call
/// re-stats them without resolving their paths; and those of up to 128 start directories whose
/// chains it keeps, so that a new path there is looked up without resolving its directory.
/// Like any open file, a kept descriptor counts against the process's open-file limit and
/// keeps its file system busy for `umount`; all are released when the walker is dropped, a
/// file's as soon as a call sees its name or directory change, and a directory's as soon as
/// the walker forgets anything.
pub struct Walker {
    options: Options,
    /// `None` with a custom file system, or with confinement: asked afresh on every call.
    cache: Option<Mutex<Cache>>,
}

/// What the walker has looked up, read and answered.
struct Cache {
    dirs: Dirs,
    contents: Contents,
    answers: Answers,
    /// Whether a chain may be kept as the answer for its path: not when the root or an extra
    /// file is a relative path, which each call resolves against the current directory anew.
    answerable: bool,
}

/// The most chains, or paths, kept as answers; past it they are all forgotten, and kept again
/// as asked.
const ANSWERS: usize = 1 << 14;

/// The most start directories whose descriptors the answers keep open; past it, the one kept
/// longest is given up.
const DIRECTORIES_HELD: usize = 128;

/// The chains kept as answers, by start directory, and the start directories of the paths
/// asked (absolute and clean), all made while the directory cache stood at `stamp`: none is
/// true once it has forgotten anything since.
#[derive(Default)]
struct Answers {
    stamp: u64,
    by_start: Map<Vec<u8>, Answer>,
    start_of: Map<Vec<u8>, Vec<u8>>,
    /// The start directories whose answers hold them open, the earliest kept first.
    held: VecDeque<Vec<u8>>,
}

impl Answers {
    /// Keeps `answer` for the start directory `start`, and `start` as where `path` starts
    /// when `path_known`.
    fn keep(&mut self, path: Vec<u8>, path_known: bool, start: Vec<u8>, answer: Answer) {
        if self.by_start.len() >= ANSWERS || self.start_of.len() >= ANSWERS {
            self.by_start.clear();
            self.start_of.clear();
            self.held.clear();
        }
        if path_known {
            self.start_of.insert(path, start.clone());
        }
        self.forget(&start);
        if answer.dir.is_some() {
            if self.held.len() >= DIRECTORIES_HELD {
                let earliest = self.held.pop_front();
                if let Some(given_up) = earliest.and_then(|e| self.by_start.get_mut(&e)) {
                    given_up.dir = None;
                }
            }
            self.held.push_back(start.clone());
        }
        self.by_start.insert(start, answer);
    }

    /// Forgets the answer kept for `start`.
    fn forget(&mut self, start: &[u8]) {
        let held = self.by_start.remove(start).is_some_and(|a| a.dir.is_some());
        if held {
            self.held.retain(|h| h != start);
        }
    }
}

/// A chain kept as the answer for its start directory.
struct Answer {
    /// The start directory, open, while few enough are (see `DIRECTORIES_HELD`): a path beside
    /// it is looked up there, not resolved from `/`. The watches on the directories from `/`
    /// down vouch that the start directory's path names it while the answer stands.
    dir: Option<Dir>,
    /// The chain, each file's content left out: it is the content cached for the file at the
    /// stat it was read at, kept once however many answers include it.
    chain: Chain,
    /// What it was made from: each extra file's stat (`None`: missing) and each file read, with
    /// the stat it was read at and the file a watch vouches its name for. The answer stands
    /// while a fresh stat of each is the same.
    stats: Vec<Checked>,
}

/// What a chain is made from, gathered as it is made.
struct Basis {
    stats: Vec<Checked>,
    /// Whether it may be kept: every file it read was there, and read long enough after its
    /// last change for a later one to show in its stat.
    keep: bool,
}

impl Basis {
    fn new() -> Self {
        Self {
            stats: Vec::new(),
            keep: true,
        }
    }

    /// The chain depends on the stat of `path` being `stat`.
    fn add(&mut self, path: &[u8], stat: Option<Stat>, named: Option<(u64, u64)>) {
        let known = self.stats.iter().any(|c| c.path == path && c.stat == stat);
        if !known {
            self.stats.push(Checked {
                path: path.to_vec(),
                stat,
                named,
            });
        }
    }

    /// A file read for the chain, as [`Contents::read`] served it; its bytes for the walk.
    fn served(
        &mut self,
        path: &[u8],
        served: Option<Served>,
        named: Option<(u64, u64)>,
    ) -> Option<Vec<u8>> {
        let Some(served) = served else {
            self.keep = false;
            return None;
        };
        self.keep &= served.settled;
        self.add(path, Some(served.stat), named);
        Some(served.content)
    }
}

/// A path whose stat an answer depends on.
struct Checked {
    path: Vec<u8>,
    /// Its stat when the answer was made; `None`: nothing there.
    stat: Option<Stat>,
    /// The file a watch vouches the path names, whose kept descriptor may be stat'ed instead.
    named: Option<(u64, u64)>,
}

impl Walker {
    /// A walker for `options`, watching the directories it looks into where the OS can report
    /// their changes, and revalidating the rest by stat.
    pub fn new(options: Options) -> Self {
        Self::with_watcher(options, Watcher::new())
    }

    /// A walker that watches nothing and revalidates every directory and file it has cached by
    /// stat on every call, as it does on file systems whose changes cannot be watched: for a
    /// host that knows better than the walker that a watch would miss changes, and for tests.
    pub fn without_watches(options: Options) -> Self {
        Self::with_watcher(options, None)
    }

    fn with_watcher(options: Options, watcher: Option<Watcher>) -> Self {
        let cache = (options.fs.is_none() && !options.confine).then(|| {
            let absolute = |path: &Vec<u8>| path.starts_with(b"/");
            Mutex::new(Cache {
                dirs: Dirs::new(watcher, options.effective_names()),
                contents: Contents::default(),
                answers: Answers::default(),
                answerable: (options.root.is_empty() || absolute(&options.root))
                    && options.extra.iter().all(absolute),
            })
        });
        Self { options, cache }
    }

    /// The options the walker was created with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// What `look` sees of the cache (zero without one): for the test hooks below.
    #[cfg(feature = "test-hooks")]
    fn inspect<T: Default>(&self, look: impl FnOnce(&Cache) -> T) -> T {
        self.cache.as_ref().map_or_else(T::default, |cache| {
            look(
                &cache
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner),
            )
        })
    }

    /// How many changes reported by a watch (or the mount table) have made this walker forget
    /// something: lets a test tell a change that only the stat recheck caught from one an event
    /// reported. Built only with the `test-hooks` feature.
    #[cfg(feature = "test-hooks")]
    pub fn changes_reported(&self) -> u64 {
        self.inspect(|cache| cache.dirs.reported)
    }

    /// How many descriptors of instruction files the walker keeps open (at most 128), to
    /// stat them without resolving their paths. Built only with the `test-hooks` feature.
    #[cfg(feature = "test-hooks")]
    pub fn descriptors_kept(&self) -> usize {
        self.inspect(|cache| cache.contents.held())
    }

    /// How many start directories the walker keeps open (at most 128), to look up new paths
    /// there. Built only with the `test-hooks` feature.
    #[cfg(feature = "test-hooks")]
    pub fn directories_kept(&self) -> usize {
        self.inspect(|cache| cache.answers.held.len())
    }

    /// How many chains the walker keeps as the answers for their start directories. Built only
    /// with the `test-hooks` feature.
    #[cfg(feature = "test-hooks")]
    pub fn answers_kept(&self) -> usize {
        self.inspect(|cache| cache.answers.by_start.len())
    }

    /// The instruction files that apply at `path`, as [`chain`](crate::chain) with the
    /// walker's options would return them now.
    pub fn chain(&self, path: impl AsRef<[u8]>) -> Result<Chain, Error> {
        let Some(cache) = &self.cache else {
            return crate::chain(path, &self.options);
        };
        // A panic while the cache was held (a bug) may have left it half-updated: start over.
        let mut cache = cache.lock().unwrap_or_else(|poisoned| {
            let mut cache = poisoned.into_inner();
            cache.clear();
            cache
        });
        cache.chain(path.as_ref(), &self.options)
    }
}

impl Cache {
    /// Forgets everything.
    fn clear(&mut self) {
        self.dirs.clear();
        self.contents = Contents::default();
        self.answers = Answers::default();
    }

    /// The chain at `path`: the answer kept for it when it still stands, otherwise the chain
    /// of SPEC.md §1 taken afresh on the cache.
    fn chain(&mut self, path: &[u8], options: &Options) -> Result<Chain, Error> {
        self.dirs.begin();
        for dropped in self.dirs.take_dropped() {
            self.contents.forget_below(&dropped);
        }
        if self.answers.stamp != self.dirs.stamp {
            self.answers = Answers {
                stamp: self.dirs.stamp,
                ..Answers::default()
            };
        }
        // An absolute path given clean is the key itself: it is answered before it is checked,
        // since it was checked when its start was kept.
        if path.starts_with(b"/") {
            if let Some(chain) = self.answer(path) {
                return Ok(chain);
            }
        }
        let request = Request::new(path, options)?;
        if request.path != path {
            if let Some(chain) = self.answer(&request.path) {
                return Ok(chain);
            }
        }
        if let Some(chain) = self.answer_beside(&request.path) {
            return Ok(chain);
        }
        self.walk(request, options)
    }

    /// A copy of the chain kept for where `path` starts, when every stat it was made from is
    /// the same now; otherwise it is forgotten.
    fn answer(&mut self, path: &[u8]) -> Option<Chain> {
        let Self {
            contents, answers, ..
        } = self;
        let start = answers.start_of.get(path)?;
        let answer = answers.by_start.get(start)?;
        let chain = Self::still(answer, contents);
        if chain.is_none() {
            let start = start.clone();
            answers.forget(&start);
        }
        chain
    }

    /// The chain of a path not asked since the cache last forgot anything, in a directory whose
    /// chain is kept: one stat of the path, taken under that directory's watch, shows it to be
    /// neither a directory nor a link, so it starts there. A path that is, or whose stat fails,
    /// is left to the walk, which reports the failure in its order.
    fn answer_beside(&mut self, path: &[u8]) -> Option<Chain> {
        let parent = path::parent(path)?;
        let answer = self.answers.by_start.get(parent)?;
        let stat = match &answer.dir {
            Some(dir) => match dir.look(&c_string(base(path)).ok()?).ok()? {
                Some(looked) if looked.link => return None,
                looked => looked.and_then(|looked| looked.stat),
            },
            None => stat_path(path, false).ok()?,
        };
        if stat.is_some_and(|stat| matches!(stat.what, What::Dir | What::Link)) {
            return None;
        }
        self.dirs.remember_plain(path);
        let start_of = &mut self.answers.start_of;
        if start_of.len() >= ANSWERS {
            start_of.clear();
        }
        start_of.insert(path.to_vec(), parent.to_vec());
        self.answer(path)
    }

    /// A copy of `answer`'s chain with the contents cached for its files, when every stat it
    /// was made from is the same now.
    fn still(answer: &Answer, contents: &mut Contents) -> Option<Chain> {
        let unchanged = answer.stats.iter().all(|checked| {
            matches!(contents.stat(&checked.path, checked.named), Ok(now) if now == checked.stat)
        });
        if !unchanged {
            return None;
        }
        let mut chain = answer.chain.clone();
        for file in &mut chain.files {
            let read = answer.stats.iter().find(|c| c.path == file.path)?;
            file.content = contents.cached(&file.path, read.stat?)?;
        }
        Some(chain)
    }

    /// The chain of SPEC.md §1, step for step as [`chain`](crate::chain) takes it — extra
    /// files, the start directory, every directory's names, then the reads — so that the same
    /// error comes first. Kept as the answer for its path when nothing in it needs a check
    /// that a stat of its files does not make.
    fn walk(&mut self, request: Request, options: &Options) -> Result<Chain, Error> {
        let Self {
            dirs,
            contents,
            answers,
            answerable,
        } = self;
        let mut basis = Basis::new();
        let mut walk = Walk::new(options);
        for extra in request.extras {
            let stat = stat_path(&extra, true).map_err(|e| Error::io("stat", &extra, &e))?;
            basis.add(&extra, stat, None);
            walk.extra(
                extra,
                stat.map(|stat| stat.metadata()),
                &mut |path, _, limit| {
                    let known = Known { stat, named: None };
                    Ok(basis.served(path, contents.read(path, limit, known)?, None))
                },
            )?;
        }
        let located = dirs.instruction_files(&request.path, &request.root)?;
        for found in located.files {
            walk.directory(found, &mut |path, _, limit| {
                let known = dirs.known(path);
                Ok(basis.served(path, contents.read(path, limit, known)?, known.named))
            })?;
        }
        let chain = walk.finish();
        if *answerable && located.steady && basis.keep && answers.stamp == dirs.stamp {
            let files = chain.files.iter().map(|file| File {
                path: file.path.clone(),
                content: Vec::new(),
            });
            let answer = Answer {
                dir: located.opened,
                chain: Chain {
                    files: files.collect(),
                    omitted: chain.omitted.clone(),
                },
                stats: basis.stats,
            };
            let path_known = dirs.knows_type(&request.path);
            answers.keep(request.path, path_known, located.start, answer);
        }
        Ok(chain)
    }
}
