//! The walker answers what the plain chain answers, on every call, however the tree changed
//! since the last one: an edit (also one through `mmap`, which raises no inotify event), a new
//! file, a deleted file, a renamed directory on the way, a new override name, links re-pointed,
//! a file edited through another hard link, a renamed directory above the root, a new path
//! beside a kept answer that is a directory, a link or nothing yet. Each scenario runs twice:
//! with watches, and with every directory revalidated by stat. And on an unchanged tree a call
//! costs one system call plus one per file in the chain (one more for a path not asked before).
//!
//! The trees live under Cargo's target directory rather than the system's temporary one, since
//! the walker watches the directories above its root too, and those are quieter there.

use std::fs;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use agentsmd::fs::system_calls;
use agentsmd::{chain, Chain, Error, Options, Walker};

/// A directory tree under Cargo's target directory, removed when dropped.
struct Tree {
    dir: tempfile::TempDir,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("walker")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .expect("temporary directory");
        Self { dir }
    }

    /// `rel` below the tree; never a path outside it (an absolute `rel` would replace the
    /// tree's path in `join`, and the test would write into `/`).
    fn at(&self, rel: &str) -> PathBuf {
        let at = self.dir.path().join(rel);
        assert!(
            at.starts_with(self.dir.path()),
            "{rel:?} is outside the tree"
        );
        at
    }

    fn path(&self, rel: &str) -> Vec<u8> {
        self.at(rel).as_os_str().as_bytes().to_vec()
    }

    fn file(&self, rel: &str, content: &str) {
        let at = self.at(rel);
        fs::create_dir_all(at.parent().unwrap()).unwrap();
        fs::write(at, content).unwrap();
    }

    fn symlink(&self, rel: &str, target: &str) {
        std::os::unix::fs::symlink(target, self.at(rel)).unwrap();
    }

    fn remove(&self, rel: &str) {
        let at = self.at(rel);
        if at.symlink_metadata().unwrap().is_dir() {
            fs::remove_dir_all(at).unwrap();
        } else {
            fs::remove_file(at).unwrap();
        }
    }

    fn rename(&self, from: &str, to: &str) {
        fs::rename(self.at(from), self.at(to)).unwrap();
    }
}

/// Makes a walker.
type Make = fn(Options) -> Walker;

/// Both ways a walker keeps its cache true.
const MODES: [(&str, Make); 2] = [
    ("watched", Walker::new),
    ("by stat", Walker::without_watches),
];

/// Lets the tree's times age past the timestamp granularity, so that what a walker caches now
/// is trusted, and a later change is caught by the recheck rather than by distrust of a fresh
/// file.
fn settle() {
    thread::sleep(Duration::from_millis(60));
}

/// What a walker answered, checked against the plain chain.
struct Answer(Result<Chain, Error>);

impl Answer {
    fn chain(self) -> Chain {
        self.0.expect("a chain")
    }

    fn error(self) -> Error {
        self.0.expect_err("an error")
    }
}

/// Asks `walker` for `path` and checks the answer against the plain chain's.
fn same(walker: &Walker, path: &[u8], step: &str) -> Answer {
    let got = walker.chain(path);
    let expected = chain(path, walker.options());
    assert_eq!(got, expected, "{step}");
    Answer(got)
}

/// Asks `walker` for `path` three times, checking each answer: the first call looks up and
/// keeps its chain as the answer for the start directory (when nothing in it needs a check on
/// every call, and every file it read had settled), and the later ones are answered from it,
/// so that a change made next is checked against a kept answer too.
fn asked_until_kept(walker: &Walker, path: &[u8], step: &str) {
    for _ in 0..3 {
        same(walker, path, step);
    }
}

fn contents(answer: &Answer) -> Vec<String> {
    answer
        .0
        .as_ref()
        .expect("a chain")
        .files
        .iter()
        .map(|f| String::from_utf8_lossy(&f.content).into_owned())
        .collect()
}

