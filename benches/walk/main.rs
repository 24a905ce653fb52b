//! The benchmark of BENCHMARKS.md, side by side in one run: `cargo bench --bench walk`.
//!
//! It generates its trees in a temporary directory, then prints: a chain on a 32-deep path
//! against a walk that lists every directory and against the floor of one `openat` per level
//! and one `fstatat` per name, at 100, 1,000 and 10,000 entries per directory; 1,000 chains of
//! different files in a 200-directory project, plain against one walker; `render` against
//! `memcpy`; and the system calls of a chain per directory and of a walker call, counted by the
//! library and by `strace -c -f`.

mod baselines;
mod measure;
mod syscalls;
mod trees;

use std::hint::black_box;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::{Duration, Instant};

use agentsmd::{chain, render, Options, Walker};
use measure::{allocations, median, show, Counting};
use syscalls::Kind;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const NAMES: [&str; 2] = ["AGENTS.override.md", "AGENTS.md"];

fn options(root: &Path) -> Options {
    Options {
        names: NAMES.iter().map(|n| n.as_bytes().to_vec()).collect(),
        root: root.as_os_str().as_bytes().to_vec(),
        ..Options::default()
    }
}

/// The median time of `f`, run often enough per round for the clock to be fair to it.
fn time(mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    f();
    let once = start.elapsed().max(Duration::from_nanos(100));
    let runs = (Duration::from_millis(40).as_nanos() / once.as_nanos()).clamp(1, 20_000) as usize;
    median(7, runs, f)
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "meets"
    } else {
        "MISSES"
    }
}

fn machine(base: &Path) {
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let fs = std::process::Command::new("stat")
        .args(["-f", "-c", "%T"])
        .arg(base)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!(
        "trees in {} ({fs}); Linux {}; {cpus} CPUs",
        base.display(),
        kernel.trim()
    );
}

fn deep_chains(base: &Path) {
    println!("\n== A chain on a 32-deep path (AGENTS.md every 8 levels, names {NAMES:?})");
    println!(
        "{:>8} {:>12} {:>14} {:>12} {:>14} {:>12}",
        "entries", "ours", "listing walk", "floor", "listing/ours", "ours/floor"
    );
    for width in [100, 1_000, 10_000] {
        let tree = trees::deep(base, &format!("deep{width}"), 32, width, 8);
        let options = options(&tree.root);
        let path = tree.path.as_os_str().as_bytes();
        let ours_files = chain(path, &options).expect("a chain").files.len();
        let listed = baselines::listing_walk(&tree.dirs, &NAMES);
        assert_eq!(ours_files, listed.len(), "the walks agree");
        let floor = baselines::Floor::new(&tree.root, &tree.dirs, &NAMES);
        assert_eq!(floor.walk(), ours_files);

        let ours = time(|| drop(black_box(chain(path, &options))));
        let listing = time(|| drop(black_box(baselines::listing_walk(&tree.dirs, &NAMES))));
        let bare = time(|| {
            black_box(floor.walk());
        });
        let vs_listing = listing.as_secs_f64() / ours.as_secs_f64();
        let vs_floor = ours.as_secs_f64() / bare.as_secs_f64();
        println!(
            "{width:>8} {:>12} {:>14} {:>12} {:>13.0}× {:>11.2}×",
            show(ours),
            show(listing),
            show(bare),
            vs_listing,
            vs_floor
        );
        if width == 10_000 {
            println!(
                "target at 10,000 entries: ≥ 200× faster than listing ({}), within 1.5× of the floor ({})",
                verdict(vs_listing >= 200.0),
                verdict(vs_floor <= 1.5)
            );
        }
    }
}

