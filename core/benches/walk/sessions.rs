//! Issue 30: a session (SPEC §10) over 1,000 files of a 10,000-directory monorepo, against a
//! fresh `chain` per touch, the floor of one lookup per distinct directory, and Gemini CLI's own
//! loop (`loadJitSubdirectoryMemory`, run by node/bench/session.mjs on the same tree).

use std::collections::HashSet;
use std::ffi::{CString, OsString};
use std::fs;
use std::hint::black_box;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use agentsmd_core::{chain, Options, Session};
use rustix::fs::stat;

use crate::baselines::read_first;
use crate::counts::{self, strace, Calls};
use crate::measure::{show, side_by_side};
use crate::trees::rules;
use crate::verdict;

/// Gemini CLI's names with `context.fileName: "AGENTS.md"` (node/bench/README.md).
const NAMES: [&str; 2] = ["AGENTS.md", "GEMINI.md"];
const PACKAGES: usize = 100;
const MODULES: usize = 9;
const LEAVES: usize = 10;
const TOUCHES: usize = 1_000;
/// Coprime with the 9,000 leaves: touch `i` is in leaf `i × STRIDE mod 9,000`, 1,000 distinct
/// leaves spread over every package, each touch in another package than the one before.
const STRIDE: usize = 7_919;

/// The monorepo: `.git` and an `AGENTS.md` at the root; 100 packages `pkg-NN`, each with an
/// `AGENTS.md`; 9 modules `mod-M` in each, with an `AGENTS.md` where `(N + M) % 3 == 0`; 10
/// leaves `sub-S` in each module, with an `AGENTS.md` where `(N + M + S) % 7 == 0`: 10,000
/// directories below the root. Touch `i` is the file `index.ts` of leaf `i × 7,919 mod 9,000`
/// (leaves numbered package by package, module by module). node/bench/session.mjs builds the
/// same tree when run alone.
pub struct Monorepo {
    pub root: PathBuf,
    pub touches: Vec<PathBuf>,
    /// The touches, one a line, for the probe runs.
    pub list: PathBuf,
}

pub fn monorepo(base: &Path) -> Monorepo {
    let root = base.join("monorepo");
    fs::create_dir_all(root.join(".git")).expect("create .git");
    fs::write(root.join("AGENTS.md"), rules("monorepo")).expect("write AGENTS.md");
    for p in 0..PACKAGES {
        let package = root.join(format!("pkg-{p:02}"));
        for m in 0..MODULES {
            let module = package.join(format!("mod-{m}"));
            for s in 0..LEAVES {
                let leaf = module.join(format!("sub-{s}"));
                fs::create_dir_all(&leaf).expect("create a leaf");
                if (p + m + s) % 7 == 0 {
                    fs::write(leaf.join("AGENTS.md"), rules("leaf")).expect("write AGENTS.md");
                }
            }
            if (p + m) % 3 == 0 {
                fs::write(module.join("AGENTS.md"), rules("module")).expect("write AGENTS.md");
            }
        }
        fs::write(package.join("AGENTS.md"), rules("package")).expect("write AGENTS.md");
    }
    let touches: Vec<PathBuf> = (0..TOUCHES)
        .map(|i| {
            let leaf = i * STRIDE % (PACKAGES * MODULES * LEAVES);
            let (p, m, s) = (leaf / 90, leaf / 10 % 9, leaf % 10);
            let file = root.join(format!("pkg-{p:02}/mod-{m}/sub-{s}/index.ts"));
            fs::write(&file, "export {};\n").expect("write a touched file");
            file
        })
        .collect();
    let list = base.join("touches.txt");
    let lines: Vec<&str> = touches.iter().map(|t| t.to_str().expect("UTF-8")).collect();
    fs::write(&list, lines.join("\n") + "\n").expect("write the touches");
    Monorepo {
        root,
        touches,
        list,
    }
}

/// The options of the session and of each chain: Gemini CLI's names and ceiling, and imports
/// expanded as it always does (the files hold no `@`) or not.
fn options(root: &Path, imports: bool) -> Options {
    Options::new().names(NAMES).root(root).imports(imports)
}

/// The session floor: the fewest system calls the 1,000 touches need, in a bare loop planned
/// beforehand. Per touch a `stat` of the touched path (a file or a directory: where its walk
/// starts); per distinct directory the touches reach (each touched file's directory and its
/// ancestors up to the root), the first time a touch reaches it, one lookup: a `stat` by whole
/// path of each name until one is a regular file; per file found `open`, one `read` and
/// `close`. That is 1,000 + (names tried over the distinct directories) + 3 × files.
pub struct Floor {
    /// Per touch, its path and, for each directory it is the first to reach, root first, the
    /// whole path of each name.
    touches: Vec<(CString, Vec<Vec<CString>>)>,
    pub directories: usize,
    buf: Vec<u8>,
}