fn options(tree: &Tree, names: &[&str]) -> Options {
    Options {
        names: names.iter().map(|n| n.as_bytes().to_vec()).collect(),
        root: tree.path(""),
        ..Options::default()
    }
}

/// A tree of three levels with instruction files at the root and in `a`, and the path asked.
fn basic(tree: &Tree) -> Vec<u8> {
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n");
    tree.file("a/b/c/main.rs", "fn main() {}\n");
    tree.path("a/b/c/main.rs")
}

#[test]
fn sees_an_edit() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        let walker = make(options(&tree, &["AGENTS.md"]));
        settle();
        asked_until_kept(&walker, &path, mode);
        tree.file("a/AGENTS.md", "A\n");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "A\n"],
            "{mode}"
        );
        tree.file("a/AGENTS.md", "a longer text\n");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "a longer text\n"],
            "{mode}"
        );
    }
}

/// Writes `new` over the start of the file at `path` through a shared mapping: no `write`
/// system call, so no inotify event.
fn write_through_mmap(path: &Path, new: &[u8]) {
    let file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .unwrap();
    // SAFETY: a fresh shared mapping of `new.len()` bytes of a file at least that long, written
    // and unmapped here.
    unsafe {
        let map = libc::mmap(
            std::ptr::null_mut(),
            new.len(),
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            file.as_raw_fd(),
            0,
        );
        assert_ne!(map, libc::MAP_FAILED);
        std::ptr::copy_nonoverlapping(new.as_ptr(), map.cast::<u8>(), new.len());
        libc::munmap(map, new.len());
    }
}

#[test]
fn sees_an_edit_through_mmap() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        let walker = make(options(&tree, &["AGENTS.md"]));
        settle();
        asked_until_kept(&walker, &path, mode);
        let reported = walker.changes_reported();
        write_through_mmap(&tree.at("a/AGENTS.md"), b"A");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "A\n"],
            "{mode}"
        );
        // The same size, and no event: only the stat of the file told.
        assert_eq!(walker.changes_reported(), reported, "{mode}");
    }
}

#[test]
fn sees_a_new_file() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        let walker = make(options(&tree, &["AGENTS.md"]));
        settle();
        asked_until_kept(&walker, &path, mode);
        tree.file("a/b/AGENTS.md", "b\n");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "a\n", "b\n"],
            "{mode}"
        );
        // In the start directory, and in a directory that did not exist.
        tree.file("a/b/c/AGENTS.md", "c\n");
        same(&walker, &path, mode);
        let deeper = tree.path("a/b/c/d/e/new.rs");
        same(&walker, &deeper, mode);
        tree.file("a/b/c/d/AGENTS.md", "d\n");
        assert_eq!(
            contents(&same(&walker, &deeper, mode)),
            ["root\n", "a\n", "b\n", "c\n", "d\n"],
            "{mode}"
        );
    }
}

#[test]
fn sees_a_deleted_file() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        let walker = make(options(&tree, &["AGENTS.md"]));
        settle();
        asked_until_kept(&walker, &path, mode);
        tree.remove("a/AGENTS.md");
        assert_eq!(contents(&same(&walker, &path, mode)), ["root\n"], "{mode}");
        tree.remove("AGENTS.md");
        assert!(contents(&same(&walker, &path, mode)).is_empty(), "{mode}");
    }
}

#[test]
fn sees_a_renamed_directory_on_the_way() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        let walker = make(options(&tree, &["AGENTS.md"]));
        settle();
        asked_until_kept(&walker, &path, mode);
        // Renamed away: the path's directories no longer exist.
        tree.rename("a", "gone");
        assert_eq!(contents(&same(&walker, &path, mode)), ["root\n"], "{mode}");
        // Another directory renamed into its place.
        tree.file("other/AGENTS.md", "other\n");
        tree.file("other/b/c/main.rs", "fn main() {}\n");
        tree.rename("other", "a");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "other\n"],
            "{mode}"
        );
        // And the old one back, swapped by two renames.
        tree.rename("a", "other");
        tree.rename("gone", "a");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "a\n"],
            "{mode}"
        );
    }
}