fn project_chains(base: &Path) {
    println!("\n== 1,000 chains for 1,000 different files over a 200-directory project");
    let project = trees::project(base);
    let options = options(&project.root);
    let files: Vec<&[u8]> = project
        .files
        .iter()
        .map(|f| f.as_os_str().as_bytes())
        .collect();
    let calls = |f: &mut dyn FnMut()| {
        let before = agentsmd::fs::system_calls();
        f();
        (agentsmd::fs::system_calls() - before) as f64 / files.len() as f64
    };
    let plain = median(5, 1, || {
        for file in &files {
            black_box(chain(file, &options).expect("a chain"));
        }
    });
    let plain_calls = calls(&mut || {
        for file in &files {
            black_box(chain(file, &options).expect("a chain"));
        }
    });
    // A new walker per round, with no other walker alive: the kernel marks a directory's
    // cached names the first time any watch on it asks for its entries' changes, which a
    // walker kept from an earlier round would have done already. Each is dropped after the
    // clock stops, and its drop timed on its own: closing an inotify instance waits for the
    // kernel to free its watches.
    let (mut rounds, mut drops, mut cold_calls) = (Vec::new(), Vec::new(), 0.0);
    for _ in 0..5 {
        let before = agentsmd::fs::system_calls();
        let start = Instant::now();
        let walker = Walker::new(options.clone());
        for file in &files {
            black_box(walker.chain(file).expect("a chain"));
        }
        rounds.push(start.elapsed());
        cold_calls = (agentsmd::fs::system_calls() - before) as f64 / files.len() as f64;
        let start = Instant::now();
        drop(walker);
        drops.push(start.elapsed());
    }
    let middle = |mut times: Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    let (cold, dropped) = (middle(rounds), middle(drops));
    // The floor of a new walker, timed the same way: its descriptors and inotify instance are
    // closed after the clock stops.
    let floor = baselines::WalkerFloor::new(&project.root, &project.files, &NAMES);
    let in_chains: usize = files
        .iter()
        .map(|file| chain(file, &options).expect("a chain").files.len())
        .sum();
    let floor_rounds = (0..5)
        .map(|_| {
            let start = Instant::now();
            let (found, open) = floor.walk();
            let took = start.elapsed();
            assert_eq!(found, in_chains, "the floor finds what the chains hold");
            for fd in open {
                // SAFETY: each descriptor was opened by this round and is closed once.
                unsafe { libc::close(fd) };
            }
            took
        })
        .collect();
    let walker_floor = middle(floor_rounds);
    let walker = Walker::new(options.clone());
    for file in &files {
        assert_eq!(
            walker.chain(file),
            chain(file, &options),
            "the walker agrees"
        );
    }
    let warm = median(5, 1, || {
        for file in &files {
            black_box(walker.chain(file).expect("a chain"));
        }
    });
    let warm_calls = calls(&mut || {
        for file in &files {
            black_box(walker.chain(file).expect("a chain"));
        }
    });
    let ratio = |d: Duration| plain.as_secs_f64() / d.as_secs_f64();
    println!(
        "plain chain per file:            {} for 1,000 ({} each), {plain_calls:.1} system calls each",
        show(plain),
        show(plain / 1000)
    );
    println!(
        "one new walker, each file once:  {} for 1,000 ({} each): {:.1}× faster, {cold_calls:.1} system calls each",
        show(cold),
        show(cold / 1000),
        ratio(cold)
    );
    println!(
        "the same walker, asked again:    {} for 1,000 ({} each): {:.1}× faster, {warm_calls:.1} system calls each",
        show(warm),
        show(warm / 1000),
        ratio(warm)
    );
    println!(
        "floor of a new walker:           {} for 1,000 ({} each): {:.1}× faster; a new walker is {:.2}× the floor",
        show(walker_floor),
        show(walker_floor / 1000),
        ratio(walker_floor),
        cold.as_secs_f64() / walker_floor.as_secs_f64()
    );
    println!(
        "dropping a walker of 204 watches: {} (not in the figures above)",
        show(dropped)
    );
    println!(
        "target: walker ≥ 10× faster than plain chains: asked again {}; new walker {} (the floor of a new walker {})",
        verdict(ratio(warm) >= 10.0),
        verdict(ratio(cold) >= 10.0),
        verdict(ratio(walker_floor) >= 10.0)
    );
}

