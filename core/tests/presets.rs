//! SPEC.md §12, presets, at the core's API: for Codex, pi, opencode, Goose and Zed, which files
//! the product loads, in its order, with its text, what it drops, cuts or leaves unread
//! (`omitted`), and the exact piece [`Preset::render`] gives. Each test cites the line of the
//! product's pinned source it follows (issue 31 names the versions): openai/codex at 0cf644af,
//! anomalyco/opencode at 00b964bd, block/goose at 0086ae65, Zed v1.21.0, and the npm package
//! `@mariozechner/pi-coding-agent` 0.73.1 (node/bench/node_modules). Every tree is a fresh
//! temporary directory, and every test passes `Options::home` so no user's files are read.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use agentsmd_core::{chain, Chain, Options, Preset, Reason, Source};

/// A temporary tree, removed when dropped; paths are `/`-separated and relative to its root.
struct Tree {
    dir: tempfile::TempDir,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::TempDir::new().expect("temporary directory");
        Self { dir }
    }

    /// The root, with its links resolved (so that paths compare as the products print them).
    fn root(&self) -> PathBuf {
        // Resolved where a link leads to it (macOS's `/tmp`); on Windows as it is, where
        // resolving would give a `\\?\` path no product prints.
        match cfg!(windows) {
            true => self.dir.path().to_path_buf(),
            false => fs::canonicalize(self.dir.path()).expect("canonical root"),
        }
    }

    /// `rel`, `/`-separated, below the root, joined an element at a time (`\\` on Windows).
    fn path(&self, rel: &str) -> PathBuf {
        let names = rel.split('/').filter(|name| !name.is_empty());
        names.fold(self.root(), |path, name| path.join(name))
    }

    fn file(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(rel);
        fs::create_dir_all(path.parent().expect("a parent")).expect("parents");
        fs::write(&path, content).expect("write file");
        path
    }

    fn dir(&self, rel: &str) -> PathBuf {
        let path = self.path(rel);
        fs::create_dir_all(&path).expect("create directory");
        path
    }
}

/// What `preset` loads at `at` with `home`: the chain (checked to be the same through
/// `agentsmd_core::chain` with `Options::preset` as through `Preset::chain`), and its rendering.
fn load(preset: Preset, at: &Path, home: &Path) -> (Chain, Vec<u8>) {
    load_with(preset, at, Options::new().home(home))
}

fn load_with(preset: Preset, at: &Path, options: Options) -> (Chain, Vec<u8>) {
    let direct = preset.chain(at, &options).expect("the preset's chain");
    let through = chain(at, &options.clone().preset(preset)).expect("chain with the preset");
    assert_eq!(
        direct, through,
        "Preset::chain and chain with Options::preset"
    );
    let cwd = preset.working_dir(at, &options).expect("working directory");
    let rendered = preset.render(&direct, &cwd);
    (direct, rendered)
}

/// The files as (path, content), lossy for the assertion messages.
fn files(chain: &Chain) -> Vec<(PathBuf, String)> {
    let files = chain.files.iter();
    files
        .map(|f| (f.path.clone(), String::from_utf8_lossy(&f.content).into()))
        .collect()
}

fn sources(chain: &Chain) -> Vec<Source> {
    chain.files.iter().map(|f| f.source).collect()
}

/// The omitted files as (path, size, reason, by).
fn omitted(chain: &Chain) -> Vec<(PathBuf, u64, Reason, Option<PathBuf>)> {
    let omitted = chain.omitted.iter();
    omitted
        .map(|o| (o.path.clone(), o.size, o.reason, o.by.clone()))
        .collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 rendering")
}

/// Whether the file system holding `tree` tells `AGENTS.md` from `agents.md`.
fn case_sensitive(tree: &Tree) -> bool {
    tree.file("case-probe", "");
    let sensitive = !tree.path("CASE-PROBE").exists();
    fs::remove_file(tree.path("case-probe")).expect("remove probe");
    sensitive
}

/// Whether no ancestor of `tree`'s root holds one of `names` (pi walks to `/`, opencode without
/// a `.git` too): on a machine where one does, a test of those walks cannot pin the whole output.
fn nothing_above(tree: &Tree, names: &[&str]) -> bool {
    let root = tree.root();
    let clean = root
        .ancestors()
        .skip(1)
        .all(|dir| names.iter().all(|name| !dir.join(name).exists()));
    if !clean {
        eprintln!(
            "skipped: an ancestor of {} holds one of {names:?}",
            root.display()
        );
    }
    clean
}

// ---------------------------------------------------------------------------------------------
// Codex CLI, openai/codex at 0cf644af: codex-rs/core/src/agents_md.rs and agents_md_tests.rs.
// ---------------------------------------------------------------------------------------------

/// The budget `project_doc_max_bytes` has by default.
const CODEX_BUDGET: usize = 32 * 1024;

fn codex_wrap(cwd: &Path, text: &str) -> String {
    // agents_md_tests.rs, primary_only_project_doc_preserves_legacy_layout_…:
    // "# AGENTS.md instructions for {}\n\n<INSTRUCTIONS>\n{inner}\n</INSTRUCTIONS>".
    format!(
        "# AGENTS.md instructions for {}\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>",
        cwd.display()
    )
}

#[test]
fn s12_codex_global_then_root_to_cwd_with_the_project_doc_separator() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("AGENTS.md", "root doc");
    tree.file("workspace/AGENTS.md", "workspace doc\n");
    let cwd = tree.dir("workspace/crate_a");
    tree.file("workspace/crate_a/AGENTS.md", "crate doc");
    // The global text is trimmed (issue 31: "text trimmed, outside the budget").
    let global = home.file(".codex/AGENTS.md", "\n  global doc \n\n");
    let (chain, rendered) = load(Preset::Codex, &cwd, &home.root());
    assert_eq!(
        files(&chain),
        [
            (global, "global doc".into()),
            (tree.path("AGENTS.md"), "root doc".into()),
            (tree.path("workspace/AGENTS.md"), "workspace doc\n".into()),
            (tree.path("workspace/crate_a/AGENTS.md"), "crate doc".into()),
        ]
    );
    assert_eq!(
        sources(&chain),
        [Source::Extra, Source::Chain, Source::Chain, Source::Chain]
    );
    assert!(chain.omitted.is_empty(), "{:?}", chain.omitted);
    // agents_md.rs, legacy_text: AGENTS_MD_SEPARATOR "on the transition from user … to
    // project instructions", "\n\n" between project files (concatenates_root_and_cwd_docs:
    // "root doc\n\ncrate doc"); project texts are not trimmed.
    let inner = "global doc\n\n--- project-doc ---\n\nroot doc\n\nworkspace doc\n\n\ncrate doc";
    assert_eq!(text(&rendered), codex_wrap(&cwd, inner));
}