impl Floor {
    pub fn new(root: &Path, touches: &[PathBuf]) -> Self {
        let c = |path: &Path| CString::new(path.as_os_str().as_bytes()).expect("no NUL");
        let mut seen = HashSet::new();
        let touches = touches
            .iter()
            .map(|touch| {
                let dir = touch.parent().expect("a file's directory");
                let mut dirs: Vec<&Path> = dir
                    .ancestors()
                    .take_while(|d| d.starts_with(root))
                    .filter(|d| seen.insert(d.to_path_buf()))
                    .collect();
                dirs.reverse();
                let names = dirs
                    .iter()
                    .map(|d| NAMES.iter().map(|n| c(&d.join(n))).collect())
                    .collect();
                (c(touch), names)
            })
            .collect();
        Self {
            touches,
            directories: seen.len(),
            buf: vec![0; 1 << 20],
        }
    }

    /// Every touch once; the bytes of each file read, and the names tried.
    pub fn walk(&mut self) -> (Vec<usize>, usize) {
        let (mut read, mut tried) = (Vec::new(), 0);
        for (touch, dirs) in &self.touches {
            let _ = stat(touch.as_c_str());
            for dir in dirs {
                let (file, names) = read_first(dir, &mut self.buf);
                read.extend(file);
                tried += names;
            }
        }
        (read, tried)
    }
}

/// One session touching every path; the sizes of the files of its deltas, in order.
fn session(root: &Path, touches: &[PathBuf], imports: bool) -> Vec<usize> {
    let session = Session::new(options(root, imports)).expect("a session");
    let mut given = Vec::new();
    for touch in touches {
        let delta = session.touch(touch).expect("a touch");
        given.extend(delta.files.iter().map(|f| f.content.len()));
    }
    given
}

/// A fresh chain per touch; the files of each, as (path, size).
fn chains(root: &Path, touches: &[PathBuf], imports: bool) -> Vec<(PathBuf, usize)> {
    let options = options(root, imports);
    let mut files = Vec::new();
    for touch in touches {
        let chain = chain(touch, &options).expect("a chain");
        files.extend(chain.files.into_iter().map(|f| (f.path, f.content.len())));
    }
    files
}

const PROBES: [&str; 3] = ["session", "chains", "floor"];

/// When the arguments are `probe-session WHAT ROOT LIST COUNT`, runs `WHAT` (`session`,
/// `chains` or `floor`) over the touches of `LIST` `COUNT` times and returns true.
pub fn probe(args: &[String]) -> bool {
    let Some(at) = args.iter().position(|a| a == "probe-session") else {
        return false;
    };
    let [what, root, list, count] = &args[at + 1..at + 5] else {
        panic!("usage: probe-session WHAT ROOT LIST COUNT");
    };
    let root = Path::new(root);
    let list = fs::read_to_string(list).expect("the touches");
    let touches: Vec<PathBuf> = list.lines().map(PathBuf::from).collect();
    let mut floor = Floor::new(root, &touches);
    for _ in 0..count.parse::<usize>().expect("a count") {
        match what.as_str() {
            "session" => drop(black_box(session(root, &touches, true))),
            "chains" => drop(black_box(chains(root, &touches, true))),
            "floor" => drop(black_box(floor.walk())),
            _ => panic!("probe-session: one of {PROBES:?}"),
        }
    }
    true
}

/// The system calls of one run of `what` over every touch (strace, a run minus none).
fn traced(what: &str, tree: &Monorepo) -> Calls {
    let run = |count: &str| {
        let exe = std::env::current_exe().expect("this program");
        let args = [exe.as_os_str(), "probe-session".as_ref(), what.as_ref()];
        let mut run: Vec<OsString> = args.iter().map(|a| a.to_os_string()).collect();
        run.extend([
            tree.root.clone().into(),
            tree.list.clone().into(),
            count.into(),
        ]);
        strace(&run, &[])
    };
    run("1").minus(&run("0"), 1.0)
}

/// What node/bench/session.mjs measured of Gemini CLI's loop on this tree: its system calls
/// (strace, the loop minus none), its time per touch in µs, and the files it loaded. `None`
/// when node or the peers (`cd node/bench && npm ci`) are missing.
fn gemini(tree: &Monorepo) -> Option<(Calls, f64, usize)> {
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("../node/bench");
    let peer = bench.join("node_modules/@google/gemini-cli-core");
    if !peer.is_dir() || !counts::available("node") {
        return None;
    }
    let output = Command::new("node")
        .arg(bench.join("session.mjs"))
        .arg("--root")
        .arg(&tree.root)
        .arg("--touches")
        .arg(&tree.list)
        .arg("--for-walk-bench")
        .output()
        .expect("node");
    assert!(output.status.success(), "node/bench/session.mjs runs");
    let mut calls = Calls::default();
    let (mut us, mut files) = (f64::NAN, 0);
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[..] {
            ["call", name, made, failed] => {
                calls
                    .made
                    .insert(name.into(), made.parse().expect("a count"));
                let failed: f64 = failed.parse().expect("a count");
                if failed != 0.0 {
                    calls.failed.insert(name.into(), failed);
                }
            }
            ["us-per-touch", n] => us = n.parse().expect("a time"),
            ["files", n] => files = n.parse().expect("a count"),
            _ => {}
        }
    }
    Some((calls, us, files))
}

