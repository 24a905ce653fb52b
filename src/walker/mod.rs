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
//!   the root are watched too, so that renaming one of them is seen. `/proc/self/mountinfo`
//!   reports mounts, after which nothing cached is trusted.
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
//!   `fs::os_fstype`).
//!
//! So on an unchanged tree a call costs one `poll` and one `stat` per file in the chain (plus
//! one `stat` per extra file, link or hard-linked file, and, the first time a path is asked,
//! one to tell whether it is a directory). A custom file system gives no notice of change: a
//! walker over one runs the plain [`chain`](crate::chain) on every call.

mod contents;
mod dirs;
mod map;

use std::sync::Mutex;

use crate::chain::{Request, Walk};
use crate::error::Error;
use crate::fs::os_dir::stat_path;
use crate::fs::os_watch::Watcher;
use crate::{Chain, Options};

use contents::Contents;
use dirs::Dirs;

/// The chains of many paths under one set of options, with directory lookups and file contents
/// shared between calls. Each call answers exactly what [`chain`](crate::chain) would answer at
/// that moment: an instruction file (or a directory on the way) edited, added, removed or
/// renamed since the last call is seen. Calls may come from several threads at once; they take
/// turns on the cache.
pub struct Walker {
    options: Options,
    /// `None` with a custom file system, which is asked afresh on every call.
    cache: Option<Mutex<Cache>>,
}

/// What the walker has looked up and read.
struct Cache {
    dirs: Dirs,
    contents: Contents,
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
        let cache = options.fs.is_none().then(|| {
            Mutex::new(Cache {
                dirs: Dirs::new(watcher, options.effective_names()),
                contents: Contents::default(),
            })
        });
        Self { options, cache }
    }

    /// The options the walker was created with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// How many changes reported by a watch (or the mount table) have made this walker forget
    /// something: lets a test tell a change that only the stat recheck caught from one an event
    /// reported. Built only with the `test-hooks` feature.
    #[cfg(feature = "test-hooks")]
    pub fn changes_reported(&self) -> u64 {
        self.cache.as_ref().map_or(0, |cache| {
            cache
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .dirs
                .reported
        })
    }

    /// The instruction files that apply at `path`, as [`chain`](crate::chain) with the
    /// walker's options would return them now.
    pub fn chain(&self, path: impl AsRef<[u8]>) -> Result<Chain, Error> {
        let Some(cache) = &self.cache else {
            return crate::chain(path, &self.options);
        };
        let request = Request::new(path.as_ref(), &self.options)?;
        // A panic while the cache was held (a bug) may have left it half-updated: start over.
        let mut cache = cache.lock().unwrap_or_else(|poisoned| {
            let mut cache = poisoned.into_inner();
            cache.clear();
            cache
        });
        cache.chain(request, &self.options)
    }
}

impl Cache {
    /// Forgets everything.
    fn clear(&mut self) {
        self.dirs.clear();
        self.contents = Contents::default();
    }

    /// The chain of SPEC.md §1, step for step as [`chain`](crate::chain) takes it — extra
    /// files, the start directory, every directory's names, then the reads — so that the same
    /// error comes first.
    fn chain(&mut self, request: Request, options: &Options) -> Result<Chain, Error> {
        let Self { dirs, contents } = self;
        dirs.begin();
        for dropped in dirs.take_dropped() {
            contents.forget_below(&dropped);
        }
        let mut walk = Walk::new(options);
        for extra in request.extras {
            let stat = stat_path(&extra, true).map_err(|e| Error::io("stat", &extra, &e))?;
            walk.extra(
                extra,
                stat.map(|stat| stat.metadata()),
                &mut |path, _, limit| contents.read(path, limit, stat),
            )?;
        }
        for found in dirs.instruction_files(&request.path, &request.root)? {
            walk.directory(found, &mut |path, _, limit| {
                contents.read(path, limit, dirs.fresh(path))
            })?;
        }
        Ok(walk.finish())
    }
}