#[test]
fn s12_codex_project_only_has_no_separator_and_nothing_renders_empty() {
    let (tree, home) = (Tree::new(), Tree::new());
    let (chain, rendered) = load(Preset::Codex, &tree.root(), &home.root());
    // no_doc_file_returns_none: nothing loads, nothing is given.
    assert!(chain.files.is_empty() && chain.omitted.is_empty());
    assert_eq!(rendered, b"");
    // doc_smaller_than_limit_is_returned: "hello world" verbatim.
    tree.file("AGENTS.md", "hello world");
    let (_, rendered) = load(Preset::Codex, &tree.root(), &home.root());
    assert_eq!(text(&rendered), codex_wrap(&tree.root(), "hello world"));
    // A global file alone: its trimmed text, no separator.
    fs::remove_file(tree.path("AGENTS.md")).unwrap();
    home.file(".codex/AGENTS.md", "global only\n");
    let (_, rendered) = load(Preset::Codex, &tree.root(), &home.root());
    assert_eq!(text(&rendered), codex_wrap(&tree.root(), "global only"));
}

#[test]
fn s12_codex_root_is_the_nearest_git_file_or_directory_else_cwd_alone() {
    let home = Tree::new();
    // agents_md_paths: for each ancestor, `marker_exists` on any metadata (finds_doc_in_repo_root:
    // "Note .git can be a file or a directory").
    let tree = Tree::new();
    tree.file(".git", "gitdir: /path/to/actual/git/dir\n");
    tree.file("AGENTS.md", "root level doc");
    let cwd = tree.dir("workspace/crate_a");
    let (chain, _) = load(Preset::Codex, &cwd, &home.root());
    assert_eq!(
        files(&chain),
        [(tree.path("AGENTS.md"), "root level doc".into())]
    );
    // The nearest `.git` wins: a nested repository stops the walk below the outer one.
    tree.dir("workspace/.git");
    tree.file("workspace/AGENTS.md", "inner root");
    let (chain, _) = load(Preset::Codex, &cwd, &home.root());
    assert_eq!(
        files(&chain),
        [(tree.path("workspace/AGENTS.md"), "inner root".into())]
    );
    // No marker: "only the current working directory is considered".
    let bare = Tree::new();
    bare.file("AGENTS.md", "parent doc");
    let cwd = bare
        .file("sub/AGENTS.md", "cwd doc")
        .parent()
        .unwrap()
        .to_path_buf();
    let (chain, _) = load(Preset::Codex, &cwd, &home.root());
    assert_eq!(
        files(&chain),
        [(bare.path("sub/AGENTS.md"), "cwd doc".into())]
    );
    // A `.git` at the working directory itself makes it the root.
    bare.dir("sub/.git");
    let (chain, _) = load(Preset::Codex, &cwd, &home.root());
    assert_eq!(
        files(&chain),
        [(bare.path("sub/AGENTS.md"), "cwd doc".into())]
    );
}

#[test]
fn s12_codex_a_file_path_works_in_its_directory() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("AGENTS.md", "root");
    let source = tree.file("src/main.rs", "fn main() {}");
    let (chain, rendered) = load(Preset::Codex, &source, &home.root());
    assert_eq!(files(&chain), [(tree.path("AGENTS.md"), "root".into())]);
    assert_eq!(text(&rendered), codex_wrap(&tree.path("src"), "root"));
}

#[test]
fn s12_codex_override_stands_for_its_directory_and_shadows_agents_md() {
    let (tree, home) = (Tree::new(), Tree::new());
    // agents_local_md_preferred: "AGENTS.override.md is preferred over AGENTS.md".
    tree.file("AGENTS.md", "versioned");
    let local = tree.file("AGENTS.override.md", "local");
    let (chain, _) = load(Preset::Codex, &tree.root(), &home.root());
    assert_eq!(files(&chain), [(local.clone(), "local".into())]);
    assert_eq!(
        omitted(&chain),
        [(tree.path("AGENTS.md"), 9, Reason::Shadowed, Some(local))]
    );
}

#[test]
fn s12_codex_only_regular_files_stand_for_a_directory() {
    let (tree, home) = (Tree::new(), Tree::new());
    // override_directory_falls_back_to_agents_md_file: `Ok(md) if md.is_file`.
    tree.dir("AGENTS.override.md");
    tree.file("AGENTS.md", "primary");
    let (chain, _) = load(Preset::Codex, &tree.root(), &home.root());
    assert_eq!(files(&chain), [(tree.path("AGENTS.md"), "primary".into())]);
    // agents_md_directory_is_ignored.
    let other = Tree::new();
    other.dir("AGENTS.md");
    let (chain, rendered) = load(Preset::Codex, &other.root(), &home.root());
    assert!(chain.files.is_empty());
    assert_eq!(rendered, b"");
}

#[cfg(unix)]
#[test]
fn s12_codex_a_fifo_is_not_read() {
    let (tree, home) = (Tree::new(), Tree::new());
    // agents_md_special_file_is_ignored: a FIFO named AGENTS.md gives nothing (and no hang).
    let status = Command::new("mkfifo")
        .arg(tree.path("AGENTS.md"))
        .status()
        .expect("mkfifo");
    assert!(status.success());
    let (chain, rendered) = load(Preset::Codex, &tree.root(), &home.root());
    assert!(chain.files.is_empty(), "{:?}", files(&chain));
    assert_eq!(rendered, b"");
}

#[test]
fn s12_codex_names_are_exact_no_case_variant_is_read() {
    let (tree, home) = (Tree::new(), Tree::new());
    if !case_sensitive(&tree) {
        eprintln!("skipped: a case-insensitive file system");
        return;
    }
    // candidate_filenames: LOCAL_AGENTS_MD_FILENAME, DEFAULT_AGENTS_MD_FILENAME, nothing else.
    for name in [
        "agents.md",
        "AGENTS.MD",
        "Agents.md",
        "agents.override.md",
        "CLAUDE.md",
    ] {
        tree.file(name, "not Codex's");
    }
    let (chain, rendered) = load(Preset::Codex, &tree.root(), &home.root());
    assert!(chain.files.is_empty() && chain.omitted.is_empty());
    assert_eq!(rendered, b"");
}

#[test]
fn s12_codex_text_is_lossy_utf8_with_its_bom_kept() {
    let (tree, home) = (Tree::new(), Tree::new());
    // project_doc_invalid_utf8_warns_and_uses_lossy_text: b"project\xFF doc" → "project\u{FFFD} doc".
    tree.file("AGENTS.md", b"project\xFF doc");
    let (chain, _) = load(Preset::Codex, &tree.root(), &home.root());
    assert_eq!(chain.files[0].content, "project\u{FFFD} doc".as_bytes());
    // String::from_utf8_lossy keeps U+FEFF, and project texts are not trimmed.
    tree.file("AGENTS.md", b"\xEF\xBB\xBF rules \n");
    let (chain, _) = load(Preset::Codex, &tree.root(), &home.root());
    assert_eq!(chain.files[0].content, b"\xEF\xBB\xBF rules \n");
}

