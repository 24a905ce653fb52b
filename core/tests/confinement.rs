//! Confinement (docs/security.md, "Confinement"): with `Options::confine`, no file outside the root
//! is opened or read. A symlink-attack matrix asserts:
//!
//! - **zero bytes read from outside the root**: an inotify watch on every directory outside the
//!   root that holds a secret sees no `IN_OPEN` and no `IN_ACCESS` (a `read`) — the same watch
//!   sees them at once when the chain runs unconfined — and the secret's unique marker is
//!   nowhere in the result (where the OS tells no opens, as macOS, the marker alone);
//! - **the documented report**: what leads out is omitted as `Reason::Escapes`, size 0, and
//!   the rest of the chain stands.
//!
//! A race swaps a file and a directory for links out while chains run, and shows the same. On
//! Linux every test runs three ways: through `openat2`, through the element walk with `openat2`
//! refused (`confinement_holds_where_openat2_is_refused`), and through the portable path of
//! every other Unix (`every_rule_here_holds_on_the_portable_path`).
// Unix's: inotify, openat2 and the element walk. Windows's walk (each element opened beneath its
// directory's handle, a link read, never followed, and decided by
// core/src/fs/sys/windows/reparse.rs) is tested in core/tests/unit/fs_reparse.rs on every platform
// and fs_windows.rs under Wine.
#![cfg(unix)]

mod support;

use std::fs;
#[cfg(target_os = "linux")]
use std::mem::MaybeUninit;
#[cfg(target_os = "linux")]
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use agentsmd_core::fs::{ConfinedFs, Entry, FileSystem};
use agentsmd_core::{chain, render, Chain, ErrorKind, FsName, Options, Outcome, Reason, Source};
#[cfg(target_os = "linux")]
use rustix::{fs::inotify, io::Errno};

use support::{text, Bytes, TestFs};

/// Where the OS tells no opens (macOS has no inotify, nor an event for an open): a watch that
/// sees nothing, so that the marker alone is the measure.
#[cfg(not(target_os = "linux"))]
struct Watch;

#[cfg(not(target_os = "linux"))]
impl Watch {
    const SEES: bool = false;

    fn new(_above_root: &Path, _root_name: &str, _others: &[PathBuf]) -> Self {
        Watch
    }

    fn touched(&self) -> Vec<String> {
        Vec::new()
    }
}

/// An inotify watch on directories outside the root: every open and every read of them or of
/// an entry in them is an event.
#[cfg(target_os = "linux")]
struct Watch {
    fd: OwnedFd,
    /// The directory above the root, whose entry the root itself is: opening the root is an
    /// open of that entry and is not counted.
    above: (i32, Vec<u8>),
    dirs: Vec<(i32, PathBuf)>,
}

#[cfg(target_os = "linux")]
impl Watch {
    /// Whether the watch sees opens.
    const SEES: bool = true;

    fn new(above_root: &Path, root_name: &str, others: &[PathBuf]) -> Self {
        let fd = inotify::init(inotify::CreateFlags::NONBLOCK | inotify::CreateFlags::CLOEXEC)
            .expect("inotify_init1");
        let add = |dir: &Path| {
            let wd = inotify::add_watch(
                &fd,
                dir,
                inotify::WatchFlags::OPEN | inotify::WatchFlags::ACCESS,
            )
            .unwrap_or_else(|e| panic!("inotify_add_watch {}: {e}", dir.display()));
            (wd, dir.to_path_buf())
        };
        let mut dirs = vec![add(above_root)];
        let above = (dirs[0].0, root_name.as_bytes().to_vec());
        dirs.extend(others.iter().map(|dir| add(dir)));
        Self { fd, above, dirs }
    }

