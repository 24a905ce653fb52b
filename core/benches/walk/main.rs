//! The benchmark of BENCHMARKS.md, side by side in one run: `cargo bench --bench walk`.
//!
//! It generates its trees in a temporary directory, checks that every walk compared finds the
//! same files, and prints: a chain on a 32-deep path of wide directories against the listing
//! walk; a chain against the whole-path floor at depths 1 to 256; what each §5 option adds;
//! `render` against `memcpy`; a session over 1,000 files against a chain per touch, the floor
//! and Gemini CLI's loop; the system calls of a chain per directory; and those of the
//! portable path every other Unix takes against Linux's own calls. Times are wall
//! clock, the walks compared interleaved in each round; system calls are counted by strace,
//! instructions by callgrind. Each ratio says which measure it uses.

// The listing walk and the whole-path floor are made of Unix's system calls, and so are the
// tables that set the chain beside them: on Windows only the rest is measured.
#[cfg(unix)]
mod baselines;
mod counts;
mod measure;
#[cfg(unix)]
mod sessions;
mod trees;

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use agentsmd_core::{chain, render};
#[cfg(unix)]
use baselines::Floor;
use counts::{available, instructions, traced, traced_on, Calls, Case, Layer};
use measure::{allocations, show, side_by_side, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

pub const NAMES: [&str; 2] = ["AGENTS.override.md", "AGENTS.md"];

/// The chain before the core (the commit before it, `src/` of the top-level crate), measured
/// on this machine beside the same whole-path floor in one run (BENCHMARKS.md, "The code
/// before"): depth, its time in µs, and its time over the floor's.
#[cfg(unix)]
const BEFORE: [(usize, f64, f64); 3] = [(64, 131.1, 0.68), (128, 256.5, 0.40), (256, 589.6, 0.23)];

fn verdict(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "NOT MET"
    }
}