#[test]
fn s12_codex_the_file_crossing_the_budget_is_cut_inside_a_character_and_nothing_follows() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    // 32,767 bytes of 'a' then "é" (C3 A9): the budget ends between its two bytes.
    let mut big = "a".repeat(CODEX_BUDGET - 1);
    big.push('é');
    big.push_str("tail");
    let root_file = tree.file("AGENTS.md", &big);
    let cwd = tree.dir("nested");
    let nested = tree.file("nested/AGENTS.md", "abcdef");
    let (chain, rendered) = load(Preset::Codex, &cwd, &home.root());
    // read_agents_md: `if size > remaining { data.truncate(remaining as usize) }`, then
    // `String::from_utf8_lossy(&data)`: the lone C3 is U+FFFD.
    let cut = format!("{}\u{FFFD}", "a".repeat(CODEX_BUDGET - 1));
    assert_eq!(files(&chain), [(root_file.clone(), cut.clone())]);
    // `if remaining == 0 { break; }`: the nested file is not read.
    let left_out = (big.len() - CODEX_BUDGET) as u64;
    assert_eq!(
        omitted(&chain),
        [
            (root_file, left_out, Reason::Truncated, None),
            (nested, 6, Reason::OverBudget, None),
        ]
    );
    assert_eq!(text(&rendered), codex_wrap(&cwd, &cut));
}

#[test]
fn s12_codex_budget_spent_root_first_cuts_the_later_file() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    // total_byte_limit_truncates_later_project_docs ("root" then "abc" of "abcdef" at 7 bytes),
    // at the default budget: the root file leaves 3 bytes for the nested one.
    let root_text = "r".repeat(CODEX_BUDGET - 3);
    tree.file("AGENTS.md", &root_text);
    let cwd = tree.dir("nested");
    let nested = tree.file("nested/AGENTS.md", "abcdef");
    let (chain, rendered) = load(Preset::Codex, &cwd, &home.root());
    assert_eq!(
        files(&chain),
        [
            (tree.path("AGENTS.md"), root_text.clone()),
            (nested.clone(), "abc".into()),
        ]
    );
    assert_eq!(omitted(&chain), [(nested, 3, Reason::Truncated, None)]);
    assert_eq!(
        text(&rendered),
        codex_wrap(&cwd, &format!("{root_text}\n\nabc"))
    );
}

#[test]
fn s12_codex_a_file_larger_than_the_librarys_max_bytes_is_cut_as_codex_cuts_it() {
    let (tree, home) = (Tree::new(), Tree::new());
    // read_agents_md reads the whole file (`fs.read_file`) whatever its size and truncates it to
    // the budget: Codex has no limit of its own on a file, so 2 MiB is cut like 33 KiB.
    let huge = "h".repeat(2 << 20);
    let path = tree.file("AGENTS.md", &huge);
    let options = Options::new().home(home.root());
    let chain = Preset::Codex
        .chain(&tree.root(), &options)
        .expect("Codex cuts a large file, it does not fail on it");
    assert_eq!(files(&chain), [(path.clone(), "h".repeat(CODEX_BUDGET))]);
    let left_out = (huge.len() - CODEX_BUDGET) as u64;
    assert_eq!(omitted(&chain), [(path, left_out, Reason::Truncated, None)]);
}

#[cfg(unix)]
#[test]
fn s12_codex_a_linked_working_directory_keeps_its_path() {
    let (tree, home) = (Tree::new(), Tree::new());
    // agents_md_paths_preserve_symlinked_cwd: `discovery == vec![cfg.cwd.join("AGENTS.md")]`
    // with cwd the link, not its target.
    tree.file("target/AGENTS.md", "project doc");
    let linked = tree.path("linked");
    std::os::unix::fs::symlink(tree.path("target"), &linked).unwrap();
    let (chain, rendered) = load(Preset::Codex, &linked, &home.root());
    assert_eq!(
        files(&chain),
        [(linked.join("AGENTS.md"), "project doc".into())]
    );
    assert_eq!(text(&rendered), codex_wrap(&linked, "project doc"));
}

#[test]
fn s12_codex_a_file_of_exactly_the_budget_is_whole() {
    let (tree, home) = (Tree::new(), Tree::new());
    let exact = "x".repeat(CODEX_BUDGET);
    tree.file("AGENTS.md", &exact);
    let (chain, _) = load(Preset::Codex, &tree.root(), &home.root());
    assert_eq!(files(&chain), [(tree.path("AGENTS.md"), exact)]);
    assert!(chain.omitted.is_empty(), "{:?}", chain.omitted);
}

#[test]
fn s12_codex_whitespace_only_files_are_dropped_and_not_charged() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    // read_agents_md: `if !text.trim().is_empty() { … remaining = remaining.saturating_sub(…) }`:
    // a whitespace-only file is neither given nor charged, so the next one gets the whole budget.
    let blank = tree.file("AGENTS.md", " \n\t\r\n");
    let empty = tree.file("a/AGENTS.md", "");
    let cwd = tree.dir("a/b");
    let full = "y".repeat(CODEX_BUDGET);
    tree.file("a/b/AGENTS.md", &full);
    let (chain, rendered) = load(Preset::Codex, &cwd, &home.root());
    assert_eq!(files(&chain), [(tree.path("a/b/AGENTS.md"), full.clone())]);
    assert_eq!(
        omitted(&chain),
        [
            (blank, 5, Reason::Empty, None),
            (empty, 0, Reason::Empty, None),
        ]
    );
    assert_eq!(text(&rendered), codex_wrap(&cwd, &full));
    // Only whitespace anywhere: nothing renders.
    fs::write(tree.path("a/b/AGENTS.md"), "\n\n").unwrap();
    let (chain, rendered) = load(Preset::Codex, &cwd, &home.root());
    assert!(chain.files.is_empty());
    assert_eq!(rendered, b"");
}

#[test]
fn s12_codex_a_cut_that_leaves_whitespace_drops_the_file_and_keeps_the_budget() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    // 32,760 bytes, then a file whose first 8 bytes (all the budget left) are spaces: cut to
    // them, its text trims to nothing, so it is dropped and not charged; the next file, 3 bytes,
    // fits in the 8 still left and is whole.
    tree.file("AGENTS.md", "a".repeat(CODEX_BUDGET - 8));
    let middle = tree.file("m/AGENTS.md", "        tail");
    let cwd = tree.dir("m/c");
    tree.file("m/c/AGENTS.md", "xyz");
    let (chain, _) = load(Preset::Codex, &cwd, &home.root());
    let given: Vec<_> = files(&chain).into_iter().map(|(p, _)| p).collect();
    assert_eq!(given, [tree.path("AGENTS.md"), tree.path("m/c/AGENTS.md")]);
    assert_eq!(chain.files[1].content, b"xyz");
    let middle_omitted: Vec<_> = omitted(&chain)
        .into_iter()
        .filter(|o| o.0 == middle)
        .collect();
    assert_eq!(middle_omitted.len(), 1, "{middle_omitted:?}");
    assert!(
        matches!(middle_omitted[0].2, Reason::Empty | Reason::Truncated),
        "{middle_omitted:?}"
    );
}