pub fn run(base: &Path, strace_here: bool) {
    println!("\n== A session over 1,000 files of a 10,000-directory monorepo (SPEC §10, issue 30; names {NAMES:?}, imports on)");
    let tree = monorepo(base);
    let mut floor = Floor::new(&tree.root, &tree.touches);
    let (floor_files, tried) = floor.walk();
    let given = session(&tree.root, &tree.touches, true);
    assert_eq!(given, floor_files, "the session gives the floor's files");
    let mut by_chains = chains(&tree.root, &tree.touches, true);
    let mut once = HashSet::new();
    by_chains.retain(|(path, _)| once.insert(path.clone()));
    let by_chains: Vec<usize> = by_chains.into_iter().map(|(_, size)| size).collect();
    assert_eq!(by_chains, given, "the chains find the session's files");
    let floor_calls = TOUCHES + tried + 3 * given.len();
    println!(
        "{TOUCHES} touches reach {} distinct directories (of 10,001) and {} files; each is given once",
        floor.directories,
        given.len()
    );
    println!(
        "the floor: a stat of each touched path ({TOUCHES}), one lookup per distinct directory (a stat of each name until one is a file: {tried} over {} directories), open + read + close per file ({}): {floor_calls} system calls",
        floor.directories,
        3 * given.len()
    );
    let (root, touches) = (&tree.root, &tree.touches);
    let (times, ratios) = side_by_side(&mut [
        &mut || drop(black_box(session(root, touches, true))),
        &mut || drop(black_box(chains(root, touches, true))),
        &mut || drop(black_box(floor.walk())),
        &mut || drop(black_box(session(root, touches, false))),
        &mut || drop(black_box(chains(root, touches, false))),
    ]);
    let per_touch = |i: usize| show(times[i] / TOUCHES as u32);
    println!(
        "time per touch (wall clock): session {}, a fresh chain each {} ({:.2}× the session), the floor {} (the session {:.2}× the floor)",
        per_touch(0),
        per_touch(1),
        ratios[1],
        per_touch(2),
        1.0 / ratios[2]
    );
    println!(
        "  the same with imports off: session {} ({:.2}× the session with imports), a fresh chain each {}",
        per_touch(3),
        ratios[3],
        per_touch(4)
    );
    if !strace_here {
        return;
    }
    let session_calls = traced("session", &tree);
    let chain_calls = traced("chains", &tree);
    let floor_traced = traced("floor", &tree);
    let total = |calls: &Calls| calls.total().round();
    println!("system calls over the 1,000 touches (strace -c -f, a run minus none):");
    println!("  session {}", counts::show(&session_calls));
    println!("  fresh chains {}", counts::show(&chain_calls));
    println!("  floor {}", counts::show(&floor_traced));
    let over_floor = total(&session_calls) / floor_calls as f64;
    println!(
        "per touch: session {:.2}, fresh chains {:.2} ({:.1}× the session), floor {:.2}",
        total(&session_calls) / TOUCHES as f64,
        total(&chain_calls) / TOUCHES as f64,
        total(&chain_calls) / total(&session_calls),
        floor_calls as f64 / TOUCHES as f64
    );
    println!(
        "target: the session within 1.25× the floor's system calls (strace): {over_floor:.2}× ({})",
        verdict(over_floor <= 1.25)
    );
    match gemini(&tree) {
        None => {
            println!("Gemini CLI's loop: not measured (needs node and `cd node/bench && npm ci`)")
        }
        Some((calls, us, files)) => {
            assert_eq!(files, given.len(), "Gemini CLI loads the session's files");
            let fewer = total(&calls) / total(&session_calls);
            println!(
                "  Gemini CLI's loop (loadJitSubdirectoryMemory per touch, its session's sets; node/bench/session.mjs) {}",
                counts::show(&calls)
            );
            // The rest of Gemini CLI's calls are libuv's thread pool, through which each
            // `fs.promises` call goes: futex, epoll_pwait, and the eventfd's read and write.
            let paths = |c: &Calls, names: &[&str]| names.iter().map(|n| c.get(n)).sum::<f64>();
            let theirs = paths(
                &calls,
                &["access", "statx", "newfstatat", "openat", "close"],
            );
            let ours = paths(&session_calls, &["newfstatat", "openat", "close"]);
            println!(
                "  of which lookups, opens and closes (access, statx, openat, close): Gemini CLI {theirs}, the session {ours} (newfstatat, openat, close): {:.1}×",
                theirs / ours
            );
            println!(
                "time per touch (wall clock, separate runs): Gemini CLI {}, the session {}",
                show(std::time::Duration::from_secs_f64(us / 1e6)),
                per_touch(0)
            );
            println!(
                "target: at least 10× fewer system calls than Gemini CLI's loop (strace): {fewer:.1}× ({})",
                verdict(fewer >= 10.0)
            );
        }
    }
}
