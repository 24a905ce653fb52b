//! Timing by the median of rounds, and an allocator that counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The median time of one run of `f`, over `rounds` rounds of `runs` runs each.
pub fn median(rounds: usize, runs: usize, mut f: impl FnMut()) -> Duration {
    f(); // warm the caches the timed runs will find warm
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..runs {
                f();
            }
            start.elapsed() / runs as u32
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// The system allocator, counting allocations and reallocations.
pub struct Counting;

pub static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
pub static REALLOCATIONS: AtomicU64 = AtomicU64::new(0);
pub static BYTES: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        REALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

/// (allocations, reallocations, bytes allocated) made by `f`.
pub fn allocations(f: impl FnOnce()) -> (u64, u64, u64) {
    let before = (
        ALLOCATIONS.load(Ordering::Relaxed),
        REALLOCATIONS.load(Ordering::Relaxed),
        BYTES.load(Ordering::Relaxed),
    );
    f();
    (
        ALLOCATIONS.load(Ordering::Relaxed) - before.0,
        REALLOCATIONS.load(Ordering::Relaxed) - before.1,
        BYTES.load(Ordering::Relaxed) - before.2,
    )
}

/// A duration for a table: µs or ms.
pub fn show(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.1} µs")
    }
}
