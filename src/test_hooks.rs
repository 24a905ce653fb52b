//! Exports of the `test-hooks` feature, for the C tests (`ffi-tests/agentsmd_test_hooks.h`), to
//! reach code no correct input reaches. They watch a custom file system from outside, through
//! [`Watched`], so that no production type carries anything for the tests.

use std::ffi::OsString;
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};

use agentsmd_core::fs::{BatchFileSystem, Batches, Entry, FileSystem, Listed};
use agentsmd_core::FsName;

use crate::boundary::export;
use crate::error::agentsmd_error;
use crate::types::agentsmd_status;

/// Panics inside the library, as a bug would, to prove that the boundary catches it.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_test_panic(
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, { panic!("agentsmd_test_panic was called") })
}

/// Callbacks left before the injected panic; 0 when none is armed. Process-wide: the C tests
/// that arm it run one chain at a time.
static PANIC_COUNTDOWN: AtomicU64 = AtomicU64::new(0);

/// Arms a panic inside the library: right after the `count`-th file-system callback from now
/// returns (`list`, `stat`, `open` or `read`, on any thread), the library panics, as a bug in
/// the walk would, and the chain returns `AGENTSMD_STATUS_PANIC`. 0 disarms.
#[no_mangle]
pub extern "C" fn agentsmd_test_panic_after_callbacks(count: u64) {
    export!({ PANIC_COUNTDOWN.store(count, Ordering::SeqCst) })
}

/// Called after every file-system callback returns its `answer`: panics when the count runs out.
fn callback_returned<T>(op: &str, answer: T) -> T {
    let before = PANIC_COUNTDOWN.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
        left.checked_sub(1)
    });
    if before == Ok(1) {
        panic!("injected panic after a {op} callback (agentsmd_test_panic_after_callbacks)");
    }
    answer
}

static BYTES_ZEROED: AtomicU64 = AtomicU64::new(0);

/// How many bytes the library has zeroed, since the process started, in the buffers it passes
/// to custom file systems' `read` callbacks.
#[no_mangle]
pub extern "C" fn agentsmd_test_bytes_zeroed() -> u64 {
    export!({ BYTES_ZEROED.load(Ordering::SeqCst) })
}

/// A custom file system as the hooks watch it: [`callback_returned`] runs after each of its
/// calls, and each file it opens is read through a [`WatchedFile`].
pub(crate) struct Watched<F>(pub(crate) F);

impl<F: BatchFileSystem> FileSystem for Watched<F> {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        callback_returned("list", self.0.list(dir))
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        callback_returned("stat", self.0.stat(name))
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        // Opened first, so that an injected panic drops (and closes) the file.
        let file = callback_returned("open", self.0.open(name))?;
        Ok(Box::new(WatchedFile {
            file,
            returned: 0,
            extent: 0,
        }))
    }

    fn batched(&self) -> Option<&dyn BatchFileSystem> {
        self.0.batched().map(|_| self as &dyn BatchFileSystem)
    }
}

impl<F: BatchFileSystem> BatchFileSystem for Watched<F> {
    fn batches(&self) -> Batches {
        self.0.batches()
    }

    fn list_many(&self, dirs: &[FsName]) -> io::Result<Vec<Option<Vec<Listed>>>> {
        callback_returned("list_many", self.0.list_many(dirs))
    }

    fn read_many(&self, names: &[FsName], limit: u64) -> io::Result<Vec<Option<Vec<u8>>>> {
        callback_returned("read_many", self.0.read_many(names, limit))
    }
}

/// A file of a [`Watched`] file system, whose reads' room is counted as zeroed when dropped.
struct WatchedFile<R> {
    file: R,
    /// Bytes the reads have handed back so far.
    returned: usize,
    /// How far into the read loop's buffer the reads have been given room: the loop zeroes each
    /// byte of its buffer once, so this is what it zeroed for them.
    extent: usize,
}

impl<R: Read> Read for WatchedFile<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        self.extent = self.extent.max(self.returned + buffer.len());
        let read = callback_returned("read", self.file.read(buffer));
        self.returned += *read.as_ref().unwrap_or(&0);
        read
    }
}

impl<R> Drop for WatchedFile<R> {
    fn drop(&mut self) {
        BYTES_ZEROED.fetch_add(self.extent as u64, Ordering::SeqCst);
    }
}