fn machine(base: &Path) {
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let fs = std::process::Command::new("stat")
        .args(["-f", "-c", "%T"])
        .arg(base)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!(
        "trees in {} ({fs}); Linux {}; {cpus} CPUs; load {}",
        base.display(),
        kernel.trim(),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
}

/// The files a chain reads, as their sizes, for comparing walks.
#[cfg(unix)]
fn sizes(root: &Path, path: &Path, case: Case) -> Vec<usize> {
    let chain = chain(path, &case.options(root)).expect("a chain");
    chain.files.iter().map(|f| f.content.len()).collect()
}

#[cfg(unix)]
fn wide(base: &Path, strace: bool) {
    println!(
        "\n== A chain on a 32-deep path (AGENTS.md every 8 levels, names {NAMES:?}), wall clock"
    );
    println!(
        "{:>8} {:>12} {:>14} {:>12} {:>14} {:>12}",
        "entries", "ours", "listing walk", "floor", "listing/ours", "ours/floor"
    );
    for width in [100, 1_000, 10_000] {
        let tree = trees::deep(base, &format!("wide{width}"), 32, width, 8);
        let options = Case::Chain.options(&tree.root);
        let ours_files = sizes(&tree.root, &tree.path, Case::Chain);
        let listed = baselines::listing_walk(&tree.dirs, &NAMES);
        let listed: Vec<usize> = listed.iter().map(|(_, c)| c.len()).collect();
        assert_eq!(ours_files, listed, "the walks agree");
        let mut floor = Floor::new(&tree.root, &tree.path, &NAMES);
        assert_eq!(floor.walk(), ours_files, "the floor agrees");
        let (times, ratios) = side_by_side(&mut [
            &mut || drop(black_box(chain(&tree.path, &options))),
            &mut || drop(black_box(baselines::listing_walk(&tree.dirs, &NAMES))),
            &mut || drop(black_box(floor.walk())),
        ]);
        println!(
            "{width:>8} {:>12} {:>14} {:>12} {:>13.0}× {:>11.2}×",
            show(times[0]),
            show(times[1]),
            show(times[2]),
            ratios[1],
            1.0 / ratios[2]
        );
        if width == 10_000 {
            println!(
                "target at 10,000 entries: ≥ 200× faster than listing (wall clock): {}",
                verdict(ratios[1] >= 200.0)
            );
            if strace {
                let listings = traced(Case::Chain, &tree.root, &tree.path).get("getdents64");
                println!(
                    "target: no directory listed on this case-sensitive file system (strace, getdents64 per chain): {listings} ({})",
                    verdict(listings == 0.0)
                );
            }
        }
    }
}

/// The depths of the floor's table.
#[cfg(unix)]
const DEPTHS: [usize; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 256];

#[cfg(unix)]
fn depths(base: &Path, strace: bool, callgrind: bool) {
    println!("\n== A chain against the whole-path floor, by depth (10 entries per directory, AGENTS.md every 8 levels from the root)");
    println!("   time: wall clock, median of 9 interleaved rounds; calls: strace -c -f per chain");
    println!(
        "{:>6} {:>11} {:>11} {:>11} {:>11} {:>12} {:>11}",
        "depth", "ours", "floor", "ours/floor", "ours calls", "floor calls", "ours/floor"
    );
    let mut calls_missed = Vec::new();
    let mut short_met = true;
    let mut deep_met = true;
    let mut against_before = Vec::new();
    let mut user_space = Vec::new();
    for depth in DEPTHS {
        let tree = trees::deep(base, &format!("depth{depth}"), depth, 10, 8);
        if callgrind && [1, 8, 64, 256].contains(&depth) {
            let ours = instructions(Case::Chain, &tree.root, &tree.path);
            let floor = instructions(Case::Floor, &tree.root, &tree.path);
            user_space.push(format!("depth {depth} {ours:.0} (floor {floor:.0})"));
        }
        let options = Case::Chain.options(&tree.root);
        let mut floor = Floor::new(&tree.root, &tree.path, &NAMES);
        assert_eq!(
            floor.walk(),
            sizes(&tree.root, &tree.path, Case::Chain),
            "the floor agrees"
        );
        let (times, ratios) = side_by_side(&mut [
            &mut || drop(black_box(chain(&tree.path, &options))),
            &mut || drop(black_box(floor.walk())),
        ]);
        let time_ratio = 1.0 / ratios[1];
        // To a tenth: a run of 100 walks may make one call more than the walks do.
        let calls = |case| (traced(case, &tree.root, &tree.path).total() * 10.0).round() / 10.0;
        let (ours_calls, floor_calls) = match strace {
            true => (calls(Case::Chain), calls(Case::Floor)),
            false => (f64::NAN, f64::NAN),
        };
        if strace && ours_calls > 1.25 * floor_calls {
            calls_missed.push(depth.to_string());
        }
        if depth <= 8 {
            short_met &= time_ratio <= 1.2;
        }
        if let Some(&(_, before_us, before_ratio)) = BEFORE.iter().find(|(d, _, _)| *d == depth) {
            deep_met &= time_ratio <= before_ratio;
            against_before.push(format!(
                "depth {depth}: ours {:.2}× the floor, the code before {before_ratio:.2}× ({before_us:.0} µs)",
                time_ratio
            ));
        }
        println!(
            "{depth:>6} {:>11} {:>11} {:>10.2}× {:>11.1} {:>12.1} {:>10.2}×",
            show(times[0]),
            show(times[1]),
            time_ratio,
            ours_calls,
            floor_calls,
            ours_calls / floor_calls
        );
    }
    println!(
        "target: ≤ 1.25× the floor's system calls at every depth (strace): {}{}",
        verdict(strace && calls_missed.is_empty()),
        match calls_missed.is_empty() {
            true => String::new(),
            false => format!(" at depth {}", calls_missed.join(", ")),
        }
    );
    println!(
        "target: within 1.2× of the floor's time at depths 1–8 (wall clock): {}",
        verdict(short_met)
    );
    println!("{}", against_before.join("; "));
    if callgrind {
        println!(
            "user-space instructions of one chain (callgrind): {}",
            user_space.join(", ")
        );
    }
    println!(
        "target: at least as fast as the code before at depths 64–256 (wall clock, each over the floor of its own run): {}",
        verdict(deep_met)
    );
}

fn composition(base: &Path, strace: bool, callgrind: bool) {
    println!("\n== Composition (SPEC.md §5): per directory on a 32-deep tree of 10 entries each, the rest on the composed 32-deep tree of 100");
    let plain = trees::deep(base, "plain32", 32, 10, 8);
    let composed = trees::composed(base, "composed32");
    let (root, path) = (&composed.root, &composed.path);
    if strace {
        let per = |tree: &trees::Deep, case: Case, minus: Case, divisor: f64| {
            traced(case, &tree.root, &tree.path)
                .minus(&traced(minus, &tree.root, &tree.path), divisor)
        };
        let fragments = per(&plain, Case::Fragments, Case::Chain, 32.0);
        println!(
            "fragments, per directory without its fragment directory (strace): {}",
            counts::show(&fragments)
        );
        let overlay = per(&composed, Case::Overlay, Case::Chain, 1.0);
        let both = per(&composed, Case::Both, Case::Fragments, 1.0);
        println!(
            "one overlay, its AGENTS.md read (strace): {}",
            counts::show(&overlay)
        );
        println!(
            "the same overlay with fragments on (strace): {}",
            counts::show(&both)
        );
        let overlay_fragments = both.minus(&overlay, 1.0);
        println!(
            "target: at most one failed lookup per directory where the fragment directory is absent (strace): walk {} ({}), overlay {} ({})",
            counts::show(&fragments),
            verdict(fragments.total() <= 1.0 && fragments.failed() <= 1.0),
            counts::show(&overlay_fragments),
            verdict(overlay_fragments.total() <= 1.0 && overlay_fragments.failed() <= 1.0)
        );
        let imports = per(&composed, Case::Imports, Case::Chain, 1.0);
        let reads = (imports.get("read") + imports.get("pread64")) / trees::IMPORTED as f64;
        println!(
            "imports, {} files imported into the root's AGENTS.md (strace): {}",
            trees::IMPORTED,
            counts::show(&imports)
        );
        println!(
            "target: one read per imported file (strace, read or pread64): {reads} ({})",
            verdict(reads == 1.0)
        );
    }
    let on = Case::All.options(root);
    let off = Case::Chain.options(root);
    assert_eq!(chain(path, &on).expect("a chain").files.len(), 4 + 2 + 1);
    let alone = [
        ("fragments", Case::Fragments.options(root)),
        ("overlay", Case::Overlay.options(root)),
        ("imports", Case::Imports.options(root)),
        ("report", Case::Chain.options(root).report(true)),
    ];
    let mut walks: Vec<Box<dyn FnMut()>> = vec![
        Box::new(|| drop(black_box(chain(path, &off)))),
        Box::new(|| drop(black_box(chain(path, &on)))),
    ];
    for (_, options) in &alone {
        walks.push(Box::new(move || drop(black_box(chain(path, options)))));
    }
    let mut walks: Vec<&mut dyn FnMut()> = walks.iter_mut().map(|w| &mut **w as _).collect();
    let (times, ratios) = side_by_side(&mut walks);
    println!(
        "every §5 option on (fragments, overlay, imports, report; nearest off) against all off: {} against {}: {:.2}× (wall clock)",
        show(times[1]),
        show(times[0]),
        ratios[1]
    );
    let each: Vec<String> = alone
        .iter()
        .zip(&ratios[2..])
        .map(|((name, _), ratio)| format!("{name} {ratio:.2}×"))
        .collect();
    println!(
        "  each option alone against all off (wall clock): {}",
        each.join(", ")
    );
    // The verdict is the wall clock's (issue 12); callgrind is reported beside it, the same
    // in every run.
    let met = ratios[1] <= 2.0;
    if strace {
        let (all, none) = (
            traced(Case::All, root, path),
            traced(Case::Chain, root, path),
        );
        println!(
            "  system calls: {:.1} against {:.1}: {:.2}× (strace)",
            all.total(),
            none.total(),
            all.total() / none.total()
        );
    }
    if callgrind {
        let (all, none) = (
            instructions(Case::All, root, path),
            instructions(Case::Chain, root, path),
        );
        let ratio = all / none;
        println!("  user-space instructions: {all:.0} against {none:.0}: {ratio:.2}× (callgrind)");
    }
    println!(
        "target: every option on within 2× of all off (wall clock): {}",
        verdict(met)
    );
}

fn renders() {
    println!("\n== render against memcpy of the same bytes (into a new buffer of the same size), wall clock");
    for (label, size) in [("1 MiB", 1 << 20), ("32 KiB", 32 << 10)] {
        let content: Vec<u8> = (0..size).map(|i| b"abcdefgh\n"[i % 9]).collect();
        let files = [(&b"/work/repo/AGENTS.md"[..], content.as_slice())];
        let rendered = render(files).len();
        let (allocs, reallocs, bytes) = allocations(|| drop(black_box(render(files))));
        let (times, _) = side_by_side(&mut [
            &mut || drop(black_box(render(black_box(files)))),
            &mut || {
                let mut out = Vec::with_capacity(content.len());
                out.extend_from_slice(black_box(&content));
                black_box(out);
            },
        ]);
        let rate = |d: Duration, n: usize| n as f64 / d.as_secs_f64() / 1e9;
        let ratio = rate(times[0], rendered) / rate(times[1], content.len());
        println!(
            "{label:>7}: render {:.2} GB/s, memcpy {:.2} GB/s: {ratio:.2}× memcpy ({}); {allocs} allocation of {bytes} bytes for {rendered} bytes out, {reallocs} reallocations",
            rate(times[0], rendered),
            rate(times[1], content.len()),
            verdict(ratio >= 0.5)
        );
    }
}

fn per_directory(base: &Path) {
    println!("\n== System calls of a chain per directory (strace, a 32-deep chain minus a 16-deep one, 10 entries per directory)");
    let small = |name: &str, depth, every| trees::deep(base, name, depth, 10, every);
    for (label, every) in [("without a hit", 0), ("with a hit (read)", 1)] {
        let long = small(&format!("per{every}-32"), 32, every);
        let short = small(&format!("per{every}-16"), 16, every);
        let calls: Calls = traced(Case::Chain, &long.root, &long.path)
            .minus(&traced(Case::Chain, &short.root, &short.path), 16.0);
        println!("per directory {label}: {}", counts::show(&calls));
    }
}

fn portable(base: &Path) {
    println!("\n== System calls of a chain, Linux's own calls against the portable path of every other Unix (SPEC.md §8.1; strace, the portable path selected on Linux by AGENTSMD_TEST_PORTABLE=1; 10 entries per directory, AGENTS.md every 8 levels)");
    println!(
        "{:>6} {:>10} {:>10} {:>10} {:>10}",
        "depth", "linux", "portable", "linux", "portable"
    );
    println!("{:>6} {:>21} {:>21}", "", "unconfined", "confined");
    let mut details = Vec::new();
    for depth in [1, 8, 32] {
        let tree = trees::deep(base, &format!("portable{depth}"), depth, 10, 8);
        let calls = |case, layer| traced_on(case, layer, &tree.root, &tree.path);
        let counts = [
            calls(Case::Chain, Layer::Linux),
            calls(Case::Chain, Layer::Portable),
            calls(Case::Confined, Layer::Linux),
            calls(Case::Confined, Layer::Portable),
        ];
        let total = |calls: &Calls| (calls.total() * 10.0).round() / 10.0;
        println!(
            "{depth:>6} {:>10.1} {:>10.1} {:>10.1} {:>10.1}",
            total(&counts[0]),
            total(&counts[1]),
            total(&counts[2]),
            total(&counts[3])
        );
        if depth == 32 {
            let labels = ["linux", "portable", "linux confined", "portable confined"];
            for (label, calls) in labels.iter().zip(&counts) {
                details.push(format!("  {label}: {}", counts::show(calls)));
            }
        }
    }
    println!("depth 32, by call:\n{}", details.join("\n"));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if counts::probe(&args) {
        return;
    }
    #[cfg(unix)]
    if sessions::probe(&args) {
        return;
    }
    let base = tempfile::Builder::new()
        .prefix("agentsmd-bench")
        .tempdir()
        .expect("a temporary directory");
    let strace = available("strace");
    let callgrind = available("valgrind");
    if !strace {
        println!("(strace not found: `apt-get install -y strace` for the system-call counts)");
    }
    if !callgrind {
        println!("(valgrind not found: `apt-get install -y valgrind` for the instruction counts)");
    }
    machine(base.path());
    // `cargo bench --bench walk -- sessions`: the session block alone.
    #[cfg(unix)]
    if args.iter().any(|a| a == "sessions") {
        sessions::run(base.path(), strace);
        return;
    }
    #[cfg(unix)]
    {
        wide(base.path(), strace);
        depths(base.path(), strace, callgrind);
    }
    composition(base.path(), strace, callgrind);
    renders();
    #[cfg(unix)]
    sessions::run(base.path(), strace);
    if strace {
        per_directory(base.path());
        portable(base.path());
    }
}