#[test]
fn s12_codex_global_is_the_first_nonblank_of_override_and_agents_md_outside_the_budget() {
    let (tree, home) = (Tree::new(), Tree::new());
    // Issue 31: "the first of AGENTS.override.md, AGENTS.md that is a regular file whose trimmed
    // text is non-empty, text trimmed, outside the budget" (an earlier agents_md.rs,
    // load_global_instructions: `if !trimmed.is_empty() { return Some(…trimmed…) }`).
    let blank = home.file(".codex/AGENTS.override.md", " \n ");
    let global = home.file(".codex/AGENTS.md", format!("{}\n", "g".repeat(40_000)));
    let project = "p".repeat(CODEX_BUDGET);
    tree.file("AGENTS.md", &project);
    let (chain, _) = load(Preset::Codex, &tree.root(), &home.root());
    assert_eq!(
        files(&chain),
        [
            (global, "g".repeat(40_000)),
            (tree.path("AGENTS.md"), project)
        ]
    );
    assert_eq!(omitted(&chain), [(blank, 3, Reason::Empty, None)]);
    // A non-blank override stands for the home, and AGENTS.md is shadowed.
    let over = home.file(".codex/AGENTS.override.md", "override\n");
    let (chain, _) = load(Preset::Codex, &tree.root(), &home.root());
    assert_eq!(chain.files[0].path, over);
    assert_eq!(chain.files[0].content, b"override");
    assert_eq!(
        omitted(&chain),
        [(
            home.path(".codex/AGENTS.md"),
            40_001,
            Reason::Shadowed,
            Some(over)
        )]
    );
    // A directory named AGENTS.override.md is no regular file: AGENTS.md is the global file.
    fs::remove_file(home.path(".codex/AGENTS.override.md")).unwrap();
    home.dir(".codex/AGENTS.override.md");
    let (chain, _) = load(Preset::Codex, &tree.root(), &home.root());
    assert_eq!(chain.files[0].path, home.path(".codex/AGENTS.md"));
}

// ---------------------------------------------------------------------------------------------
// pi, @mariozechner/pi-coding-agent 0.73.1: dist/core/resource-loader.js
// (loadContextFileFromDir, loadProjectContextFiles) and dist/core/system-prompt.js.
// ---------------------------------------------------------------------------------------------

const PI_NAMES: [&str; 4] = ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];

/// system-prompt.js: `"\n\n# Project Context\n\n"`, `"Project-specific instructions and
/// guidelines:\n\n"`, then per file `` `## ${filePath}\n\n${content}\n\n` ``.
fn pi_render(files: &[(PathBuf, &str)]) -> String {
    let mut out =
        String::from("\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n");
    for (path, content) in files {
        out += &format!("## {}\n\n{content}\n\n", path.display());
    }
    out
}

#[test]
fn s12_pi_agent_dir_first_then_every_ancestor_farthest_first_past_git() {
    let (tree, home) = (Tree::new(), Tree::new());
    if !case_sensitive(&tree) || !nothing_above(&tree, &PI_NAMES) {
        return;
    }
    let global = home.file(".pi/agent/AGENTS.md", "global\n");
    // loadProjectContextFiles walks `while (true)` up to `resolve("/")`: a `.git` stops nothing.
    tree.file("AGENTS.md", "root");
    tree.dir("a/.git");
    tree.file("a/CLAUDE.md", " claude \n");
    let cwd = tree.dir("a/b");
    tree.file("a/b/AGENTS.MD", "upper");
    let (chain, rendered) = load(Preset::Pi, &cwd, &home.root());
    let expected = [
        (global.clone(), "global\n"),
        (tree.path("AGENTS.md"), "root"),
        (tree.path("a/CLAUDE.md"), " claude \n"),
        (tree.path("a/b/AGENTS.MD"), "upper"),
    ];
    let owned: Vec<_> = expected
        .iter()
        .map(|(p, c)| (p.clone(), c.to_string()))
        .collect();
    assert_eq!(files(&chain), owned);
    assert_eq!(sources(&chain)[0], Source::Extra);
    assert!(chain.omitted.is_empty(), "{:?}", chain.omitted);
    assert_eq!(text(&rendered), pi_render(&expected));
}

#[test]
fn s12_pi_the_first_of_four_names_stands_for_a_directory() {
    let (tree, home) = (Tree::new(), Tree::new());
    if !case_sensitive(&tree) || !nothing_above(&tree, &PI_NAMES) {
        return;
    }
    // loadContextFileFromDir: candidates ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"],
    // the first that exists and reads is returned.
    for (i, name) in PI_NAMES.iter().enumerate().rev() {
        tree.file(name, format!("{i}"));
        let (chain, _) = load(Preset::Pi, &tree.root(), &home.root());
        assert_eq!(files(&chain), [(tree.path(name), format!("{i}"))], "{name}");
        let shadowed: Vec<_> = PI_NAMES[i + 1..]
            .iter()
            .map(|other| (tree.path(other), 1, Reason::Shadowed, Some(tree.path(name))))
            .collect();
        assert_eq!(omitted(&chain), shadowed, "{name}");
    }
    // Other spellings are no name of pi's.
    let other = Tree::new();
    other.file("agents.md", "x");
    other.file("Claude.md", "x");
    let (chain, rendered) = load(Preset::Pi, &other.root(), &home.root());
    assert!(chain.files.is_empty() && chain.omitted.is_empty());
    assert_eq!(rendered, b"");
}

#[test]
fn s12_pi_keeps_the_bom_and_empty_files_and_decodes_lossily() {
    let (tree, home) = (Tree::new(), Tree::new());
    if !nothing_above(&tree, &PI_NAMES) {
        return;
    }
    // readFileSync(filePath, "utf-8"): Node keeps U+FEFF and makes each bad sequence U+FFFD;
    // nothing is trimmed or dropped.
    tree.file("AGENTS.md", b"\xEF\xBB\xBFbom\xFF\n");
    let cwd = tree.dir("sub");
    tree.file("sub/AGENTS.md", "");
    let (chain, rendered) = load(Preset::Pi, &cwd, &home.root());
    assert_eq!(
        files(&chain),
        [
            (tree.path("AGENTS.md"), "\u{FEFF}bom\u{FFFD}\n".into()),
            (tree.path("sub/AGENTS.md"), String::new()),
        ]
    );
    assert!(chain.omitted.is_empty());
    let expected = [
        (tree.path("AGENTS.md"), "\u{FEFF}bom\u{FFFD}\n"),
        (tree.path("sub/AGENTS.md"), ""),
    ];
    assert_eq!(text(&rendered), pi_render(&expected));
}