#[test]
fn sees_a_new_override_name() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        let walker = make(options(&tree, &["AGENTS.override.md", "AGENTS.md"]));
        settle();
        asked_until_kept(&walker, &path, mode);
        tree.file("a/AGENTS.override.md", "override\n");
        let result = same(&walker, &path, mode);
        assert_eq!(contents(&result), ["root\n", "override\n"], "{mode}");
        assert_eq!(
            result.chain().omitted.len(),
            1,
            "{mode}: a/AGENTS.md is shadowed"
        );
        // The shadowed file grows: its reported size follows.
        tree.file("a/AGENTS.md", "a, and more\n");
        same(&walker, &path, mode);
        tree.remove("a/AGENTS.override.md");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "a, and more\n"],
            "{mode}"
        );
    }
}

#[test]
fn sees_links_re_pointed_and_their_targets_edited() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        tree.file("shared/one.md", "one\n");
        tree.file("shared/two.md", "two\n");
        tree.symlink("a/b/AGENTS.md", "../../shared/one.md");
        let walker = make(options(&tree, &["AGENTS.md"]));
        settle();
        asked_until_kept(&walker, &path, mode);
        // The target edited: no event in the link's directory.
        tree.file("shared/one.md", "one, edited\n");
        same(&walker, &path, mode);
        // The link re-pointed, then dangling, then its target back.
        tree.remove("a/b/AGENTS.md");
        tree.symlink("a/b/AGENTS.md", "../../shared/two.md");
        same(&walker, &path, mode);
        tree.remove("shared/two.md");
        same(&walker, &path, mode);
        tree.file("shared/two.md", "two again\n");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "a\n", "two again\n"],
            "{mode}"
        );
        // A link dangling when looked up, whose target then appears.
        tree.symlink("a/b/c/AGENTS.md", "../../../shared/three.md");
        same(&walker, &path, mode);
        tree.file("shared/three.md", "three\n");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "a\n", "two again\n", "three\n"],
            "{mode}"
        );
        // A directory on the way that is a link, re-pointed.
        tree.file("elsewhere/AGENTS.md", "elsewhere\n");
        tree.file("elsewhere/c/main.rs", "");
        tree.rename("a/b", "a/b.real");
        tree.symlink("a/b", "b.real");
        same(&walker, &path, mode);
        tree.remove("a/b");
        tree.symlink("a/b", "../elsewhere");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "a\n", "elsewhere\n"],
            "{mode}"
        );
    }
}

#[test]
fn sees_a_shadowed_file_grow_through_another_hard_link() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        tree.file("a/AGENTS.override.md", "override\n");
        fs::hard_link(tree.at("a/AGENTS.md"), tree.at("elsewhere.md")).unwrap();
        let walker = make(options(&tree, &["AGENTS.override.md", "AGENTS.md"]));
        settle();
        asked_until_kept(&walker, &path, mode);
        // Written through the other name: the event is in the root, not in `a`.
        fs::write(tree.at("elsewhere.md"), "a, much longer now\n").unwrap();
        same(&walker, &path, mode);
    }
}

#[test]
fn sees_the_start_path_become_a_directory() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        let walker = make(options(&tree, &["AGENTS.md"]));
        settle();
        asked_until_kept(&walker, &path, mode);
        tree.remove("a/b/c/main.rs");
        tree.file("a/b/c/main.rs/AGENTS.md", "now a directory\n");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "a\n", "now a directory\n"],
            "{mode}"
        );
        same(&walker, &path, mode);
        // And a file again.
        tree.remove("a/b/c/main.rs");
        tree.file("a/b/c/main.rs", "fn main() {}\n");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "a\n"],
            "{mode}"
        );
        same(&walker, &path, mode);
    }
}

/// Sets the modification time of the file at `path` to that of the file at `like`.
fn same_mtime(path: &Path, like: &Path) {
    let modified = fs::metadata(like).unwrap().modified().unwrap();
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
}

