//! No blocking, no surprise I/O (docs/security.md): a regular file swapped for a FIFO between the
//! stat and the open never blocks the chain, and nothing is read from the FIFO.
//!
//! Two ways: a deterministic swap, by a file system that wraps [`OsFs`] and swaps each file it
//! found for a FIFO before the walk reads it; and a race, a thread swapping a file and a FIFO
//! back and forth while chains run on the OS file system as products run them.
// FIFOs are Unix's: Windows has none to swap in.
#![cfg(unix)]

mod support;

use std::ffi::OsString;
use std::fs;
use std::io::{self, ErrorKind as IoKind, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use agentsmd_core::fs::{Entry, FileSystem, OsFs};
use agentsmd_core::{chain, ErrorKind, FsName, Options};

use support::{mkfifo, os_name, within, Tree};

/// What the FIFO holds while the chain runs: if the library read the FIFO, these bytes would
/// be gone from it, or in the result.
const SECRET: &[u8] = b"bytes a FIFO holds\n";

/// A custom file system over the directory `base` through [`OsFs`] (names are relative to it),
/// which, once its stat has said a name is a regular file, swaps it for the FIFO beside it
/// (`AGENTS.fifo` for `AGENTS.md`): the window between the stat and the open, made certain.
struct SwapToFifo {
    base: PathBuf,
}

impl SwapToFifo {
    fn os(&self, name: &FsName) -> PathBuf {
        if name.is_root() {
            return self.base.clone();
        }
        self.base.join(name.to_string())
    }
}

impl FileSystem for SwapToFifo {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        OsFs.list(&os_name(&self.os(dir)))
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        let path = self.os(name);
        let entry = OsFs.stat(&os_name(&path))?;
        let fifo = path.with_extension("fifo");
        if matches!(entry, Entry::File { .. }) && fifo.exists() {
            // The swap: a FIFO takes the regular file's name, atomically.
            fs::rename(&fifo, &path).expect("swap in the FIFO");
        }
        Ok(entry)
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        OsFs.open(&os_name(&self.os(name)))
    }
}

/// Opens the FIFO at `path` for reading and writing (which Linux allows without blocking) and
/// writes [`SECRET`] into it; the FIFO holds the bytes for as long as the returned file is open.
fn fill(path: &Path) -> fs::File {
    let mut fifo = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .expect("open the FIFO");
    fifo.write_all(SECRET).unwrap();
    fifo
}

/// What is left in the FIFO behind `fifo`.
fn drain(fifo: &mut fs::File) -> Vec<u8> {
    let mut left = Vec::new();
    let mut buffer = [0; 256];
    loop {
        match fifo.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => left.extend_from_slice(&buffer[..n]),
            Err(err) if err.kind() == IoKind::WouldBlock => break,
            Err(err) => panic!("draining the FIFO: {err}"),
        }
    }
    left
}

#[test]
fn fifo_swapped_in_between_stat_and_open_neither_blocks_nor_is_read() {
    // With a writer holding bytes in the FIFO (an open without O_NONBLOCK would succeed and a
    // read would take them), and with no writer at all (an open without O_NONBLOCK would block
    // for ever).
    for with_writer in [true, false] {
        let tree = Tree::new();
        tree.file("AGENTS.md", "root\n");
        tree.file("a/AGENTS.md", "a\n");
        let mut writers = Vec::new();
        for rel in ["AGENTS.fifo", "a/AGENTS.fifo"] {
            let fifo = tree.path(rel);
            mkfifo(&fifo);
            if with_writer {
                writers.push(fill(&fifo));
            }
        }
        let fs = Arc::new(SwapToFifo { base: tree.root() });
        let options = Options::new().fs(fs);
        let result = within(10, move || chain("a/new.txt", &options));

        // The library refuses the FIFO where it opens it: an error of the file system naming the
        // file (or, were it to treat the swap as "no file", a chain without it). Never its bytes.
        match &result {
            Err(error) => {
                assert_eq!(error.kind(), ErrorKind::Fs, "{error}");
                assert!(error.to_string().contains("AGENTS.md"), "{error}");
            }
            Ok(found) => {
                for file in &found.files {
                    assert_ne!(file.content, SECRET, "read from the FIFO: {result:?}");
                }
            }
        }
        for mut writer in writers {
            assert_eq!(drain(&mut writer), SECRET, "bytes were taken from the FIFO");
        }
    }
}

#[test]
fn fifo_raced_against_the_os_walk_never_blocks() {
    // A thread swaps AGENTS.md between a regular file and a FIFO as fast as it can while chains
    // run on the OS file system for two seconds. Each chain must return at once; it may find the
    // file, find no file, or fail naming the file — and whatever it keeps is the regular file's
    // content.
    const RACE: Duration = Duration::from_secs(2);
    let tree = Tree::new();
    tree.file("CLAUDE.md", "fallback\n");
    let target = tree.file("AGENTS.md", "regular\n");
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let stop = stop.clone();
        let dir = target.parent().unwrap().to_path_buf();
        std::thread::spawn(move || {
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let fifo = dir.join("next.fifo");
                mkfifo(&fifo);
                fs::rename(&fifo, &target).unwrap();
                let file = dir.join("next.file");
                fs::write(&file, "regular\n").unwrap();
                fs::rename(&file, &target).unwrap();
                swaps += 1;
            }
            swaps
        })
    };
    let options = Options::new()
        .root(tree.root())
        .names(["AGENTS.md", "CLAUDE.md"]);
    let path = tree.path("new.txt");
    let outcomes = within(60, move || {
        let (mut regular, mut fallback, mut refused) = (0, 0, 0);
        let started = Instant::now();
        while started.elapsed() < RACE {
            match chain(&path, &options) {
                Ok(result) => match result.files.first().map(|f| f.content.as_slice()) {
                    Some(b"regular\n") => regular += 1,
                    Some(b"fallback\n") => fallback += 1,
                    other => panic!("unexpected file {other:?}"),
                },
                Err(error) => {
                    assert_eq!(error.kind(), ErrorKind::Io, "{error}");
                    assert!(error.to_string().contains("AGENTS.md"), "{error}");
                    refused += 1;
                }
            }
        }
        (regular, fallback, refused)
    });
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    let (regular, fallback, refused) = outcomes;
    eprintln!(
        "{swaps} swaps; chains: {regular} kept the file, {fallback} found the FIFO and fell back, \
         {refused} refused a FIFO opened after its stat"
    );
    // Both sides of the race happened, or the test tested nothing: chains met the regular file,
    // and chains met the FIFO (at their lookup, or swapped in before their read).
    assert!(swaps > 0, "the swapper never swapped");
    assert!(regular > 0, "no chain met the regular file: {outcomes:?}");
    assert!(
        fallback + refused > 0,
        "no chain met the FIFO in {swaps} swaps: {outcomes:?}"
    );
}

#[test]
#[cfg(target_os = "linux")]
fn every_rule_here_holds_on_the_portable_path() {
    support::rerun_on_the_portable_path(&[]);
}