#[test]
fn s12_pi_a_directory_named_agents_md_gives_way_to_the_next_name() {
    let (tree, home) = (Tree::new(), Tree::new());
    if !nothing_above(&tree, &PI_NAMES) {
        return;
    }
    // existsSync is true for a directory, readFileSync throws (EISDIR), the loop goes on.
    tree.dir("AGENTS.md");
    tree.file("CLAUDE.md", "claude");
    let (chain, _) = load(Preset::Pi, &tree.root(), &home.root());
    assert_eq!(files(&chain), [(tree.path("CLAUDE.md"), "claude".into())]);
}

#[test]
fn s12_pi_the_agent_dir_on_the_walk_is_given_once() {
    let home = Tree::new();
    if !nothing_above(&home, &PI_NAMES) {
        return;
    }
    // `if (contextFile && !seenPaths.has(contextFile.path))`: the agent dir's file, already
    // taken, is not taken again when the walk passes it.
    let global = home.file(".pi/agent/AGENTS.md", "global");
    home.file(".pi/agent/CLAUDE.md", "shadowed");
    let cwd = home.dir(".pi/agent/work");
    let (chain, rendered) = load(Preset::Pi, &cwd, &home.root());
    assert_eq!(files(&chain), [(global.clone(), "global".into())]);
    assert_eq!(text(&rendered), pi_render(&[(global.clone(), "global")]));
    // Each file pi passed over is reported once.
    assert_eq!(
        omitted(&chain),
        [(
            home.path(".pi/agent/CLAUDE.md"),
            8,
            Reason::Shadowed,
            Some(global)
        )]
    );
}

#[test]
fn s12_pi_nothing_renders_empty() {
    let (tree, home) = (Tree::new(), Tree::new());
    if !nothing_above(&tree, &PI_NAMES) {
        return;
    }
    let (chain, rendered) = load(Preset::Pi, &tree.root(), &home.root());
    assert!(chain.files.is_empty());
    // buildSystemPrompt: `if (contextFiles.length > 0)`.
    assert_eq!(rendered, b"");
}

// ---------------------------------------------------------------------------------------------
// opencode, anomalyco/opencode at 00b964bd: packages/opencode/src/session/instruction.ts
// (systemPaths, system) and packages/opencode/src/filesystem/index.ts (findUp).
// ---------------------------------------------------------------------------------------------

fn opencode_render(files: &[(PathBuf, &str)]) -> String {
    // system(): `Instructions from: ${item}\n${files[i]}` for each non-empty text; issue 31:
    // "joined `\n`".
    let parts: Vec<String> = files
        .iter()
        .map(|(p, c)| format!("Instructions from: {}\n{c}", p.display()))
        .collect();
    parts.join("\n")
}

#[test]
fn s12_opencode_one_name_nearest_first_then_its_local_files_then_a_global_group() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("AGENTS.md", "root\n");
    tree.file("AGENTS.local.md", "root local");
    tree.file("a/AGENTS.md", "a");
    tree.file("a/CLAUDE.md", "claude");
    let cwd = tree.dir("a/b");
    tree.file("a/b/AGENTS.md", "  b  ");
    // globalFiles: [config/AGENTS.md, config/AGENTS.local.md], then ~/.claude's pair.
    let global = home.file(".config/opencode/AGENTS.md", "global");
    let claude = home.file(".claude/CLAUDE.md", "claude global");
    let (chain, rendered) = load(Preset::Opencode, &cwd, &home.root());
    // systemPaths: `for (const file of FILES)` … findUp(file) then findUp(variant(file)),
    // `matches.forEach(add)`, `locals.forEach(add)`, `break`; findUp pushes from `start` up.
    let expected = [
        (tree.path("a/b/AGENTS.md"), "  b  "),
        (tree.path("a/AGENTS.md"), "a"),
        (tree.path("AGENTS.md"), "root\n"),
        (tree.path("AGENTS.local.md"), "root local"),
        (global.clone(), "global"),
    ];
    let owned: Vec<_> = expected
        .iter()
        .map(|(p, c)| (p.clone(), c.to_string()))
        .collect();
    assert_eq!(files(&chain), owned);
    assert_eq!(text(&rendered), opencode_render(&expected));
    let reasons: Vec<_> = omitted(&chain).into_iter().map(|o| (o.0, o.2)).collect();
    assert!(
        reasons.contains(&(tree.path("a/CLAUDE.md"), Reason::Shadowed)),
        "{reasons:?}"
    );
    assert!(reasons.contains(&(claude, Reason::Shadowed)), "{reasons:?}");
}

#[test]
fn s12_opencode_the_first_name_found_anywhere_is_the_whole_trees() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    // AGENTS.md at the worktree root beats CLAUDE.md in the working directory.
    tree.file("AGENTS.md", "agents");
    let cwd = tree.dir("x");
    tree.file("x/CLAUDE.md", "claude");
    tree.file("x/CONTEXT.md", "context");
    let (chain, _) = load(Preset::Opencode, &cwd, &home.root());
    assert_eq!(files(&chain), [(tree.path("AGENTS.md"), "agents".into())]);
    // A local variant alone names its file: CLAUDE.local.md makes CLAUDE.md the name.
    let other = Tree::new();
    other.dir(".git");
    other.file("CLAUDE.md", "claude");
    other.file("CLAUDE.local.md", "claude local");
    other.file("CONTEXT.md", "context");
    let (chain, _) = load(Preset::Opencode, &other.root(), &home.root());
    assert_eq!(
        files(&chain),
        [
            (other.path("CLAUDE.md"), "claude".into()),
            (other.path("CLAUDE.local.md"), "claude local".into()),
        ]
    );
    // CONTEXT.md (deprecated) is the third name.
    fs::remove_file(other.path("CLAUDE.md")).unwrap();
    fs::remove_file(other.path("CLAUDE.local.md")).unwrap();
    let (chain, _) = load(Preset::Opencode, &other.root(), &home.root());
    assert_eq!(
        files(&chain),
        [(other.path("CONTEXT.md"), "context".into())]
    );
}

#[test]
fn s12_opencode_the_worktree_stops_the_walk() {
    let (tree, home) = (Tree::new(), Tree::new());
    // findUp: `if (stop === current) break` with stop = Instance.worktree (nearest .git).
    tree.file("AGENTS.md", "above the worktree");
    tree.dir("repo/.git");
    let cwd = tree.dir("repo/src");
    tree.file("repo/src/CLAUDE.md", "claude");
    let (chain, _) = load(Preset::Opencode, &cwd, &home.root());
    assert_eq!(
        files(&chain),
        [(tree.path("repo/src/CLAUDE.md"), "claude".into())]
    );
}