    /// The opens and reads outside the root since the last call, as "OPEN path" / "ACCESS path".
    fn touched(&self) -> Vec<String> {
        let mut seen = Vec::new();
        let mut buffer = vec![MaybeUninit::<u8>::uninit(); 64 << 10];
        let mut events = inotify::Reader::new(&self.fd, &mut buffer);
        loop {
            let event = match events.next() {
                Ok(event) => event,
                Err(Errno::AGAIN) => return seen,
                Err(e) => panic!("reading inotify events: {e}"),
            };
            let name = event
                .file_name()
                .map(|n| n.to_bytes().to_vec())
                .unwrap_or_default();
            if (event.wd(), name.clone()) == self.above {
                continue;
            }
            let dir = self
                .dirs
                .iter()
                .find(|(w, _)| *w == event.wd())
                .map(|(_, d)| d);
            let what = if event.events().contains(inotify::ReadFlags::ACCESS) {
                "ACCESS"
            } else {
                "OPEN"
            };
            seen.push(format!(
                "{what} {}/{}",
                dir.map_or("?".into(), |d| d.display().to_string()),
                text(&name)
            ));
        }
    }
}

/// A root, and beside and above it the secrets a hostile repository's links point at:
///
/// ```text
/// base/AGENTS.md                  secret (the directory above the root has a file too)
/// base/outside/AGENTS.md          secret
/// base/outside/deeper/AGENTS.md   secret
/// base/root/AGENTS.md             "root rules\n"
/// base/root/rules.md              "inside rules\n"
/// ```
struct Attack {
    base: tempfile::TempDir,
    /// A marker unique to this run, in every secret.
    marker: String,
}

impl Attack {
    fn new() -> Self {
        let base = tempfile::tempdir().unwrap();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let marker = format!("SECRET-{}-{nanos}", std::process::id());
        let attack = Self { base, marker };
        let secret = format!("{}\n", attack.marker);
        fs::create_dir_all(attack.outside().join("deeper")).unwrap();
        fs::create_dir_all(attack.root()).unwrap();
        fs::write(attack.base.path().join("AGENTS.md"), &secret).unwrap();
        fs::write(attack.outside().join("AGENTS.md"), &secret).unwrap();
        fs::write(attack.outside().join("deeper/AGENTS.md"), &secret).unwrap();
        fs::write(attack.root().join("AGENTS.md"), "root rules\n").unwrap();
        fs::write(attack.root().join("rules.md"), "inside rules\n").unwrap();
        attack
    }

    fn root(&self) -> PathBuf {
        self.base.path().join("root")
    }

    fn outside(&self) -> PathBuf {
        self.base.path().join("outside")
    }

    fn at(&self, rel: &str) -> PathBuf {
        let root = self.root();
        if rel.is_empty() {
            root
        } else {
            root.join(rel)
        }
    }

    fn dir(&self, rel: &str) {
        fs::create_dir_all(self.root().join(rel)).unwrap();
    }

    fn file(&self, rel: &str, content: &str) {
        let path = self.root().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content).unwrap();
    }

    /// A link at `rel` (below the root; it replaces a file there) to `target`; `{base}` and
    /// `{root}` in it are replaced by those directories' absolute paths.
    fn link(&self, rel: &str, target: &str) {
        let target = target
            .replace("{base}", self.base.path().to_str().unwrap())
            .replace("{root}", self.root().to_str().unwrap());
        let path = self.root().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let _ = fs::remove_file(&path);
        std::os::unix::fs::symlink(target, path).unwrap();
    }

    fn options(&self, names: &[&str], confine: bool) -> Options {
        Options::new()
            .root(self.at(""))
            .names(names)
            .confine(confine)
    }

    /// A watch on every directory outside the root that holds a secret.
    fn watch(&self) -> Watch {
        Watch::new(
            self.base.path(),
            "root",
            &[self.outside(), self.outside().join("deeper")],
        )
    }

    /// Whether `chain` holds the marker anywhere: a file's content, a path, the rendering.
    fn leaked(&self, chain: &Chain) -> bool {
        let marker = self.marker.as_bytes();
        let holds = |bytes: &[u8]| bytes.windows(marker.len()).any(|w| w == marker);
        holds(&render(&chain.files))
            || chain
                .omitted
                .iter()
                .any(|o| holds(o.path.bytes()) || o.by.as_ref().is_some_and(|by| holds(by.bytes())))
    }
}

/// One case of the matrix.
struct Case {
    name: &'static str,
    /// Builds the hostile layout below the root.
    setup: fn(&Attack),
    /// The path asked, relative to the root.
    path: &'static str,
    names: &'static [&'static str],
    /// The files of the confined chain: (path relative to the root, content).
    files: &'static [(&'static str, &'static str)],
    /// The omitted list of the confined chain: (path relative to the root, size, reason).
    omitted: &'static [(&'static str, u64, Reason)],
    /// Whether the unconfined chain reads a secret: the attack is real.
    leaks_unconfined: bool,
}