#[test]
fn sees_a_file_or_directory_replaced_by_one_of_the_same_size_and_time() {
    // While a watch vouches for a name, the walker stats the file it read through the
    // descriptor it kept rather than by path: a name given to another file must not be
    // answered from the one still open.
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        let walker = make(options(&tree, &["AGENTS.md"]));
        settle();
        asked_until_kept(&walker, &path, mode);
        tree.file("new.md", "b\n");
        same_mtime(&tree.at("new.md"), &tree.at("a/AGENTS.md"));
        tree.rename("new.md", "a/AGENTS.md");
        assert_eq!(contents(&same(&walker, &path, mode)), ["root\n", "b\n"]);
        settle();
        asked_until_kept(&walker, &path, mode);
        // The directory, swapped for another whose file has the same size and time.
        tree.file("other/AGENTS.md", "c\n");
        tree.file("other/b/c/main.rs", "");
        same_mtime(&tree.at("other/AGENTS.md"), &tree.at("a/AGENTS.md"));
        tree.rename("a", "old");
        tree.rename("other", "a");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "c\n"],
            "{mode}"
        );
        settle();
        asked_until_kept(&walker, &path, mode);
        // And its file edited without an event.
        write_through_mmap(&tree.at("a/AGENTS.md"), b"C");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["root\n", "C\n"],
            "{mode}"
        );
    }
}

#[test]
fn descriptors_kept_are_capped() {
    let tree = Tree::new();
    let paths: Vec<Vec<u8>> = (0..140)
        .map(|i| {
            tree.file(&format!("d{i}/AGENTS.md"), &format!("{i}\n"));
            tree.path(&format!("d{i}/main.rs"))
        })
        .collect();
    let walker = Walker::new(options(&tree, &["AGENTS.md"]));
    settle();
    for path in &paths {
        same(&walker, path, "first");
    }
    assert_eq!(walker.descriptors_kept(), 128, "the cap");
    // Files edited without an event: one whose descriptor was given up (the least recently
    // used), one whose descriptor is kept.
    write_through_mmap(&tree.at("d0/AGENTS.md"), b"X");
    write_through_mmap(&tree.at("d139/AGENTS.md"), b"Y");
    for path in &paths {
        same(&walker, path, "after the edits");
    }
    assert_eq!(walker.descriptors_kept(), 128, "the cap");
    // A directory dropped gives its descriptors up.
    tree.rename("d139", "gone");
    same(&walker, &paths[139], "renamed away");
    assert_eq!(walker.descriptors_kept(), 127);
}

#[test]
fn start_directories_kept_are_capped_and_given_up() {
    let tree = Tree::new();
    let paths: Vec<Vec<u8>> = (0..140)
        .map(|i| {
            tree.file(&format!("d{i}/main.rs"), "");
            tree.path(&format!("d{i}/main.rs"))
        })
        .collect();
    tree.file("AGENTS.md", "root\n");
    let walker = Walker::new(options(&tree, &["AGENTS.md"]));
    settle();
    for path in &paths {
        same(&walker, path, "first");
    }
    assert_eq!(walker.answers_kept(), 140);
    assert_eq!(walker.directories_kept(), 128, "the cap");
    // A path beside each, looked up in the directory kept, or by its path past the cap.
    for i in [0, 139] {
        let beside = tree.path(&format!("d{i}/lib.rs"));
        assert_eq!(contents(&same(&walker, &beside, "beside")), ["root\n"]);
    }
    // Any change forgets the answers, and gives their directories up.
    tree.file("d7/AGENTS.md", "d7\n");
    same(&walker, &paths[7], "after the change");
    assert!(walker.directories_kept() <= 1, "given up");
}