#[test]
fn s12_opencode_text_loses_its_bom_keeps_whitespace_and_empty_texts_are_skipped() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    // readFileString decodes UTF-8 with the BOM removed; system() skips a falsy text only.
    tree.file("AGENTS.md", b"\xEF\xBB\xBF\n rules \n");
    let bom_only = tree.file("a/AGENTS.md", b"\xEF\xBB\xBF");
    let cwd = tree.dir("a/b");
    let empty = tree.file("a/b/AGENTS.md", "");
    tree.file("a/b/AGENTS.local.md", "   ");
    let (chain, rendered) = load(Preset::Opencode, &cwd, &home.root());
    let expected = [
        (tree.path("AGENTS.md"), "\n rules \n"),
        (tree.path("a/b/AGENTS.local.md"), "   "),
    ];
    let owned: Vec<_> = expected
        .iter()
        .map(|(p, c)| (p.clone(), c.to_string()))
        .collect();
    assert_eq!(files(&chain), owned);
    assert_eq!(text(&rendered), opencode_render(&expected));
    let empties: Vec<_> = omitted(&chain)
        .into_iter()
        .filter(|o| o.2 == Reason::Empty)
        .map(|o| o.0)
        .collect();
    assert_eq!(empties, [empty, bom_only]);
}

#[test]
fn s12_opencode_a_directory_named_agents_md_still_names_the_tree() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    // findUp asks `fs.exists`, true for a directory: AGENTS.md is the name, its read fails to
    // "" and is skipped, and CLAUDE.md is never looked at.
    tree.dir("AGENTS.md");
    tree.file("CLAUDE.md", "claude");
    let (chain, rendered) = load(Preset::Opencode, &tree.root(), &home.root());
    assert!(chain.files.is_empty(), "{:?}", files(&chain));
    assert_eq!(rendered, b"");
}

#[test]
fn s12_opencode_global_groups_the_first_with_a_file_and_both_its_files() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    // The ~/.claude group when ~/.config/opencode holds nothing.
    let claude = home.file(".claude/CLAUDE.md", "claude");
    let local = home.file(".claude/CLAUDE.local.md", "claude local");
    let (chain, rendered) = load(Preset::Opencode, &tree.root(), &home.root());
    let expected = [(claude.clone(), "claude"), (local, "claude local")];
    assert_eq!(text(&rendered), opencode_render(&expected));
    assert_eq!(chain.files.len(), 2);
    // AGENTS.local.md alone makes the opencode group the first: ~/.claude is shadowed.
    let opencode_local = home.file(".config/opencode/AGENTS.local.md", "oc local");
    let (chain, _) = load(Preset::Opencode, &tree.root(), &home.root());
    assert_eq!(files(&chain), [(opencode_local, "oc local".into())]);
    let shadowed: Vec<_> = omitted(&chain).into_iter().map(|o| (o.0, o.2)).collect();
    assert!(
        shadowed.contains(&(claude, Reason::Shadowed)),
        "{shadowed:?}"
    );
}

#[test]
fn s12_opencode_nothing_renders_empty() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    let (chain, rendered) = load(Preset::Opencode, &tree.root(), &home.root());
    assert!(chain.files.is_empty());
    assert_eq!(rendered, b"");
}

// ---------------------------------------------------------------------------------------------
// Goose, block/goose at 0086ae65: crates/goose/src/hints/load_hints.rs (load_hint_files,
// find_git_root, get_local_directories), default names [".goosehints", "AGENTS.md"].
// ---------------------------------------------------------------------------------------------

const GOOSE_GLOBAL: &str = "\n### Global Hints\nThese are my global goose hints.\n";
const GOOSE_PROJECT: &str =
    "### Project Hints\nThese are hints for working on the project in this directory.\n";

#[test]
fn s12_goose_global_then_every_name_of_every_directory_from_the_git_root() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file(".goosehints", "Root hints content");
    tree.file("AGENTS.md", "root agents\n");
    tree.file("subdir/.goosehints", "Subdir hints content");
    let cwd = tree.dir("subdir/current_dir");
    tree.file("subdir/current_dir/AGENTS.md", "current_dir agents");
    let g1 = home.file(".config/goose/.goosehints", "global one");
    let g2 = home.file(".config/goose/AGENTS.md", "global two\n");
    let (chain, rendered) = load(Preset::Goose, &cwd, &home.root());
    assert_eq!(
        files(&chain),
        [
            (g1, "global one".into()),
            (g2, "global two\n".into()),
            (tree.path(".goosehints"), "Root hints content".into()),
            (tree.path("AGENTS.md"), "root agents\n".into()),
            (
                tree.path("subdir/.goosehints"),
                "Subdir hints content".into()
            ),
            (
                tree.path("subdir/current_dir/AGENTS.md"),
                "current_dir agents".into()
            ),
        ]
    );
    // load_hint_files: the global heading and `global_hints_contents.join("\n")`, then "\n\n"
    // when `!hints.is_empty()`, the project heading and `local_hints_contents.join("\n")`.
    let expected = format!(
        "{GOOSE_GLOBAL}global one\nglobal two\n\n\n{GOOSE_PROJECT}Root hints content\nroot agents\n\nSubdir hints content\ncurrent_dir agents"
    );
    assert_eq!(text(&rendered), expected);
}

#[test]
fn s12_goose_without_git_only_the_working_directory() {
    let (tree, home) = (Tree::new(), Tree::new());
    // test_nested_goosehints_without_git_root: "should only find hints in current directory".
    tree.file(".goosehints", "Base hints content");
    let cwd = tree.dir("subdir/current_dir");
    tree.file(
        "subdir/current_dir/.goosehints",
        "Current dir hints content",
    );
    let (chain, rendered) = load(Preset::Goose, &cwd, &home.root());
    assert_eq!(
        files(&chain),
        [(
            tree.path("subdir/current_dir/.goosehints"),
            "Current dir hints content".into()
        )]
    );
    // No global hints: the project heading starts the piece.
    assert_eq!(
        text(&rendered),
        format!("{GOOSE_PROJECT}Current dir hints content")
    );
}