const AGENTS: &[&str] = &["AGENTS.md"];

fn matrix() -> Vec<Case> {
    use Reason::{Escapes, Shadowed};
    vec![
        Case {
            name: "file link to /etc/passwd",
            setup: |a| a.link("AGENTS.md", "/etc/passwd"),
            path: "x",
            names: AGENTS,
            files: &[],
            omitted: &[("AGENTS.md", 0, Escapes)],
            leaks_unconfined: false, // /etc/passwd holds no marker; checked on its own below
        },
        Case {
            name: "file link to a secret beside the root",
            setup: |a| a.link("a/AGENTS.md", "../../outside/AGENTS.md"),
            path: "a/x",
            names: AGENTS,
            files: &[("AGENTS.md", "root rules\n")],
            omitted: &[("a/AGENTS.md", 0, Escapes)],
            leaks_unconfined: true,
        },
        Case {
            name: "absolute file link to a secret",
            setup: |a| a.link("a/AGENTS.md", "{base}/outside/AGENTS.md"),
            path: "a/x",
            names: AGENTS,
            files: &[("AGENTS.md", "root rules\n")],
            omitted: &[("a/AGENTS.md", 0, Escapes)],
            leaks_unconfined: true,
        },
        Case {
            name: "directory link to the directory above the root",
            setup: |a| a.link("up", ".."),
            path: "up/outside/deeper/x",
            names: AGENTS,
            files: &[("AGENTS.md", "root rules\n")],
            omitted: &[("up", 0, Escapes)],
            leaks_unconfined: true,
        },
        Case {
            name: "chain of links ending outside",
            setup: |a| {
                a.link("AGENTS.md", "l1");
                a.link("l1", "a/l2");
                a.link("a/l2", "../b/l3");
                a.link("b/l3", "../../outside/AGENTS.md");
                a.file("CLAUDE.md", "fallback\n");
            },
            path: "x",
            names: &["AGENTS.md", "CLAUDE.md"],
            // One hostile link does not deny the directory: the next name stands for it.
            files: &[("CLAUDE.md", "fallback\n")],
            omitted: &[("AGENTS.md", 0, Escapes)],
            leaks_unconfined: true,
        },
        Case {
            name: "`..` inside a link's target escapes",
            setup: |a| {
                a.dir("a/b");
                a.link("a/b/AGENTS.md", "../../a/b/../../../outside/AGENTS.md");
            },
            path: "a/b/x",
            names: AGENTS,
            files: &[("AGENTS.md", "root rules\n")],
            omitted: &[("a/b/AGENTS.md", 0, Escapes)],
            leaks_unconfined: true,
        },
        Case {
            name: "link whose target stays inside is followed and read",
            setup: |a| {
                a.link("a/b/AGENTS.md", "../../shared/../rules.md");
                a.dir("shared");
                a.file("real/AGENTS.md", "real rules\n");
                a.link("a/b/alias", "../../real");
            },
            path: "a/b/alias/x",
            names: AGENTS,
            files: &[
                ("AGENTS.md", "root rules\n"),
                ("a/b/AGENTS.md", "inside rules\n"),
                ("a/b/alias/AGENTS.md", "real rules\n"),
            ],
            omitted: &[],
            leaks_unconfined: false,
        },
        Case {
            name: "directory of the walk that leads out",
            setup: |a| a.link("a", "../outside"),
            path: "a/deeper/x",
            names: AGENTS,
            files: &[("AGENTS.md", "root rules\n")],
            omitted: &[("a", 0, Escapes)],
            leaks_unconfined: true,
        },
        Case {
            name: "directory of the walk that leads out through an inner link",
            setup: |a| {
                a.link("in", "a/b");
                a.link("a/b", "../../outside");
            },
            path: "in/deeper/x",
            names: AGENTS,
            files: &[("AGENTS.md", "root rules\n")],
            omitted: &[("in", 0, Escapes)],
            leaks_unconfined: true,
        },
        Case {
            name: "the path itself leads out",
            setup: |a| a.link("away", "../outside"),
            path: "away",
            names: AGENTS,
            files: &[("AGENTS.md", "root rules\n")],
            omitted: &[("away", 0, Escapes)],
            leaks_unconfined: true,
        },
        Case {
            name: "dangling link out of the root",
            setup: |a| a.link("AGENTS.md", "/nonexistent-agentsmd/AGENTS.md"),
            path: "x",
            names: AGENTS,
            files: &[],
            omitted: &[("AGENTS.md", 0, Escapes)],
            leaks_unconfined: false,
        },
        Case {
            name: "absolute link to a file inside the root is refused",
            setup: |a| a.link("a/AGENTS.md", "{root}/rules.md"),
            path: "a/x",
            names: AGENTS,
            files: &[("AGENTS.md", "root rules\n")],
            omitted: &[("a/AGENTS.md", 0, Escapes)],
            leaks_unconfined: false,
        },
        Case {
            name: "escaping names are reported where they stand, never as shadowed",
            setup: |a| {
                a.link("a/AGENTS.override.md", "../../outside/AGENTS.md");
                a.file("a/AGENTS.md", "a rules\n");
                a.file("a/README.md", "shadowed\n");
                a.link("a/CLAUDE.md", "../../outside/deeper/AGENTS.md");
            },
            path: "a/x",
            names: &["AGENTS.override.md", "AGENTS.md", "README.md", "CLAUDE.md"],
            files: &[("AGENTS.md", "root rules\n"), ("a/AGENTS.md", "a rules\n")],
            omitted: &[
                ("a/AGENTS.override.md", 0, Escapes),
                ("a/README.md", 9, Shadowed),
                ("a/CLAUDE.md", 0, Escapes),
            ],
            leaks_unconfined: true,
        },
    ]
}

