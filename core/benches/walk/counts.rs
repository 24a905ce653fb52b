//! Counts that do not move with the machine's load, taken around a probe run of this program
//! (`probe CASE ROOT PATH COUNT`): system calls by `strace -c -f`, and user-space instructions
//! by `valgrind --tool=callgrind`. Each is the difference of a run of `COUNT` walks and a run of
//! none, divided by `COUNT`, so that it is the walks' alone.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

use agentsmd_core::{chain, Options};

#[cfg(unix)]
use crate::baselines::Floor;
use crate::trees::{overlay_of, FRAGMENTS};
use crate::NAMES;

/// What a probe run does `COUNT` times.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// A plain chain.
    Chain,
    /// A chain with the fragment directory [`FRAGMENTS`].
    Fragments,
    /// A chain with the overlay [`overlay_of`] the root.
    Overlay,
    /// A chain with both: the fragment directory and the overlay.
    Both,
    /// A chain expanding imports.
    Imports,
    /// A chain with every §5 option on: fragments, the overlay, imports, report; nearest off.
    All,
    /// A plain chain, confined to its root.
    Confined,
    /// The whole-path floor ([`Floor`]).
    Floor,
}

const CASES: [(Case, &str); 8] = [
    (Case::Chain, "chain"),
    (Case::Fragments, "fragments"),
    (Case::Overlay, "overlay"),
    (Case::Both, "both"),
    (Case::Imports, "imports"),
    (Case::All, "all"),
    (Case::Confined, "confined"),
    (Case::Floor, "floor"),
];

impl Case {
    fn name(self) -> &'static str {
        CASES.iter().find(|(c, _)| *c == self).expect("a case").1
    }

    /// The options of a chain of this case below `root`.
    pub fn options(self, root: &Path) -> Options {
        let options = Options::new().names(NAMES).root(root);
        match self {
            Case::Chain | Case::Floor => options,
            Case::Fragments => options.fragments([FRAGMENTS]),
            Case::Overlay => options.overlays([overlay_of(root)]),
            Case::Both => options.fragments([FRAGMENTS]).overlays([overlay_of(root)]),
            Case::Imports => options.imports(true),
            Case::All => options
                .fragments([FRAGMENTS])
                .overlays([overlay_of(root)])
                .imports(true)
                .nearest(false)
                .report(true),
            Case::Confined => options.confine(true),
        }
    }
}

/// When the arguments are `probe CASE ROOT PATH COUNT`, runs the probe and returns true.
pub fn probe(args: &[String]) -> bool {
    let Some(at) = args.iter().position(|a| a == "probe") else {
        return false;
    };
    let [case, root, path, count] = &args[at + 1..at + 5] else {
        panic!("usage: probe CASE ROOT PATH COUNT");
    };
    let case = CASES.iter().find(|(_, n)| n == case).expect("a case").0;
    let count: usize = count.parse().expect("a count");
    let (root, path) = (Path::new(root), Path::new(path));
    if case == Case::Floor {
        #[cfg(unix)]
        {
            let mut floor = Floor::new(root, path, &NAMES);
            for _ in 0..count {
                floor.walk();
            }
        }
        // The floor is Unix's system calls (baselines.rs).
        #[cfg(not(unix))]
        panic!("no whole-path floor off Unix");
    } else {
        let options = case.options(root);
        for _ in 0..count {
            chain(path, &options).expect("a chain");
        }
    }
    true
}

/// The command of a probe run: this program, then `probe CASE ROOT PATH COUNT`.
fn probe_run(case: Case, root: &Path, path: &Path, count: usize) -> Vec<OsString> {
    vec![
        std::env::current_exe().expect("this program").into(),
        "probe".into(),
        case.name().into(),
        root.into(),
        path.into(),
        count.to_string().into(),
    ]
}