#[test]
fn s12_goose_text_as_is_and_empty_or_non_utf8_files_skipped() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    // read_to_string: the BOM stays, nothing is trimmed; invalid UTF-8 fails to "" and
    // `if !expanded_content.is_empty()` skips it, as it does an empty file.
    tree.file(".goosehints", b"\xEF\xBB\xBF  hint  \n");
    let bad = tree.file("AGENTS.md", b"bad \xFF byte");
    let cwd = tree.dir("a");
    let empty = tree.file("a/.goosehints", "");
    tree.file("a/AGENTS.md", "\n");
    let (chain, rendered) = load(Preset::Goose, &cwd, &home.root());
    assert_eq!(
        files(&chain),
        [
            (tree.path(".goosehints"), "\u{FEFF}  hint  \n".into()),
            (tree.path("a/AGENTS.md"), "\n".into()),
        ]
    );
    let skipped: Vec<_> = omitted(&chain).into_iter().map(|o| (o.0, o.2)).collect();
    assert_eq!(skipped, [(bad, Reason::Empty), (empty, Reason::Empty)]);
    assert_eq!(
        text(&rendered),
        format!("{GOOSE_PROJECT}\u{FEFF}  hint  \n\n\n")
    );
}

#[test]
fn s12_goose_global_hints_alone_and_nothing() {
    let (tree, home) = (Tree::new(), Tree::new());
    let (chain, rendered) = load(Preset::Goose, &tree.root(), &home.root());
    assert!(chain.files.is_empty());
    assert_eq!(rendered, b"");
    home.file(".config/goose/AGENTS.md", "only global");
    let (_, rendered) = load(Preset::Goose, &tree.root(), &home.root());
    assert_eq!(text(&rendered), format!("{GOOSE_GLOBAL}only global"));
}

#[test]
fn s12_goose_a_file_reference_is_expanded_in_place() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    // load_hint_files reads each hints file through read_referenced_files (import_files.rs):
    // `@README.md` becomes "--- Content from README.md ---\n{content}\n--- End of README.md ---"
    // (load_hints.rs at 0086ae65, test_hints_with_basic_imports, asserts those markers).
    tree.file("README.md", "# Project README");
    tree.file(
        ".goosehints",
        "Project hints content\n@README.md\nAdditional instructions here.",
    );
    let (_, rendered) = load(Preset::Goose, &tree.root(), &home.root());
    let expected = "Project hints content\n--- Content from README.md ---\n# Project README\n--- End of README.md ---\nAdditional instructions here.";
    assert_eq!(text(&rendered), format!("{GOOSE_PROJECT}{expected}"));
}

// ---------------------------------------------------------------------------------------------
// Zed v1.21.0: RULES_FILE_NAMES in crates/prompt_store/src/prompts.rs, the loader in
// crates/agent/src/agent.rs (`load_worktree_rules_file`: `.filter(|entry| entry.is_file())`,
// `rope.to_string().trim()`) and crates/agent/src/templates/system_prompt.hbs ("There are
// project rules that apply to these root directories:", `{{root_name}}/{{path_in_worktree}}`).
// ---------------------------------------------------------------------------------------------

const ZED_NAMES: [&str; 9] = [
    ".rules",
    ".cursorrules",
    ".windsurfrules",
    ".clinerules",
    ".github/copilot-instructions.md",
    "AGENT.md",
    "AGENTS.md",
    "CLAUDE.md",
    "GEMINI.md",
];

fn zed_render(root: &Path, name: &str, text: &str) -> String {
    let worktree = root.file_name().unwrap().to_string_lossy();
    format!(
        "There are project rules that apply to these root directories:\n`{worktree}/{name}`:\n``````\n{text}\n``````\n"
    )
}

#[test]
fn s12_zed_the_first_of_nine_names_at_the_worktree_root() {
    let (tree, home) = (Tree::new(), Tree::new());
    // Each name beats every later one: written last to first, the newest is always chosen.
    for (i, name) in ZED_NAMES.iter().enumerate().rev() {
        tree.file(name, format!("rule {i}\n"));
        let (chain, rendered) = load(Preset::Zed, &tree.root(), &home.root());
        assert_eq!(
            files(&chain),
            [(tree.path(name), format!("rule {i}"))],
            "{name}"
        );
        assert_eq!(
            text(&rendered),
            zed_render(&tree.root(), name, &format!("rule {i}")),
            "{name}"
        );
        let shadowed: Vec<_> = omitted(&chain).into_iter().map(|o| (o.0, o.2)).collect();
        let expected: Vec<_> = ZED_NAMES[i + 1..]
            .iter()
            .map(|later| (tree.path(later), Reason::Shadowed))
            .collect();
        assert_eq!(shadowed, expected, "{name}");
    }
}

#[test]
fn s12_zed_reads_the_root_only_and_the_root_option_is_the_worktree() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("AGENTS.md", "root rules");
    tree.file("crates/x/AGENTS.md", "nested rules");
    let deep = tree.dir("crates/x");
    // With `root`, the worktree is the root, wherever the path is.
    let options = Options::new().home(home.root()).root(tree.root());
    let (chain, rendered) = load_with(Preset::Zed, &deep, options);
    assert_eq!(
        files(&chain),
        [(tree.path("AGENTS.md"), "root rules".into())]
    );
    assert_eq!(
        text(&rendered),
        zed_render(&tree.root(), "AGENTS.md", "root rules")
    );
    // Without it, the directory given is the worktree: its own file only, nothing above.
    let (chain, rendered) = load(Preset::Zed, &deep, &home.root());
    assert_eq!(
        files(&chain),
        [(tree.path("crates/x/AGENTS.md"), "nested rules".into())]
    );
    assert_eq!(
        text(&rendered),
        zed_render(&deep, "AGENTS.md", "nested rules")
    );
}

#[test]
fn s12_zed_line_endings_made_newlines_and_trimmed() {
    let (tree, home) = (Tree::new(), Tree::new());
    // The buffer's text has its line endings normalized to "\n"; the loader trims it.
    tree.file("CLAUDE.md", "\r\n  one\r\ntwo\rthree\r\n\r\n");
    let (chain, rendered) = load(Preset::Zed, &tree.root(), &home.root());
    assert_eq!(
        files(&chain),
        [(tree.path("CLAUDE.md"), "one\ntwo\nthree".into())]
    );
    assert_eq!(
        text(&rendered),
        zed_render(&tree.root(), "CLAUDE.md", "one\ntwo\nthree")
    );
}

#[test]
fn s12_zed_an_empty_file_still_renders_its_fence() {
    let (tree, home) = (Tree::new(), Tree::new());
    // `{{#if rules_file}}` holds for an empty text: the fence is written around nothing.
    tree.file(".github/copilot-instructions.md", " \n\n");
    let (chain, rendered) = load(Preset::Zed, &tree.root(), &home.root());
    assert_eq!(chain.files.len(), 1);
    assert_eq!(
        text(&rendered),
        zed_render(&tree.root(), ".github/copilot-instructions.md", "")
    );
}

