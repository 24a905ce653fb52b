//! The contents a walker has read, each with the stat of the open file it was read from: served
//! again only while a fresh stat of the path is the same, and the file had not changed within
//! its file system's timestamp granularity of the read (after which a further change might not
//! have moved its times).

use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::Error;
use crate::fs::os_dir::{self, Stat, What};
use crate::fs::os_fstype;

use super::map::{at_or_below, Map};

/// One file's bytes and what they were read at.
struct Cached {
    stat: Stat,
    content: Vec<u8>,
    /// Whether the times in `stat` were old enough, when read, to show any later change.
    settled: bool,
}

/// The cached contents, by absolute path.
#[derive(Default)]
pub(super) struct Contents {
    files: Map<Vec<u8>, Cached>,
}

/// Now, in nanoseconds since the epoch (the clock file times are stamped from).
pub(super) fn now_ns() -> i128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as i128)
}

impl Contents {
    /// The bytes of the file at `path`, at most `limit` of them, as [`crate::fs::OsFs`] reads
    /// them: from the cache when `fresh` (a stat of the path taken during this call) or a new
    /// stat matches, otherwise read and cached. Errors are the OS file system's.
    pub(super) fn read(
        &mut self,
        path: &[u8],
        limit: u64,
        fresh: Option<Stat>,
    ) -> Result<Option<Vec<u8>>, Error> {
        // A failed stat is left to the read, which fails the way the plain walk's does.
        let stat = match fresh {
            Some(stat) => Ok(Some(stat)),
            None => os_dir::stat_path(path, true),
        };
        match (&stat, self.files.get(path)) {
            (Ok(None), _) => {
                self.files.remove(path);
                return Ok(None);
            }
            (Ok(Some(stat)), Some(cached))
                if cached.settled && stat.what == What::File && cached.stat == *stat =>
            {
                return Ok(Some(cached.content.clone()));
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
        let content = read.content.clone();
        self.files.insert(
            path.to_vec(),
            Cached {
                stat: read.stat,
                content: read.content,
                settled,
            },
        );
        Ok(Some(content))
    }

    /// Forgets the files below the directory `dir`, which the walker no longer caches.
    pub(super) fn forget_below(&mut self, dir: &[u8]) {
        self.files.retain(|path, _| !at_or_below(path, dir));
    }
}
