//! Structure's cost (SPEC.md §6): `cargo bench --bench structure`.
//!
//! Parse, resolve the skills and block a typical 1 MiB instruction file, in MB/s (the target is
//! 100 MB/s), then the worst inputs we could build — 100,000 headings, 1 MiB of fence
//! characters, 10,000 skills, a comment that never closes, front matter of 1 MiB of names — in
//! ns per byte against the typical file (the target is at most 10×), each also at half its size:
//! every step is linear, never quadratic, so the ns/byte at both sizes agree.
//!
//! `probe NAME COUNT` runs one input COUNT times and nothing else: `valgrind --tool=callgrind`
//! of `probe NAME 1` minus `probe NAME 0` is one run's instructions, the figure BENCHMARKS.md
//! gives (the wall clock moves with the machine's load; the count does not).

use std::fmt::Write;
use std::hint::black_box;
use std::time::{Duration, Instant};

use agentsmd_core::structure::{self, BlockOptions, SkillOptions};

const MIB: usize = 1 << 20;

/// A worst input of the given size (bytes or count, as its name says).
type Generate = fn(usize) -> Vec<u8>;

/// A file as people write them: front matter requesting three skills, sections of prose, lists
/// and fenced examples with deeper headings inside, and the three skill sections at the end.
fn typical() -> Vec<u8> {
    let mut text = String::from("---\nskills: [review, release, triage]\ntitle: Agents\n---\n");
    text.push_str(
        "This repository builds a library. Read this file before you change anything.\n\n",
    );
    let mut section = 0;
    while text.len() < MIB - 2048 {
        section += 1;
        write!(
            text,
            "## Section {section}\n\n\
             Keep functions small and name them for what they do. Every public item has a doc\n\
             comment that says what it owns, what it borrows and what it returns on failure.\n\n\
             - Run `cargo test --lib` before you commit.\n\
             - Never push to another engineer's branch.\n\n\
             ### Example\n\n\
             ```sh\n# a comment, not a heading\ncargo clippy --all-targets -- -D warnings\n```\n\n"
        )
        .unwrap();
    }
    for skill in ["review", "release", "triage"] {
        write!(
            text,
            "## Skill: {skill}\n\nDo the {skill} steps in order.\n\n"
        )
        .unwrap();
    }
    text.into_bytes()
}

/// `count` level-2 headings, each its own unit.
fn headings(count: usize) -> Vec<u8> {
    (0..count)
        .flat_map(|i| format!("## H{i}\n").into_bytes())
        .collect()
}

/// `bytes` of fence lines: a fence opened and closed on every other line.
fn fence_lines(bytes: usize) -> Vec<u8> {
    b"```\n".repeat(bytes / 4)
}

/// `bytes` backticks on one line.
fn fence_run(bytes: usize) -> Vec<u8> {
    vec![b'`'; bytes]
}

/// How the front matter lists the names of [`skills`].
#[derive(Clone, Copy)]
enum List {
    /// `skills: [skill-0, skill-1, ...]`.
    Flow,
    /// `skills:` then `- skill-N` lines.
    Block,
    /// `skills:` then `- ! skill-N` lines: each name with YAML's non-specific tag, the costliest
    /// list per byte we found (callgrind, 10,000 names: on main this 122.4 instr/byte, a block
    /// list 98.6, a flow list 94.0, quoted names 88.7–89.1; once plain names were cheaper this
    /// 113.2, `!!str` 112.1, anchored names 103.5, single-quoted ones in a block list 91.3).
    Tagged,
}

/// `count` inline skills, all requested by the front matter as `list` says.
fn skills_listed(count: usize, list: List) -> Vec<u8> {
    let names: Vec<String> = (0..count).map(|i| format!("skill-{i}")).collect();
    let mut text = String::from("---\nskills:");
    match list {
        List::Flow => writeln!(text, " [{}]", names.join(", ")).unwrap(),
        List::Block | List::Tagged => {
            let tag = if matches!(list, List::Tagged) {
                "! "
            } else {
                ""
            };
            text.push('\n');
            for name in &names {
                writeln!(text, "- {tag}{name}").unwrap();
            }
        }
    }
    text.push_str("---\n");
    for name in &names {
        write!(text, "## Skill: {name}\n\nDo {name}.\n\n").unwrap();
    }
    text.into_bytes()
}

/// `count` inline skills requested by the costliest list.
fn skills(count: usize) -> Vec<u8> {
    skills_listed(count, List::Tagged)
}

/// `count` inline skills requested by a block list of plain names.
fn skills_block(count: usize) -> Vec<u8> {
    skills_listed(count, List::Block)
}