#[test]
fn sees_permissions_change_above_the_root() {
    // The permission changes of each directory on the way are reported by one watch: its
    // parent's when that one reports those of its entries, its own otherwise (a watch asked for
    // them makes the kernel mark every name cached in the directory, tens of thousands in a
    // busy /tmp, so not every directory asks). A mode set to itself raises the same event as a
    // change, and changes nothing for the other users of these directories.
    let tree = Tree::new();
    let path = basic(&tree);
    let walker = Walker::new(options(&tree, &["AGENTS.md"]));
    same(&walker, &path, "first");
    for dir in tree.at("").ancestors().skip(1) {
        if dir == Path::new("/") {
            continue;
        }
        let reported = walker.changes_reported();
        let mode = fs::metadata(dir).unwrap().permissions();
        if fs::set_permissions(dir, mode).is_err() {
            // Another user's directory (the test runs as one that does not own it).
            continue;
        }
        same(&walker, &path, &format!("{dir:?}"));
        assert!(walker.changes_reported() > reported, "{dir:?}");
    }
}

#[test]
fn sees_a_directory_above_the_root_renamed() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        tree.file("x/root/AGENTS.md", "first\n");
        let root = tree.path("x/root");
        let path = tree.path("x/root/main.rs");
        let walker = make(Options {
            root: root.clone(),
            ..Options::default()
        });
        settle();
        asked_until_kept(&walker, &path, mode);
        tree.rename("x", "y");
        tree.file("x/root/AGENTS.md", "second\n");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["second\n"],
            "{mode}"
        );
    }
}

#[test]
fn errors_are_the_plain_chains() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        let walker = make(options(&tree, &["AGENTS.md"]));
        same(&walker, &path, mode);
        // A path through a file; a directory replaced by a file; an invalid name.
        same(&walker, &tree.path("a/b/c/main.rs/x"), mode).error();
        tree.remove("a/b");
        tree.file("a/b", "a file now\n");
        same(&walker, &path, mode).error();
        let bad = make(Options {
            names: vec![b"a/b".to_vec()],
            ..options(&tree, &[])
        });
        same(&bad, &path, mode).error();
        // A root that is a file.
        let file_root = make(Options {
            root: tree.path("AGENTS.md"),
            ..Options::default()
        });
        same(&file_root, &tree.path("AGENTS.md"), mode).error();
    }
}

#[test]
fn extra_files_and_budgets_follow_changes() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        tree.file("home/AGENTS.md", "home\n");
        let walker = make(Options {
            extra: vec![tree.path("home/AGENTS.md")],
            budget: 12,
            ..options(&tree, &["AGENTS.md"])
        });
        settle();
        // Each state's chain kept as the answer before it changes: the answer kept must not
        // stand.
        same(&walker, &path, mode);
        same(&walker, &path, mode);
        tree.file("home/AGENTS.md", "home, now long enough to end the chain\n");
        same(&walker, &path, mode);
        settle();
        asked_until_kept(&walker, &path, mode);
        write_through_mmap(&tree.at("home/AGENTS.md"), b"H");
        same(&walker, &path, mode);
        tree.remove("home/AGENTS.md");
        asked_until_kept(&walker, &path, mode);
        tree.file("home/AGENTS.md", "back\n");
        assert_eq!(
            contents(&same(&walker, &path, mode)),
            ["back\n", "root\n", "a\n"],
            "{mode}"
        );
    }
}

#[test]
fn a_custom_file_system_is_asked_afresh() {
    let tree = Tree::new();
    tree.file("AGENTS.md", "root\n");
    let fs = Arc::new(agentsmd_dir_fs(tree.at(""))) as Arc<dyn agentsmd::fs::FileSystem>;
    let walker = Walker::new(Options {
        fs: Some(fs),
        ..Options::default()
    });
    same(&walker, b"a/new.rs", "first");
    tree.file("AGENTS.md", "edited\n");
    assert_eq!(
        contents(&same(&walker, b"a/new.rs", "second")),
        ["edited\n"]
    );
}

