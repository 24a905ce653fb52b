//! System calls per call, counted two ways: in-process by the library
//! (`agentsmd::fs::system_calls`), and by `strace -c -f` around a probe run of this program —
//! once making `COUNT` calls and once making none, so that the difference is the calls' alone.

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::Command;

use agentsmd::{Options, Walker};

/// What a probe run does `COUNT` times.
#[derive(Clone, Copy)]
pub enum Kind {
    /// A plain chain.
    Chain,
    /// A call of a walker already asked once.
    Walker,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Chain => "chain",
            Kind::Walker => "walker",
        }
    }
}

fn options(root: &[u8], names: &str) -> Options {
    Options {
        names: names.split(',').map(|n| n.as_bytes().to_vec()).collect(),
        root: root.to_vec(),
        ..Options::default()
    }
}

/// When the arguments are `probe KIND ROOT PATH NAMES COUNT`, runs the probe and returns true.
pub fn probe(args: &[String]) -> bool {
    let Some(at) = args.iter().position(|a| a == "probe") else {
        return false;
    };
    let [kind, root, path, names, count] = &args[at + 1..at + 6] else {
        panic!("usage: probe chain|walker ROOT PATH NAMES COUNT");
    };
    let count: usize = count.parse().expect("a count");
    let options = options(root.as_bytes(), names);
    match kind.as_str() {
        "chain" => {
            for _ in 0..count {
                agentsmd::chain(path, &options).expect("a chain");
            }
        }
        _ => {
            let walker = Walker::new(options);
            walker.chain(path).expect("a chain");
            for _ in 0..count {
                walker.chain(path).expect("a chain");
            }
        }
    }
    true
}

/// Whether strace runs here.
pub fn strace_available() -> bool {
    Command::new("strace")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The system calls strace counts in a probe run, by name.
fn strace_run(
    kind: Kind,
    root: &Path,
    path: &Path,
    names: &str,
    count: usize,
) -> BTreeMap<String, u64> {
    let out = tempfile::NamedTempFile::new().expect("a temporary file");
    let status = Command::new("strace")
        .args(["-f", "-c", "-o"])
        .arg(out.path())
        .arg(std::env::current_exe().expect("this program"))
        .arg("probe")
        .arg(kind.name())
        .arg(root)
        .arg(path)
        .arg(names)
        .arg(count.to_string())
        .status()
        .expect("strace runs");
    assert!(status.success(), "the probe failed under strace");
    let table = std::fs::read_to_string(out.path()).expect("strace's table");
    let mut calls = BTreeMap::new();
    for line in table.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        // % time, seconds, usecs/call, calls, [errors,] syscall
        if words.len() < 5 || words[0].starts_with('%') || words[0].starts_with('-') {
            continue;
        }
        let name = words[words.len() - 1];
        if name == "total" {
            continue;
        }
        if let Ok(n) = words[3].parse::<u64>() {
            calls.insert(name.to_string(), n);
        }
    }
    calls
}

/// The system calls of one call of `kind`, by name, as strace counts them: the difference of a
/// run of `count` calls and a run of none, divided by `count`.
pub fn per_call(kind: Kind, root: &Path, path: &Path, names: &str) -> BTreeMap<String, f64> {
    const COUNT: usize = 100;
    let base = strace_run(kind, root, path, names, 0);
    let run = strace_run(kind, root, path, names, COUNT);
    run.into_iter()
        .filter_map(|(name, n)| {
            let extra = n.saturating_sub(base.get(&name).copied().unwrap_or(0));
            (extra > 0).then(|| (name, extra as f64 / COUNT as f64))
        })
        .collect()
}

/// The system calls of one call of `kind`, as the library counts them in this process.
pub fn counted(kind: Kind, root: &Path, path: &Path, names: &str) -> u64 {
    let options = options(root.as_os_str().as_bytes(), names);
    let walker = Walker::new(options.clone());
    walker.chain(path.as_os_str().as_bytes()).expect("a chain");
    // The fewest over a few calls: a busy directory above the tree costs the walker a read of
    // others' events, which is not what is measured.
    (0..10)
        .map(|_| {
            let before = agentsmd::fs::system_calls();
            match kind {
                Kind::Chain => drop(agentsmd::chain(path.as_os_str().as_bytes(), &options)),
                Kind::Walker => drop(walker.chain(path.as_os_str().as_bytes())),
            }
            agentsmd::fs::system_calls() - before
        })
        .min()
        .expect("ten calls")
}

/// `calls` as "total (name n, name n, …)".
pub fn show(calls: &BTreeMap<String, f64>) -> String {
    let total: f64 = calls.values().sum();
    let parts: Vec<String> = calls
        .iter()
        .map(|(name, n)| {
            if n.fract() == 0.0 {
                format!("{name} {n}")
            } else {
                format!("{name} {n:.2}")
            }
        })
        .collect();
    format!("{total:.2} ({})", parts.join(", "))
}
