//! The contents a walker has read, each with the stat of the open file it was read from: served
//! again only while a fresh stat of the path is the same, and the file had not changed within
//! its file system's timestamp granularity of the read (after which a further change might not
//! have moved its times).
//!
//! Where a watch vouches that the path still names the file it named when looked up, the
//! descriptor the file was read through is kept open, and the fresh stat is an `fstat` of it:
//! the same answer as a stat of the path, without resolving the path (a third of the cost
//! here). At most [`HELD`] descriptors are kept, the least recently used given up first.

use std::io;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::Error;
use crate::fs::os_dir::{self, Fd, Stat, What};
use crate::fs::os_fstype;

use super::map::{at_or_below, Map};

/// The most descriptors of instruction files a walker keeps open. Each counts against the
/// process's open-file limit (often 1,024) and keeps its file system busy for `umount`, so
/// only the files of the chains asked recently are kept; the others are stat'ed by path.
const HELD: usize = 128;

/// What the walker knows of a file's path during a call.
#[derive(Clone, Copy, Debug)]
pub(super) struct Known {
    /// A stat of the path taken during this call.
    pub(super) stat: Option<Stat>,
    /// The file (device, inode) the path names, as a watch on its directory vouches: no entry
    /// of that name was created, removed or renamed since it was looked up.
    pub(super) named: Option<(u64, u64)>,
}

/// One file's bytes and what they were read at.
struct Cached {
    stat: Stat,
    content: Vec<u8>,
    /// Whether the times in `stat` were old enough, when read, to show any later change.
    settled: bool,
    /// The descriptor it was read through, kept while a watch vouches for its name.
    fd: Option<Fd>,
    /// When it was last asked for, to give up the least recently used descriptor first.
    used: u64,
}

/// A file served: its bytes, the stat they were read at, and whether that stat can be trusted
/// to show a later change.
pub(super) struct Served {
    pub(super) content: Vec<u8>,
    pub(super) stat: Stat,
    pub(super) settled: bool,
}

/// The cached contents, by absolute path.
#[derive(Default)]
pub(super) struct Contents {
    files: Map<Vec<u8>, Cached>,
    /// Counts the uses of cached files.
    clock: u64,
}

/// Now, in nanoseconds since the epoch (the clock file times are stamped from).
pub(super) fn now_ns() -> i128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as i128)
}

impl Contents {
    /// The stat of the file at `path` now: through the descriptor kept for it when `named` is
    /// the file that descriptor is open on, otherwise of the path (following links).
    pub(super) fn stat(
        &mut self,
        path: &[u8],
        named: Option<(u64, u64)>,
    ) -> io::Result<Option<Stat>> {
        self.clock += 1;
        if let (Some(cached), Some(named)) = (self.files.get_mut(path), named) {
            cached.used = self.clock;
            if let (Some(fd), true) = (&cached.fd, (cached.stat.dev, cached.stat.ino) == named) {
                return os_dir::fstat(fd.raw()).map(Some);
            }
        }
        os_dir::stat_path(path, true)
    }

    /// A copy of the bytes cached for `path`, when they were read at `stat` and that stat can
    /// be trusted to show a later change.
    pub(super) fn cached(&self, path: &[u8], stat: Stat) -> Option<Vec<u8>> {
        let cached = self.files.get(path)?;
        (cached.settled && cached.stat == stat).then(|| cached.content.clone())
    }

    /// The bytes of the file at `path`, at most `limit` of them, as [`crate::fs::OsFs`] reads
    /// them: from the cache when a stat of the path (`known.stat`, or one taken now) matches,
    /// otherwise read and cached. Errors are the OS file system's.
    pub(super) fn read(
        &mut self,
        path: &[u8],
        limit: u64,
        known: Known,
    ) -> Result<Option<Served>, Error> {
        // A failed stat is left to the read, which fails the way the plain walk's does.
        let stat = match known.stat {
            Some(stat) => Ok(Some(stat)),
            None => self.stat(path, known.named),
        };
        self.clock += 1;
        match (&stat, self.files.get_mut(path)) {
            (Ok(None), _) => {
                self.files.remove(path);
                return Ok(None);
            }
            (Ok(Some(stat)), Some(cached))
                if cached.settled && stat.what == What::File && cached.stat == *stat =>
            {
                cached.used = self.clock;
                return Ok(Some(Served {
                    content: cached.content.clone(),
                    stat: *stat,
                    settled: true,
                }));
            }
            _ => {}
        }
        let started = now_ns();
        let Some(read) =
            os_dir::read_file(path, limit).map_err(|e| Error::io(e.op, path, &e.err))?
        else {
            self.files.remove(path);
            return Ok(None);
        };
        let window = os_fstype::racy_window_ns(os_fstype::magic_of(read.fd.raw()));
        let settled = read.stat.changed_ns() < started - window;
        let served = Served {
            content: read.content.clone(),
            stat: read.stat,
            settled,
        };
        // Kept only when it is open on the file the watched name stands for.
        let fd = (known.named == Some((read.stat.dev, read.stat.ino))).then_some(read.fd);
        self.files.remove(path);
        if fd.is_some() {
            self.make_room();
        }
        self.files.insert(
            path.to_vec(),
            Cached {
                stat: read.stat,
                content: read.content,
                settled,
                fd,
                used: self.clock,
            },
        );
        Ok(Some(served))
    }

    /// Gives up the least recently used descriptor when [`HELD`] are kept.
    fn make_room(&mut self) {
        let held = self.files.values().filter(|c| c.fd.is_some()).count();
        if held < HELD {
            return;
        }
        let oldest = self
            .files
            .values_mut()
            .filter(|c| c.fd.is_some())
            .min_by_key(|c| c.used);
        if let Some(oldest) = oldest {
            oldest.fd = None;
        }
    }

    /// Forgets the files at or below `path` (a directory the walker no longer caches, or a
    /// file whose name changed), closing their descriptors.
    pub(super) fn forget_below(&mut self, path: &[u8]) {
        self.files.retain(|file, _| !at_or_below(file, path));
    }

    /// How many descriptors are kept open. Built only with the `test-hooks` feature.
    #[cfg(feature = "test-hooks")]
    pub(super) fn held(&self) -> usize {
        self.files.values().filter(|c| c.fd.is_some()).count()
    }
}