/// A custom file system over a directory, through the OS file system's answers.
fn agentsmd_dir_fs(base: PathBuf) -> impl agentsmd::fs::FileSystem {
    struct Under(PathBuf);
    impl Under {
        fn os(&self, name: &[u8]) -> Vec<u8> {
            let path = if name == b"." {
                self.0.clone()
            } else {
                self.0.join(std::ffi::OsStr::from_bytes(name))
            };
            path.as_os_str().as_bytes().to_vec()
        }
    }
    impl agentsmd::fs::FileSystem for Under {
        fn list(&self, dir: &[u8]) -> Result<Option<Vec<Vec<u8>>>, Error> {
            agentsmd::fs::OsFs.list(&self.os(dir))
        }
        fn stat(&self, path: &[u8]) -> Result<Option<agentsmd::fs::Metadata>, Error> {
            agentsmd::fs::OsFs.stat(&self.os(path))
        }
        fn read(&self, path: &[u8], hint: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
            agentsmd::fs::OsFs.read(&self.os(path), hint, limit)
        }
    }
    Under(base)
}

#[test]
fn threads_share_one_walker() {
    let tree = Arc::new(Tree::new());
    let path = basic(&tree);
    for dir in ["a/b/c", "a/x", "a/y/z"] {
        tree.file(&format!("{dir}/AGENTS.md"), &format!("{dir}\n"));
    }
    let walker = Arc::new(Walker::new(options(&tree, &["AGENTS.md"])));
    let paths = [path, tree.path("a/x/f.rs"), tree.path("a/y/z/g.rs")];
    let workers: Vec<_> = (0..4)
        .map(|i| {
            let (walker, paths) = (Arc::clone(&walker), paths.clone());
            thread::spawn(move || {
                for round in 0..200 {
                    walker.chain(&paths[(i + round) % paths.len()]).unwrap();
                }
            })
        })
        .collect();
    for round in 0..50 {
        tree.file("a/AGENTS.md", &format!("a, round {round}\n"));
    }
    for worker in workers {
        worker.join().unwrap();
    }
    for path in &paths {
        same(&walker, path, "after the threads");
    }
}

/// The system calls of one `walker.chain(path)` on this thread.
fn calls_of(walker: &Walker, path: &[u8]) -> u64 {
    let before = system_calls();
    walker.chain(path).unwrap();
    system_calls() - before
}

/// The fewest system calls a call for `path` costs over up to three seconds, stopping once it
/// costs `expected`. Other tests creating their trees change a directory above this one: a
/// watching walker then reads their events, and one revalidating by stat looks into the
/// directories below it again, so only a quiet moment shows what an unchanged tree costs.
fn fewest(walker: &Walker, path: &[u8], expected: u64) -> u64 {
    let mut least = u64::MAX;
    for _ in 0..100 {
        least = least.min(calls_of(walker, path));
        if least <= expected {
            break;
        }
        thread::sleep(Duration::from_millis(30));
    }
    least
}

#[test]
fn an_unchanged_tree_costs_one_call_plus_one_per_file() {
    let tree = Tree::new();
    let path = basic(&tree);
    tree.file("a/b/c/d/e/f/g/h/AGENTS.md", "deep\n");
    let deep = tree.path("a/b/c/d/e/f/g/h/main.rs");
    let walker = Walker::new(options(&tree, &["AGENTS.override.md", "AGENTS.md"]));
    settle();
    let first = calls_of(&walker, &deep);
    let files = walker.chain(&deep).unwrap().files.len() as u64;
    assert_eq!(files, 3);
    let steady = fewest(&walker, &deep, 1 + files);
    println!("first call {first} system calls, then {steady} for {files} files");
    assert_eq!(steady, 1 + files, "one poll and one stat per file");
    assert_eq!(
        walker.answers_kept(),
        1,
        "the chain kept as the path's answer"
    );
    // A path not asked before, in a directory with a kept answer: one more, to tell whether it
    // is a directory; and once asked, no more.
    let mut least = u64::MAX;
    for n in 0..100 {
        let sibling = tree.path(&format!("a/b/c/d/e/f/g/h/lib{n}.rs"));
        least = least.min(calls_of(&walker, &sibling));
        if least <= 2 + files {
            assert_eq!(fewest(&walker, &sibling, 1 + files), 1 + files);
            break;
        }
        thread::sleep(Duration::from_millis(30));
    }
    assert_eq!(
        least,
        2 + files,
        "a poll, the path's stat, one stat per file"
    );
    assert_eq!(walker.answers_kept(), 1, "one start directory, one answer");
    assert_eq!(fewest(&walker, &path, 1 + 2), 1 + 2);
}