/// Whether `program` runs here.
pub fn available(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The system calls of one walk, by name, as strace counts them, and of those the failed ones.
#[derive(Clone, Debug, Default)]
pub struct Calls {
    pub made: BTreeMap<String, f64>,
    pub failed: BTreeMap<String, f64>,
}

impl Calls {
    pub fn total(&self) -> f64 {
        self.made.values().sum()
    }

    pub fn get(&self, name: &str) -> f64 {
        self.made.get(name).copied().unwrap_or(0.0)
    }

    pub fn failed(&self) -> f64 {
        self.failed.values().sum()
    }

    /// `self` minus `other`, divided by `by`.
    pub fn minus(&self, other: &Calls, by: f64) -> Calls {
        let diff = |a: &BTreeMap<String, f64>, b: &BTreeMap<String, f64>| {
            let names: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            names
                .into_iter()
                .map(|n| {
                    let d = a.get(n).copied().unwrap_or(0.0) - b.get(n).copied().unwrap_or(0.0);
                    (n.clone(), d / by)
                })
                .filter(|(_, d)| *d != 0.0)
                .collect()
        };
        Calls {
            made: diff(&self.made, &other.made),
            failed: diff(&self.failed, &other.failed),
        }
    }
}

/// `calls` as "total (name n, name n, …)", failed calls after a slash.
pub fn show(calls: &Calls) -> String {
    // Two decimals at most: a run of 100 walks may make one call more than the walks do.
    let n = |n: f64| format!("{}", (n * 100.0).round() / 100.0);
    let parts: Vec<String> = calls
        .made
        .iter()
        .map(|(name, made)| match calls.failed.get(name) {
            Some(failed) => format!("{name} {}, {} failed", n(*made), n(*failed)),
            None => format!("{name} {}", n(*made)),
        })
        .collect();
    format!("{} ({})", n(calls.total()), parts.join("; "))
}

/// Which OS layer a probe run takes: Linux's own calls, or the portable path of every other
/// Unix (selected on Linux by `AGENTSMD_TEST_PORTABLE=1`, which this benchmark's build of the
/// library reads: feature `test-portable`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    Linux,
    Portable,
}

fn strace_run(case: Case, layer: Layer, root: &Path, path: &Path, count: usize) -> Calls {
    let run = probe_run(case, root, path, count);
    let env: &[(&str, &str)] = match layer {
        Layer::Linux => &[],
        Layer::Portable => &[("AGENTSMD_TEST_PORTABLE", "1")],
    };
    strace(&run, env)
}

/// The system calls of the command `run` (its program first) with `env` added, as
/// `strace -c -f` counts them.
pub fn strace(run: &[OsString], env: &[(&str, &str)]) -> Calls {
    let out = tempfile::NamedTempFile::new().expect("a temporary file");
    let status = Command::new("strace")
        .args(["-f", "-c", "-o"])
        .arg(out.path())
        .arg("--")
        .args(run)
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::null())
        .status()
        .expect("strace");
    assert!(status.success(), "the probe run succeeds");
    let text = std::fs::read_to_string(out.path()).expect("strace's table");
    let mut calls = Calls::default();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        // % time, seconds, usecs/call, calls, [errors,] syscall
        if words.len() < 5 || words[0].starts_with('%') || words[0].starts_with('-') {
            continue;
        }
        let name = words[words.len() - 1];
        if name == "total" {
            continue;
        }
        let number = |at: usize| words[at].parse::<f64>().expect("a count");
        calls.made.insert(name.to_string(), number(3));
        if words.len() == 6 {
            calls.failed.insert(name.to_string(), number(4));
        }
    }
    calls
}

/// The system calls of one walk of `case`, as strace counts them.
pub fn traced(case: Case, root: &Path, path: &Path) -> Calls {
    traced_on(case, Layer::Linux, root, path)
}

/// The system calls of one walk of `case` through `layer`, as strace counts them.
pub fn traced_on(case: Case, layer: Layer, root: &Path, path: &Path) -> Calls {
    const COUNT: usize = 100;
    let run = strace_run(case, layer, root, path, COUNT);
    run.minus(&strace_run(case, layer, root, path, 0), COUNT as f64)
}

fn callgrind_run(case: Case, root: &Path, path: &Path, count: usize) -> f64 {
    let args = ["--tool=callgrind", "--callgrind-out-file=/dev/null"];
    let output = Command::new("valgrind")
        .args(args)
        .args(probe_run(case, root, path, count))
        .output()
        .expect("valgrind");
    assert!(output.status.success(), "the probe run succeeds");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let collected = stderr
        .lines()
        .find_map(|line| line.split("Collected :").nth(1))
        .expect("callgrind's total");
    collected.trim().parse().expect("a count")
}

/// The user-space instructions of one walk of `case`, as callgrind counts them.
pub fn instructions(case: Case, root: &Path, path: &Path) -> f64 {
    const COUNT: usize = 20;
    let run = callgrind_run(case, root, path, COUNT);
    (run - callgrind_run(case, root, path, 0)) / COUNT as f64
}
