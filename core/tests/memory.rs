//! What a chain allocates, measured by a counting allocator: memory linear in the path's
//! length through a custom file system. This file is a test binary of its own, with one test,
//! so that nothing else allocates while it measures. The allocator refuses any allocation that
//! would take the live total over a ceiling, so that a regression fails the test (the process
//! aborts on the refused allocation) rather than taking the machine's memory.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use agentsmd_core::fs::{Entry, FileSystem};
use agentsmd_core::{chain, Error, FsName, Options};

/// Bytes allocated and not yet freed, the most they have been, and the ceiling.
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
const CEILING: usize = 512 << 20;

struct Counting;

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
        if live > CEILING {
            LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
            return std::ptr::null_mut();
        }
        PEAK.fetch_max(live, Ordering::SeqCst);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A file system where every directory exists and is empty, and nothing else exists.
struct EmptyDirs;

impl FileSystem for EmptyDirs {
    fn list(&self, _dir: &FsName) -> Result<Option<Vec<Vec<u8>>>, Error> {
        Ok(Some(Vec::new()))
    }

    fn stat(&self, _name: &FsName) -> Result<Option<Entry>, Error> {
        Ok(Some(Entry::Dir))
    }

    fn open(&self, _name: &FsName) -> Result<Option<Box<dyn Read + '_>>, Error> {
        Ok(None)
    }
}

#[test]
fn memory_is_linear_in_the_length_of_a_custom_fs_path() {
    // 200 KB: 100,000 directories, each listed. A copy of every directory's path would be 10 GB.
    let path = "d/".repeat(100_000) + "x";
    let options = Options::new().fs(Arc::new(EmptyDirs));
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let result = chain(&path, &options).expect("the chain");
    let peak = PEAK.load(Ordering::SeqCst) - before;
    assert!(result.files.is_empty() && result.omitted.is_empty());
    assert!(
        peak < 64 * path.len(),
        "{peak} bytes at the peak for a path of {} bytes",
        path.len()
    );
}