#[test]
fn a_new_path_beside_a_kept_answer_is_told_apart() {
    for (mode, make) in MODES {
        let tree = Tree::new();
        let path = basic(&tree);
        tree.file("a/b/c/sub/AGENTS.md", "sub\n");
        tree.file("elsewhere/AGENTS.md", "elsewhere\n");
        tree.symlink("a/b/c/link", "../../../elsewhere");
        tree.symlink("a/b/c/dangling", "nowhere");
        tree.file("elsewhere/target", "");
        tree.symlink("a/b/c/far", "../../../elsewhere/target");
        let walker = make(options(&tree, &["AGENTS.md"]));
        settle();
        asked_until_kept(&walker, &path, mode);
        // A link beside it to a file elsewhere, which becomes a directory: no event in `c`.
        let far = tree.path("a/b/c/far");
        asked_until_kept(&walker, &far, mode);
        tree.remove("elsewhere/target");
        tree.file("elsewhere/target/AGENTS.md", "target\n");
        assert_eq!(
            contents(&same(&walker, &far, mode)),
            ["root\n", "a\n", "target\n"],
            "{mode}"
        );
        // Beside it: a file, a directory, a link to one, a dangling link, nothing yet.
        for (name, expected) in [
            ("lib.rs", &["root\n", "a\n"][..]),
            ("sub", &["root\n", "a\n", "sub\n"]),
            ("link", &["root\n", "a\n", "elsewhere\n"]),
            ("dangling", &["root\n", "a\n"]),
            ("new.rs", &["root\n", "a\n"]),
        ] {
            let step = format!("{mode}: {name}");
            let path = tree.path(&format!("a/b/c/{name}"));
            assert_eq!(contents(&same(&walker, &path, &step)), expected, "{step}");
            same(&walker, &path, &step);
        }
        // A path told to be no directory becomes one, and a file again.
        tree.file("a/b/c/new.rs/AGENTS.md", "new\n");
        let new = tree.path("a/b/c/new.rs");
        assert_eq!(
            contents(&same(&walker, &new, mode)),
            ["root\n", "a\n", "new\n"],
            "{mode}"
        );
        tree.remove("a/b/c/new.rs");
        tree.file("a/b/c/new.rs", "");
        assert_eq!(contents(&same(&walker, &new, mode)), ["root\n", "a\n"]);
        // A link beside it re-pointed from a file to a directory.
        tree.symlink("a/b/c/moving", "main.rs");
        let moving = tree.path("a/b/c/moving");
        asked_until_kept(&walker, &moving, mode);
        tree.remove("a/b/c/moving");
        tree.symlink("a/b/c/moving", "sub");
        assert_eq!(
            contents(&same(&walker, &moving, mode)),
            ["root\n", "a\n", "sub\n"],
            "{mode}"
        );
    }
}

#[test]
fn revalidating_by_stat_costs_one_stat_per_directory_and_file() {
    let tree = Tree::new();
    let path = basic(&tree);
    let walker = Walker::without_watches(options(&tree, &["AGENTS.md"]));
    settle();
    // The first call looks up; the second learns that the path is no directory.
    calls_of(&walker, &path);
    calls_of(&walker, &path);
    // Every directory from `/` down to the start, and each of the two files found.
    let expected = path.iter().filter(|&&b| b == b'/').count() as u64 + 2;
    assert_eq!(fewest(&walker, &path, expected), expected);
    assert_eq!(
        walker.answers_kept(),
        0,
        "no chain kept: each call checks its directories"
    );
}