#[test]
fn symlink_attack_matrix_reads_nothing_outside_the_root() {
    for case in matrix() {
        let attack = Attack::new();
        (case.setup)(&attack);
        let watch = attack.watch();
        // The attack is real: unconfined, the watch sees the secret read.
        let unconfined = chain(attack.at(case.path), &attack.options(case.names, false))
            .unwrap_or_else(|e| panic!("{}: unconfined: {e}", case.name));
        let touched = watch.touched();
        if case.leaks_unconfined {
            assert!(
                attack.leaked(&unconfined),
                "{}: no leak unconfined",
                case.name
            );
            assert!(
                !Watch::SEES || touched.iter().any(|t| t.starts_with("ACCESS")),
                "{}: the watch saw no read: {touched:?}",
                case.name
            );
        }
        let options = attack.options(case.names, true);
        let what = case.name;
        let result =
            chain(attack.at(case.path), &options).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(
            watch.touched(),
            Vec::<String>::new(),
            "{what}: read outside"
        );
        assert!(
            !attack.leaked(&result),
            "{what}: the secret is in {result:?}"
        );
        let files: Vec<(String, String)> = result
            .files
            .iter()
            .map(|f| (text(&f.path), text(&f.content)))
            .collect();
        let want: Vec<(String, String)> = case
            .files
            .iter()
            .map(|(rel, content)| (text(&attack.at(rel)), content.to_string()))
            .collect();
        assert_eq!(files, want, "{what}: files");
        let omitted: Vec<(String, u64, Reason)> = result
            .omitted
            .iter()
            .map(|o| (text(&o.path), o.size, o.reason))
            .collect();
        let want: Vec<(String, u64, Reason)> = case
            .omitted
            .iter()
            .map(|(rel, size, reason)| (text(&attack.at(rel)), *size, *reason))
            .collect();
        assert_eq!(omitted, want, "{what}: omitted");
    }
}

#[test]
fn etc_passwd_is_read_unconfined_and_never_confined() {
    let Ok(passwd) = fs::read("/etc/passwd") else {
        return; // no /etc/passwd on this host: the matrix's other cases stand
    };
    let attack = Attack::new();
    attack.link("AGENTS.md", "/etc/passwd");
    let path = attack.at("x");
    let unconfined = chain(&path, &attack.options(AGENTS, false)).unwrap();
    assert_eq!(unconfined.files[0].content, passwd, "the attack is real");
    let confined = chain(&path, &attack.options(AGENTS, true)).unwrap();
    assert!(confined.files.is_empty(), "{confined:?}");
    assert_eq!(confined.omitted[0].reason, Reason::Escapes);
}

