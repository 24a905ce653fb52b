//! Unit tests of `src/fs/sys/unix/confined.rs`, which includes this file by `#[path]`: they
//! reach private items, so they cannot be an integration test.

use std::os::unix::fs::symlink;
use std::sync::Arc;

use rustix::fs::fstat;

use super::*;
use crate::{chain, Options};

/// Hostile layouts, each below a root of its own beside `outside/` (which holds secrets):
/// (link, target); `{base}` and `{root}` stand for those directories' paths.
const LAYOUTS: &[&[(&str, &str)]] = &[
    &[("AGENTS.md", "/etc/passwd")],
    &[("a/AGENTS.md", "../../outside/AGENTS.md")],
    &[("a/AGENTS.md", "{base}/outside/AGENTS.md")],
    &[("up", "..")],
    &[("AGENTS.md", "l1"), ("l1", "a/l2"), ("a/l2", "../b/l3")],
    &[("b/l3", "../../outside/AGENTS.md"), ("c", "b")],
    &[("a/b/AGENTS.md", "../../a/b/../../../outside/AGENTS.md")],
    &[
        ("a/b/AGENTS.md", "../../shared/../rules.md"),
        ("a/b/alias", "../../real"),
    ],
    &[("a", "../outside"), ("in", "a/deeper")],
    &[("in", "a/b"), ("a/b", "../../outside")],
    &[
        ("AGENTS.md", "/nonexistent-agentsmd/AGENTS.md"),
        ("dangling", "nowhere"),
    ],
    &[
        ("a/AGENTS.md", "{root}/rules.md"),
        ("a/CLAUDE.md", "../rules.md/x"),
    ],
    &[
        ("loop", "loop"),
        ("a/AGENTS.md", "../loop"),
        ("a/CLAUDE.md", "../real/"),
    ],
];

/// What a question answered, comparable: the entry, or the errno.
type Answer = Result<(u64, u64, u32), Errno>;

/// What every question a chain asks of `name` answers: its stat without and with following a
/// final link, and its opens as a directory to list, as a file to read through a link, and as
/// one not to.
fn answers(fs: &ConfinedFs, name: &str) -> [Answer; 5] {
    let name = name.as_bytes();
    let answer = |stat: Result<Stat, Errno>| stat.map(|s| (s.st_dev, s.st_ino, s.st_mode));
    let opened = |flags| answer(fs.open_beneath(name, flags).and_then(fstat));
    [
        answer(fs.stat_beneath(name, false)),
        answer(fs.stat_beneath(name, true)),
        opened(OFlags::RDONLY | OFlags::DIRECTORY),
        opened(OFlags::RDONLY | OFlags::NONBLOCK),
        opened(OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW),
    ]
}

#[test]
fn the_walk_without_openat2_answers_as_openat2_does() {
    let base = tempfile::tempdir().unwrap();
    let write = |path: std::path::PathBuf, text: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(base.path().join("outside/deeper/AGENTS.md"), "secret\n");
    write(base.path().join("outside/AGENTS.md"), "secret\n");
    // 41 links in a row: one more than Linux follows.
    let mut layouts: Vec<Vec<(String, String)>> = LAYOUTS
        .iter()
        .map(|links| links.iter().map(|&(l, t)| (l.into(), t.into())).collect())
        .collect();
    let mut row: Vec<_> = (0..41)
        .map(|i| (format!("n{i}"), format!("n{}", i + 1)))
        .collect();
    row.push(("n41".into(), "rules.md".into()));
    layouts.push(row);
    let mut compared = 0;
    for (i, links) in layouts.iter().enumerate() {
        let root = base.path().join(format!("root{i}"));
        write(root.join("AGENTS.md"), "root rules\n");
        write(root.join("rules.md"), "inside rules\n");
        write(root.join("real/AGENTS.md"), "real rules\n");
        std::fs::create_dir_all(root.join("shared")).unwrap();
        for (link, target) in links {
            let target = target
                .replace("{base}", base.path().to_str().unwrap())
                .replace("{root}", root.to_str().unwrap());
            let link = root.join(link);
            std::fs::create_dir_all(link.parent().unwrap()).unwrap();
            let _ = std::fs::remove_file(&link); // a link in place of the root's file
            symlink(target, link).unwrap();
        }
        // openat2 even where the tests selected the portable path, whose walk is compared.
        let mut by_openat2 = ConfinedFs::open(&root).unwrap();
        // Not a pass with nothing compared: where openat2 is missing, this test fails.
        assert!(
            super::super::linux::has_openat2(by_openat2.fd.as_fd()),
            "no openat2 here (an old kernel, or a filter): nothing to compare the walk with"
        );
        by_openat2.openat2 = true;
        let mut by_walk = ConfinedFs::open(&root).unwrap();
        by_walk.openat2 = false;

        let mut names = vec![".".to_string(), "..".into(), "a/../..".into()];
        for (link, _) in links {
            for below in [
                "",
                "/",
                "/.",
                "/AGENTS.md",
                "/deeper/AGENTS.md",
                "/x",
                "/..",
            ] {
                names.push(format!("{link}{below}"));
            }
        }
        for name in &names {
            compared += 5;
            assert_eq!(
                answers(&by_walk, name),
                answers(&by_openat2, name),
                "root{i}: {name} (stat, stat following, open to list, to read, to read \
                 without following)"
            );
        }
        // And the walk's answers, chain by chain, from the directory of each link and
        // from below it.
        let (by_walk, by_openat2) = (Arc::new(by_walk), Arc::new(by_openat2));
        let names = ["AGENTS.md", "CLAUDE.md"];
        for (link, _) in links {
            let dir = link.rsplit_once('/').map_or(".", |(dir, _)| dir);
            for path in [format!("{dir}/x"), format!("{link}/x"), link.clone()] {
                let path = path.trim_start_matches("./");
                let of = |fs: &Arc<ConfinedFs>| {
                    chain(path, &Options::new().names(names).fs(fs.clone()))
                        .map_err(|e| e.to_string())
                };
                assert_eq!(of(&by_walk), of(&by_openat2), "root{i}: {path}");
                compared += 1;
            }
        }
    }
    assert!(compared > 1_000, "only {compared} answers compared");
}

#[test]
fn the_walk_of_the_portable_path_answers_as_openat2_does() {
    // The test above, again with the portable path's calls selected (`unix/mod.rs`): its walk
    // opens each directory to search (`O_RDONLY` on Linux, `O_SEARCH` on macOS and
    // FreeBSD) rather than to locate (`O_PATH`).
    let run = std::process::Command::new(std::env::current_exe().unwrap())
        .env("AGENTSMD_TEST_PORTABLE", "1")
        .args([
            "--exact",
            "fs::sys::unix::confined::tests::the_walk_without_openat2_answers_as_openat2_does",
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success() && out.contains("1 passed"), "{out}");
}