#[test]
fn s12_zed_a_directory_is_no_rules_file_and_nothing_renders_empty() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".rules");
    tree.dir(".clinerules");
    let (chain, rendered) = load(Preset::Zed, &tree.root(), &home.root());
    assert!(chain.files.is_empty());
    assert_eq!(rendered, b"");
    tree.file("GEMINI.md", "gemini");
    let (chain, _) = load(Preset::Zed, &tree.root(), &home.root());
    assert_eq!(files(&chain), [(tree.path("GEMINI.md"), "gemini".into())]);
}

// ---------------------------------------------------------------------------------------------
// §12: "An option `home` sets the home directory; with it, no environment variable is read."
// The variables are set in a child process (this test binary, running the ignored test below),
// never in this one.
// ---------------------------------------------------------------------------------------------

/// Set by the parent for the child run; names the tree holding the decoys.
const DECOYS: &str = "AGENTSMD_PRESETS_TEST_DECOYS";

#[test]
fn s12_with_home_no_environment_variable_is_read() {
    let decoys = Tree::new();
    for rel in [
        "codex/AGENTS.md",
        "pi/AGENTS.md",
        "xdg/opencode/AGENTS.md",
        "xdg/goose/.goosehints",
        "opencode-dir/AGENTS.md",
        "home/.codex/AGENTS.md",
        "home/.pi/agent/AGENTS.md",
        "home/.config/opencode/AGENTS.md",
        "home/.config/goose/AGENTS.md",
        "home/.claude/CLAUDE.md",
    ] {
        decoys.file(rel, "decoy");
    }
    let root = decoys.root();
    let out = Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--ignored", "--exact", "child_with_home_reads_no_variable"])
        .env(DECOYS, &root)
        .env("CODEX_HOME", root.join("codex"))
        .env("PI_CODING_AGENT_DIR", root.join("pi"))
        .env("XDG_CONFIG_HOME", root.join("xdg"))
        .env("OPENCODE_CONFIG_DIR", root.join("opencode-dir"))
        .env("HOME", root.join("home"))
        .env("USERPROFILE", root.join("home"))
        .output()
        .expect("run the child");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && report.contains("1 passed"),
        "the child failed or did not run:\n{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "run by s12_with_home_no_environment_variable_is_read with the variables set"]
fn child_with_home_reads_no_variable() {
    let decoys = PathBuf::from(std::env::var_os(DECOYS).expect("run by the parent test"));
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    for preset in Preset::ALL {
        let (chain, rendered) = load(preset, &tree.root(), &home.root());
        let read: Vec<_> = chain
            .files
            .iter()
            .map(|f| f.path.clone())
            .chain(chain.omitted.iter().map(|o| o.path.clone()))
            .filter(|p| p.starts_with(&decoys))
            .collect();
        assert!(read.is_empty(), "{preset:?} read {read:?}");
        assert_eq!(rendered, b"", "{preset:?}");
    }
    // Without `home`, the variables are read: the products' own.
    let options = Options::new();
    let codex = Preset::Codex.chain(&tree.root(), &options).unwrap();
    assert_eq!(codex.files[0].path, decoys.join("codex/AGENTS.md"));
    let pi = Preset::Pi.chain(&tree.root(), &options).unwrap();
    assert_eq!(pi.files[0].path, decoys.join("pi/AGENTS.md"));
    let goose = Preset::Goose.chain(&tree.root(), &options).unwrap();
    assert_eq!(goose.files[0].path, decoys.join("xdg/goose/.goosehints"));
    let opencode = Preset::Opencode.chain(&tree.root(), &options).unwrap();
    assert_eq!(
        opencode.files[0].path,
        decoys.join("opencode-dir/AGENTS.md")
    );
}

// ---------------------------------------------------------------------------------------------
// Claude Code, from its documentation (code.claude.com/docs/en/memory, read 2026-12-07): the
// user's memory, then each directory's CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md from
// the root down, with @imports, and the root's .claude/rules; rendered as SPEC §2 renders.
// ---------------------------------------------------------------------------------------------

fn claude_tree() -> (Tree, Tree) {
    let (tree, home) = (Tree::new(), Tree::new());
    home.file(".claude/CLAUDE.md", "user\n");
    tree.file("CLAUDE.md", "root\n@docs/style.md\n");
    tree.file("docs/style.md", "tabs\n");
    tree.file(".claude/CLAUDE.md", "root nested\n");
    tree.file("a/CLAUDE.local.md", "a local\n");
    tree.file("a/b/CLAUDE.md", "b\n");
    tree.file(
        ".claude/rules/go.md",
        "---\npaths: \"**/*.go\"\n---\ngo rule\n",
    );
    (tree, home)
}

#[test]
fn s12_claude_user_memory_then_every_memory_file_from_the_root_down_with_imports_and_rules() {
    let (tree, home) = claude_tree();
    let options = Options::new().home(home.root()).root(tree.root());
    let (chain, rendered) = load_with(Preset::ClaudeCode, &tree.path("a/main.go"), options);
    let expected = [
        (home.path(".claude/CLAUDE.md"), "user\n"),
        (tree.path("CLAUDE.md"), "root\ntabs\n"),
        (tree.path(".claude/CLAUDE.md"), "root nested\n"),
        (tree.path(".claude/rules/go.md"), "go rule\n"),
        (tree.path("a/CLAUDE.local.md"), "a local\n"),
    ];
    let expected: Vec<(PathBuf, String)> = expected
        .iter()
        .map(|(p, c)| (p.clone(), c.to_string()))
        .collect();
    assert_eq!(files(&chain), expected);
    assert_eq!(
        sources(&chain),
        [
            Source::Extra,
            Source::Chain,
            Source::Chain,
            Source::Rule,
            Source::Chain
        ]
    );
    // SPEC §2's rendering, as the documentation gives none of its own.
    assert_eq!(rendered, agentsmd_core::render(&chain.files));
    // A rule whose paths the path does not match is not loaded.
    let options = Options::new().home(home.root()).root(tree.root());
    let (chain, _) = load_with(Preset::ClaudeCode, &tree.path("a/notes.txt"), options);
    assert!(files(&chain)
        .iter()
        .all(|(path, _)| !path.ends_with("go.md")));
}

#[test]
fn s12_claude_runs_in_a_session_loading_as_the_agent_reads_files() {
    let (tree, home) = claude_tree();
    let options = Options::new()
        .home(home.root())
        .root(tree.root())
        .preset(Preset::ClaudeCode);
    let session = agentsmd_core::Session::new(options).expect("a session of Claude Code");
    let first = session
        .touch(tree.path("a/notes.txt"))
        .expect("first touch");
    assert!(files(&first)
        .iter()
        .any(|(path, _)| *path == tree.path("a/CLAUDE.local.md")));
    let second = session
        .touch(tree.path("a/b/main.go"))
        .expect("second touch");
    assert_eq!(
        files(&second),
        [
            (tree.path(".claude/rules/go.md"), "go rule\n".to_string()),
            (tree.path("a/b/CLAUDE.md"), "b\n".to_string()),
        ]
    );
}
