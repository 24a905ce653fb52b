//! Wall-clock timing, interleaved: the walks compared take turns within each round, so that
//! the load of the shared machine falls on all of them alike; and an allocator that counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Rounds per figure; each figure is the median of its rounds.
const ROUNDS: usize = 9;

/// The median time of one run of each of `walks`, and the median over the rounds of each
/// walk's time divided by the first walk's in the same round. Each round runs every walk in
/// turn (the order rotating from round to round), often enough for the clock.
pub fn side_by_side(walks: &mut [&mut dyn FnMut()]) -> (Vec<Duration>, Vec<f64>) {
    let runs: Vec<u32> = walks
        .iter_mut()
        .map(|walk| {
            walk(); // warm the caches the timed runs will find warm
            let start = Instant::now();
            walk();
            let once = start.elapsed().max(Duration::from_nanos(100));
            (Duration::from_millis(15).as_nanos() / once.as_nanos()).clamp(1, 10_000) as u32
        })
        .collect();
    let mut times = vec![Vec::with_capacity(ROUNDS); walks.len()];
    for round in 0..ROUNDS {
        for turn in 0..walks.len() {
            let at = (turn + round) % walks.len();
            let start = Instant::now();
            for _ in 0..runs[at] {
                (walks[at])();
            }
            times[at].push(start.elapsed() / runs[at]);
        }
    }
    let ratios = times
        .iter()
        .map(|walk| {
            let per_round = walk
                .iter()
                .zip(&times[0])
                .map(|(t, first)| t.as_secs_f64() / first.as_secs_f64())
                .collect();
            middle(per_round)
        })
        .collect();
    let medians = times.into_iter().map(middle).collect();
    (medians, ratios)
}

fn middle<T: PartialOrd>(mut values: Vec<T>) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    values.swap_remove(values.len() / 2)
}

/// The system allocator, counting allocations and reallocations.
pub struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static REALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

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