fn renders() {
    println!("\n== render against memcpy of the same bytes (into a new buffer of the same size)");
    for (label, size) in [("1 MiB", 1 << 20), ("32 KiB", 32 << 10)] {
        let content: Vec<u8> = (0..size).map(|i| b"abcdefgh\n"[i % 9]).collect();
        let files = [(&b"/work/repo/AGENTS.md"[..], content.as_slice())];
        let rendered = render(&files).len();
        let (allocs, reallocs, bytes) = allocations(|| drop(black_box(render(&files))));
        let ours = time(|| drop(black_box(render(black_box(&files)))));
        let copy = time(|| {
            let mut out = Vec::with_capacity(content.len());
            out.extend_from_slice(black_box(&content));
            black_box(out);
        });
        let rate = |d: Duration, n: usize| n as f64 / d.as_secs_f64() / 1e9;
        println!(
            "{label:>7}: render {:.2} GB/s, memcpy {:.2} GB/s: {:.2}× memcpy ({}); {allocs} allocation of {bytes} bytes for {rendered} bytes out, {reallocs} reallocations",
            rate(ours, rendered),
            rate(copy, content.len()),
            rate(ours, rendered) / rate(copy, content.len()),
            verdict(rate(ours, rendered) / rate(copy, content.len()) >= 0.5)
        );
    }
}

fn system_calls(base: &Path) {
    println!("\n== System calls (library counter | strace -c -f)");
    let names = NAMES.join(",");
    let small = |name: &str, depth, every| trees::deep(base, name, depth, 10, every);
    let (miss32, miss16) = (small("miss32", 32, 0), small("miss16", 16, 0));
    let (hit32, hit16) = (small("hit32", 32, 1), small("hit16", 16, 1));
    let strace = syscalls::strace_available();
    if !strace {
        println!("(strace not found: `apt-get install -y strace` for its column)");
    }
    let per_dir = |long: &trees::Deep, short: &trees::Deep| {
        let counted = |t: &trees::Deep| syscalls::counted(Kind::Chain, &t.root, &t.path, &names);
        let ours = (counted(long) - counted(short)) as f64 / 16.0;
        let fixed = counted(long) as f64 - 32.0 * ours;
        let traced = strace.then(|| {
            let long = syscalls::per_call(Kind::Chain, &long.root, &long.path, &names);
            let short = syscalls::per_call(Kind::Chain, &short.root, &short.path, &names);
            let mut diff = long.clone();
            for (name, n) in &mut diff {
                *n = (*n - short.get(name).copied().unwrap_or(0.0)) / 16.0;
            }
            diff.retain(|_, n| *n > 0.0);
            (syscalls::show(&diff), syscalls::show(&long))
        });
        (ours, fixed, traced)
    };
    for (label, long, short) in [
        ("directory without a hit", &miss32, &miss16),
        ("directory with a hit (read)", &hit32, &hit16),
    ] {
        let (ours, fixed, traced) = per_dir(long, short);
        println!(
            "per {label}: {ours} | {}",
            traced.as_ref().map_or("-".into(), |t| t.0.clone())
        );
        if label.contains("without") {
            println!(
                "  target: ≤ names + 2 = {} ({}); whole 32-deep chain: {} | {}; fixed part {fixed}",
                NAMES.len() + 2,
                verdict(ours <= (NAMES.len() + 2) as f64),
                syscalls::counted(Kind::Chain, &long.root, &long.path, &names),
                traced.map_or("-".into(), |t| t.1)
            );
        }
    }
    let deep = trees::deep(base, "walker32", 32, 100, 8);
    let files = chain(deep.path.as_os_str().as_bytes(), &options(&deep.root))
        .expect("a chain")
        .files
        .len();
    let ours = syscalls::counted(Kind::Walker, &deep.root, &deep.path, &names);
    let traced = strace.then(|| syscalls::per_call(Kind::Walker, &deep.root, &deep.path, &names));
    println!(
        "walker call on an unchanged 32-deep tree, {files} files in the chain: {ours} | {}",
        traced.as_ref().map_or("-".into(), syscalls::show)
    );
    println!(
        "  target: ≤ 1 + files = {} ({})",
        1 + files,
        verdict(ours as usize <= 1 + files)
    );
    if strace {
        let plain = syscalls::per_call(Kind::Chain, &deep.root, &deep.path, &names);
        let listings = plain.get("getdents64").copied().unwrap_or(0.0);
        println!(
            "directory listings (getdents64) per plain chain on this file system: {listings} ({})",
            verdict(listings == 0.0)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if syscalls::probe(&args) {
        return;
    }
    let base = tempfile::Builder::new()
        .prefix("agentsmd-bench")
        .tempdir()
        .expect("a temporary directory");
    machine(base.path());
    deep_chains(base.path());
    project_chains(base.path());
    renders();
    system_calls(base.path());
}