#[test]
fn root_that_is_a_link_is_resolved_as_given() {
    // The host chose the root: a link to it is followed, and the walk is confined beneath
    // where it leads.
    let attack = Attack::new();
    attack.link("a/AGENTS.md", "../../outside/AGENTS.md");
    let alias = attack.base.path().join("alias");
    std::os::unix::fs::symlink(attack.root(), &alias).unwrap();
    let options = Options::new().root(&alias).confine(true);
    let result = chain(alias.join("a/x"), &options).unwrap();
    assert_eq!(result.files.len(), 1);
    assert_eq!(result.files[0].path, alias.join("AGENTS.md"));
    assert_eq!(result.omitted[0].path, alias.join("a/AGENTS.md"));
    assert_eq!(result.omitted[0].reason, Reason::Escapes);
    assert!(!attack.leaked(&result));
}

#[test]
fn extra_files_are_the_hosts_and_read_as_given() {
    let attack = Attack::new();
    let secret = attack.outside().join("AGENTS.md");
    let options = attack.options(AGENTS, true).extra([secret]);
    let result = chain(attack.at("x"), &options).unwrap();
    assert_eq!(result.files.len(), 2);
    assert!(attack.leaked(&result), "the host's extra file is read");
}

/// (path, size, reason) of each file left out.
fn left_out(result: &Chain) -> Vec<(PathBuf, u64, Reason)> {
    result
        .omitted
        .iter()
        .map(|o| (o.path.clone(), o.size, o.reason))
        .collect()
}

#[test]
fn an_overlay_inside_a_confined_root_is_confined_like_the_walk() {
    // SPEC.md §5.3 (decided): its file and its fragments are opened beneath root, and a link
    // leading out is omitted as `Escapes`; the next name stands for the overlay.
    let attack = Attack::new();
    attack.link("o/AGENTS.md", "../../outside/AGENTS.md");
    attack.file("o/CLAUDE.md", "overlay rules\n");
    attack.link("o/f/a.md", "../../../outside/deeper/AGENTS.md");
    attack.file("o/f/b.md", "overlay fragment\n");
    let options = |confine| {
        attack
            .options(&["AGENTS.md", "CLAUDE.md"], confine)
            .fragments(["f"])
            .overlays([attack.at("o")])
    };
    let watch = attack.watch();
    let unconfined = chain(attack.at("x"), &options(false)).unwrap();
    assert!(attack.leaked(&unconfined), "the attack is real");
    assert!(!Watch::SEES || !watch.touched().is_empty());
    let result = chain(attack.at("x"), &options(true)).unwrap();
    assert_eq!(watch.touched(), Vec::<String>::new(), "read outside");
    assert!(!attack.leaked(&result), "{result:?}");
    let files: Vec<(PathBuf, String)> = result
        .files
        .iter()
        .map(|f| (f.path.clone(), text(&f.content)))
        .collect();
    assert_eq!(
        files,
        [
            (attack.at("AGENTS.md"), "root rules\n".into()),
            (attack.at("o/CLAUDE.md"), "overlay rules\n".into()),
            (attack.at("o/f/b.md"), "overlay fragment\n".into()),
        ]
    );
    assert_eq!(
        left_out(&result),
        [
            (attack.at("o/AGENTS.md"), 0, Reason::Escapes),
            (attack.at("o/f/a.md"), 0, Reason::Escapes),
        ]
    );
}