/// A small deterministic generator (xorshift64*), so that a failing seed can be replayed.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// `name` in the tree's directory `dir`, `""` being the tree itself.
fn below(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

#[test]
fn random_changes_are_all_seen() {
    const DIRS: &[&str] = &["", "a", "a/b", "a/b/c", "x", "x/y", "x/y/w"];
    const NAMES: &[&str] = &["AGENTS.md", "AGENTS.override.md", "agents.md"];
    const TARGETS: &[&str] = &["shared/t0", "shared/t1", "shared/t2"];
    // Some beside others, asked after them: answered from their start directory's answer, and
    // `x/y/w` a directory renamed away and back, or created, on the way.
    const PATHS: &[&str] = &[
        "a/b/c/main.rs",
        "a/b/c/lib.rs",
        "a/b/new.rs",
        "x/y/z",
        "x/y/w",
        "x/y/w/z",
        "a",
        "",
    ];
    for (mode, make) in MODES {
        for seed in 1..=3u64 {
            let tree = Tree::new();
            for dir in DIRS {
                tree.file(&below(dir, "keep"), "");
            }
            tree.file("shared/keep", "");
            let walker = make(options(&tree, &["AGENTS.override.md", "AGENTS.md"]));
            let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            for step in 0..150 {
                if step % 15 == 0 {
                    // A settled tree, its chains kept as answers: the change made next is
                    // checked against kept answers too.
                    settle();
                    for path in PATHS {
                        let step = format!("{mode}, seed {seed}, before step {step}, path {path}");
                        asked_until_kept(&walker, &tree.path(path), &step);
                    }
                }
                let dir = random.pick(DIRS);
                let file = below(dir, random.pick(NAMES));
                let target = random.pick(TARGETS);
                let exists = |rel: &str| tree.at(rel).symlink_metadata().is_ok();
                let parent_ok = tree.at(dir).is_dir();
                let what = match random.below(10) {
                    0 | 1 if parent_ok => {
                        let text = "x".repeat(random.below(30));
                        let _ = fs::remove_file(tree.at(&file));
                        tree.file(&file, &text);
                        format!("write {file}")
                    }
                    2 if exists(&file) => {
                        let _ = fs::remove_file(tree.at(&file));
                        format!("remove {file}")
                    }
                    3 if tree.at(&file).is_file()
                        && tree.at(&file).metadata().unwrap().len() > 0 =>
                    {
                        write_through_mmap(&tree.at(&file), b"M");
                        format!("mmap {file}")
                    }
                    4 if parent_ok && !exists(&file) => {
                        let up = "../".repeat(file.matches('/').count());
                        tree.symlink(&file, &format!("{up}{target}"));
                        format!("link {file}")
                    }
                    5 => {
                        let text = "t".repeat(random.below(30));
                        let _ = fs::remove_file(tree.at(target));
                        tree.file(target, &text);
                        format!("write {target}")
                    }
                    6 if exists(target) => {
                        tree.remove(target);
                        format!("remove {target}")
                    }
                    7 if !dir.is_empty() && exists(dir) => {
                        tree.rename(dir, &format!("spare{step}"));
                        format!("rename {dir} away")
                    }
                    8 if !dir.is_empty()
                        && !exists(dir)
                        && tree
                            .at(dir.rsplit_once('/').map_or("", |(up, _)| up))
                            .is_dir() =>
                    {
                        let spares: Vec<String> = (0..step)
                            .map(|s| format!("spare{s}"))
                            .filter(|s| exists(s))
                            .collect();
                        if spares.is_empty() {
                            tree.file(&below(dir, "keep"), "");
                            format!("create {dir}")
                        } else {
                            let spare = &spares[random.below(spares.len())];
                            tree.rename(spare, dir);
                            format!("rename {spare} to {dir}")
                        }
                    }
                    _ => "nothing".to_string(),
                };
                for path in PATHS {
                    same(
                        &walker,
                        &tree.path(path),
                        &format!("{mode}, seed {seed}, step {step} ({what}), path {path}"),
                    );
                }
            }
        }
    }
}