/// `count` inline skills requested by a flow list of plain names.
fn skills_flow(count: usize) -> Vec<u8> {
    skills_listed(count, List::Flow)
}

/// Front matter of `bytes` requesting one name over and over: the YAML parser's worst.
fn front_matter_names(bytes: usize) -> Vec<u8> {
    let mut text = b"---\nskills: [".to_vec();
    while text.len() < bytes {
        text.extend_from_slice(b"name, ");
    }
    text.extend_from_slice(b"last]\n---\nbody\n");
    text
}

/// An HTML comment opened on line 1 and never closed, with `-->`-like noise on every line.
fn open_comment(bytes: usize) -> Vec<u8> {
    let mut text = b"<!-- never closed\n".to_vec();
    while text.len() < bytes {
        text.extend_from_slice(b"-- > - ->  --- a line inside the comment ## not a heading\n");
    }
    text
}

/// Parse, resolve and block `text` once.
#[inline(never)]
fn run(text: &[u8]) {
    let document = structure::parse(text);
    let skills = document
        .resolve_skills(&SkillOptions::default(), &agentsmd_core::Options::default())
        .unwrap();
    black_box(structure::block(&document, &skills, &BlockOptions::default()).unwrap());
}

/// The median of 9 timed runs of [`run`].
fn time(text: &[u8]) -> Duration {
    let mut times: Vec<Duration> = (0..9)
        .map(|_| {
            let start = Instant::now();
            run(text);
            start.elapsed()
        })
        .collect();
    times.sort();
    times[4]
}

fn ns_per_byte(text: &[u8], took: Duration) -> f64 {
    took.as_nanos() as f64 / text.len() as f64
}

/// The inputs by name, for `probe NAME COUNT`: [`run`] of one input `COUNT` times and nothing
/// else, so that `valgrind --tool=callgrind` of probes of 1 and 0 runs counts the instructions of
/// one run, the same figure in every run.
fn probe(args: &[String]) -> bool {
    let Some(at) = args.iter().position(|a| a == "probe") else {
        return false;
    };
    let (Some(name), Some(count)) = (args.get(at + 1), args.get(at + 2)) else {
        panic!(
            "usage: probe typical|headings|fence-lines|fence-run|skills|skills-block|skills-flow|\
             comment|names COUNT"
        );
    };
    let text = match name.as_str() {
        "typical" => typical(),
        "headings" => headings(100_000),
        "fence-lines" => fence_lines(MIB),
        "fence-run" => fence_run(MIB),
        "skills" => skills(10_000),
        "skills-block" => skills_block(10_000),
        "skills-flow" => skills_flow(10_000),
        "comment" => open_comment(MIB),
        "names" => front_matter_names(MIB),
        other => panic!("no input {other:?}"),
    };
    let count: usize = count.parse().expect("COUNT is a number");
    for _ in 0..count {
        run(&text);
    }
    eprintln!("{} bytes", text.len());
    true
}

fn main() {
    if probe(&std::env::args().collect::<Vec<_>>()) {
        return;
    }
    let base = typical();
    let took = time(&base);
    let base_ns = ns_per_byte(&base, took);
    let mb_s = base.len() as f64 / took.as_secs_f64() / 1e6;
    let verdict = |ok: bool| if ok { "meets" } else { "MISSES" };
    println!(
        "typical {} bytes: {:.2} ms, {mb_s:.0} MB/s, {base_ns:.2} ns/byte ({} the 100 MB/s target)",
        base.len(),
        took.as_secs_f64() * 1e3,
        verdict(mb_s >= 100.0)
    );
    // Each at full size and at half: the same ns/byte at both is what linear means.
    let worst: [(&str, Generate, usize); 8] = [
        ("100,000 headings", headings, 100_000),
        ("1 MiB of fence lines", fence_lines, MIB),
        ("1 MiB backtick run", fence_run, MIB),
        ("10,000 skills", skills, 10_000),
        ("10,000 skills, block", skills_block, 10_000),
        ("10,000 skills, flow", skills_flow, 10_000),
        ("unclosed comment", open_comment, MIB),
        ("1 MiB of YAML names", front_matter_names, MIB),
    ];
    for (name, make, size) in worst {
        let text = make(size);
        let took = time(&text);
        let ns = ns_per_byte(&text, took);
        let half = make(size / 2);
        let half_ns = ns_per_byte(&half, time(&half));
        let ratio = ns / base_ns;
        println!(
            "{name:<22} {:>8} bytes: {:>7.2} ms, {ns:>6.2} ns/byte ({half_ns:.2} at half size), \
             {ratio:>5.1}x typical ({} the 10x target)",
            text.len(),
            took.as_secs_f64() * 1e3,
            verdict(ratio <= 10.0)
        );
    }
}