#[test]
fn an_overlay_directory_inside_a_confined_root_that_leads_out_is_one_escape() {
    // As a directory of the walk that leads out: nothing in or below it is looked at, and it
    // is one probe, `escapes`.
    let attack = Attack::new();
    attack.link("o", "../outside");
    attack.link("in", "../outside");
    for overlay in ["o", "in/deeper"] {
        let options = attack
            .options(AGENTS, true)
            .overlays([attack.at(overlay)])
            .report(true);
        let watch = attack.watch();
        let result = chain(attack.at("x"), &options).unwrap();
        assert_eq!(
            watch.touched(),
            Vec::<String>::new(),
            "{overlay}: read outside"
        );
        assert!(!attack.leaked(&result), "{overlay}: {result:?}");
        assert_eq!(result.files.len(), 1, "{overlay}: {:?}", result.files);
        assert_eq!(
            left_out(&result),
            [(attack.at(overlay), 0, Reason::Escapes)],
            "{overlay}"
        );
        let last = result.probes.last().unwrap();
        assert_eq!(
            (&last.path, last.source, last.outcome),
            (&attack.at(overlay), Source::Overlay, Outcome::Escapes),
            "{overlay}"
        );
        assert_eq!(result.probes.len(), 2, "{overlay}: {:?}", result.probes);
    }
}

#[test]
fn an_overlays_imports_inside_a_confined_root_are_confined() {
    // SPEC.md §5.3, §5.4: an import through a link that leads out of root is an error.
    let attack = Attack::new();
    attack.file("o/AGENTS.md", "@inc.md\n");
    attack.link("o/inc.md", "../../outside/AGENTS.md");
    let options = |confine| {
        attack
            .options(AGENTS, confine)
            .imports(true)
            .overlays([attack.at("o")])
    };
    let watch = attack.watch();
    let unconfined = chain(attack.at("x"), &options(false)).unwrap();
    assert!(attack.leaked(&unconfined), "the attack is real");
    let _ = watch.touched();
    let error = chain(attack.at("x"), &options(true)).unwrap_err();
    assert_eq!(watch.touched(), Vec::<String>::new(), "read outside");
    assert_eq!(error.kind(), ErrorKind::Import, "{error}");
    let at_directive = format!("{}:1: ", attack.at("o/AGENTS.md").display());
    assert!(error.to_string().starts_with(&at_directive), "{error}");
    assert!(!error.to_string().contains(&attack.marker), "{error}");
}

#[test]
fn an_overlay_outside_a_confined_root_is_the_hosts_and_read_as_given() {
    // SPEC.md §5.3: like `extra`, it is the host's choice.
    let attack = Attack::new();
    let options = attack.options(AGENTS, true).overlays([attack.outside()]);
    let result = chain(attack.at("x"), &options).unwrap();
    assert_eq!(result.files.len(), 2);
    assert_eq!(result.files[1].path, attack.outside().join("AGENTS.md"));
    assert!(attack.leaked(&result), "the host's overlay is read");
}

#[test]
fn a_custom_file_system_is_its_own_confinement() {
    // `confine` is for the OS file system: a custom one answers as it answers, and the same
    // options without `confine` give the same chain.
    let attack = Attack::new();
    attack.link("a/AGENTS.md", "../../outside/AGENTS.md");
    let options = |confine| {
        Options::new()
            .fs(Arc::new(TestFs::load(attack.root())))
            .confine(confine)
    };
    let confined = chain("a/x", &options(true)).unwrap();
    assert_eq!(confined, chain("a/x", &options(false)).unwrap());
    assert!(
        attack.leaked(&confined),
        "TestFs::load follows links: its own choice"
    );
}

#[test]
fn a_confined_file_system_given_as_a_custom_one_answers_a_link_out_as_other() {
    // `Escapes` is the walk's word for a confined chain: through the trait, a link out of the
    // root leads nowhere this file system goes, so a chain over it skips the name, as it skips a
    // dangling link, and the next name stands.
    let attack = Attack::new();
    attack.link("a/AGENTS.override.md", "../../outside/AGENTS.md");
    fs::write(attack.root().join("a/AGENTS.md"), "a\n").unwrap();
    let confined = ConfinedFs::open(&attack.root()).unwrap();
    let out = FsName::new("a/AGENTS.override.md").unwrap();
    assert_eq!(confined.stat(&out).unwrap(), Entry::Other);
    let options = Options::new()
        .fs(Arc::new(confined))
        .names(["AGENTS.override.md", "AGENTS.md"]);
    let result = chain("a/x", &options).unwrap();
    assert_eq!(result.files.last().unwrap().path, Path::new("a/AGENTS.md"));
    assert!(result.omitted.is_empty(), "{:?}", result.omitted);
    assert!(!attack.leaked(&result));
}

#[test]
fn escapes_stays_escapes_after_the_budget_ran_out() {
    // As a shadowed file stays shadowed: the reason says what the file is, not what it cost.
    let attack = Attack::new();
    attack.link("a/AGENTS.md", "../../outside/AGENTS.md");
    let options = attack.options(AGENTS, true).budget(5);
    let result = chain(attack.at("a/x"), &options).unwrap();
    let omitted: Vec<(PathBuf, u64, Reason)> = result
        .omitted
        .iter()
        .map(|o| (o.path.clone(), o.size, o.reason))
        .collect();
    assert_eq!(
        omitted,
        [
            (attack.at("AGENTS.md"), 11, Reason::OverBudget),
            (attack.at("a/AGENTS.md"), 0, Reason::Escapes),
        ]
    );
}

/// Exchanges the entries at `a` and `b` atomically (`renameat2` with `RENAME_EXCHANGE`; macOS's
/// `renameatx_np` with `RENAME_SWAP`; FreeBSD has neither): each
/// name always exists, as one or the other.
#[cfg(any(target_os = "linux", target_vendor = "apple"))]
fn exchange(a: &Path, b: &Path) {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE)
        .unwrap_or_else(|e| panic!("renameat2 {} {}: {e}", a.display(), b.display()));
}

#[test]
#[cfg(any(target_os = "linux", target_vendor = "apple"))]
fn links_swapped_in_between_stat_and_open_are_never_read_through() {
    use rustix::io::Errno;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    // A thread exchanges, as fast as it can, root/AGENTS.md (a regular file) with a link to the
    // secret, and root/a (a directory) with a link to the directory of secrets, while chains
    // run confined. Every chain returns the inside file, or reports the link
    // as escaping, or — when the swap fell between the lookup and the open — fails with an Io
    // error (EXDEV) naming the file. None ever reads a byte outside.
    const RACE: Duration = Duration::from_millis(1500);
    let attack = Attack::new();
    let root = attack.root();
    attack.file("a/AGENTS.md", "a rules\n");
    attack.link("AGENTS.swap", "../outside/AGENTS.md");
    attack.link("a.swap", "../outside");
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let stop = stop.clone();
        let root = root.clone();
        std::thread::spawn(move || {
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                exchange(&root.join("AGENTS.md"), &root.join("AGENTS.swap"));
                exchange(&root.join("a"), &root.join("a.swap"));
                swaps += 1;
            }
            swaps
        })
    };
    let watch = attack.watch();
    let options = attack.options(AGENTS, true);
    let path = attack.at("a/x");
    let known: [&[u8]; 2] = [b"root rules\n", b"a rules\n"];
    let (mut kept, mut escaped, mut refused, mut runs) = (0u64, 0u64, 0u64, 0u64);
    let started = Instant::now();
    while started.elapsed() < RACE || runs < 200 {
        runs += 1;
        match chain(&path, &options) {
            Ok(result) => {
                assert!(!attack.leaked(&result), "{result:?}");
                for file in &result.files {
                    assert!(known.contains(&&file.content[..]), "{file:?}");
                }
                kept += result.files.len() as u64;
                escaped += result.omitted.len() as u64;
                for omitted in &result.omitted {
                    assert_eq!(omitted.reason, Reason::Escapes);
                }
            }
            Err(error) => {
                assert_eq!(error.kind(), ErrorKind::Io, "{error}");
                assert_eq!(error.os_code(), Some(Errno::XDEV.raw_os_error()), "{error}");
                assert!(error.to_string().contains("leads out of root"), "{error}");
                assert!(!error.to_string().contains(&attack.marker));
                refused += 1;
            }
        }
    }
    assert_eq!(watch.touched(), Vec::<String>::new(), "read outside");
    eprintln!(
        "{runs} confined chains raced: {kept} files kept, {escaped} links reported \
         as escaping, {refused} refused at the open (swapped after the lookup)"
    );
    assert!(kept > 0 && escaped > 0, "the race never showed both sides");
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    eprintln!("{swaps} swaps of the file and the directory");
    // The watch works: unconfined, the same layout is read through (by whichever of the two
    // names is the link to the directory of secrets now that the swaps have stopped).
    let _ = watch.touched();
    for start in ["a/x", "a.swap/x"] {
        let _ = chain(attack.at(start), &attack.options(AGENTS, false));
    }
    assert!(
        !Watch::SEES || !watch.touched().is_empty(),
        "the watch saw nothing unconfined"
    );
}

#[test]
fn confinement_to_the_file_system_root_is_refused() {
    // Confined to `/`, every link leads inside: a repository's `AGENTS.md -> ../../etc/passwd`
    // would be read. No root means `/`, and `/..` is `/` once cleaned.
    let attack = Attack::new();
    for root in [None, Some("/"), Some("/..")] {
        let mut options = Options::new().confine(true);
        options.root = root.map(PathBuf::from);
        let error = chain(attack.at("x"), &options).expect_err("confined to /");
        assert_eq!(
            error.kind(),
            ErrorKind::InvalidArgument,
            "{root:?}: {error}"
        );
        assert!(error.to_string().contains("root"), "{error}");
    }
    // Unconfined, `/` is a root like any other.
    assert!(chain(attack.at("x"), &Options::default()).is_ok());
}

#[test]
#[cfg(target_os = "linux")]
fn confinement_holds_where_openat2_is_refused() {
    // Where openat2 is missing (Linux before 5.6) or a seccomp filter refuses it with ENOSYS,
    // names are resolved element by element: every other test of this file, run again with
    // openat2 refused by strace's fault injection, gives the same answers — the matrix reads
    // nothing outside, and links swapped in are never read through.
    let log = tempfile::NamedTempFile::new().unwrap();
    let run = std::process::Command::new("strace")
        .args(["-f", "-qq", "--seccomp-bpf", "-e", "trace=openat2"])
        .args(["-e", "inject=openat2:error=ENOSYS", "-o"])
        .arg(log.path())
        .arg(std::env::current_exe().unwrap())
        .args(["--skip", "confinement_holds_where_openat2_is_refused"])
        .args(["--skip", support::ON_THE_PORTABLE_PATH])
        .args([
            "--skip",
            "the_portable_path_asks_neither_openat2_nor_o_path",
        ])
        .output();
    // strace is one of the tests' tools (the README, `.ci/run`): without it this test fails
    // rather than passing with nothing run.
    let run =
        run.unwrap_or_else(|e| panic!("strace does not run (apt-get install -y strace): {e}"));
    let log = fs::read_to_string(log.path()).unwrap_or_default();
    assert!(
        !log.is_empty(),
        "strace traced nothing: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        run.status.success(),
        "without openat2: {}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(log.contains("(INJECTED)"), "openat2 was not refused: {log}");
}

#[test]
#[cfg(target_os = "linux")]
fn every_rule_here_holds_on_the_portable_path() {
    // The portable path never asks openat2: refusing it changes nothing there.
    support::rerun_on_the_portable_path(&[
        "confinement_holds_where_openat2_is_refused",
        "the_portable_path_asks_neither_openat2_nor_o_path",
    ]);
}

#[test]
#[cfg(target_os = "linux")]
fn the_portable_path_asks_neither_openat2_nor_o_path() {
    // The switch the portable reruns rely on works: the matrix run with
    // `AGENTSMD_TEST_PORTABLE=1` opens nothing with openat2 or `O_PATH`, and without it does.
    let opens = |portable: bool| {
        let log = tempfile::NamedTempFile::new().unwrap();
        let mut run = std::process::Command::new("strace");
        run.args(["-f", "-qq", "-e", "trace=openat,openat2", "-o"])
            .arg(log.path())
            .arg(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "symlink_attack_matrix_reads_nothing_outside_the_root",
            ]);
        if portable {
            run.env("AGENTSMD_TEST_PORTABLE", "1");
        }
        let run = run
            .output()
            .unwrap_or_else(|e| panic!("strace does not run (apt-get install -y strace): {e}"));
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stdout)
        );
        fs::read_to_string(log.path()).unwrap()
    };
    let linux = opens(false);
    assert!(
        linux.contains("openat2(") && linux.contains("O_PATH"),
        "{linux}"
    );
    let portable = opens(true);
    assert!(
        portable.contains("openat("),
        "strace traced nothing: {portable}"
    );
    assert!(
        !portable.contains("openat2(") && !portable.contains("O_PATH"),
        "{portable}"
    );
}
