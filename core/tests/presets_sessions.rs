//! SPEC.md §12 with §10, sessions of the products reproduced from their source: the first touch
//! is the product starting at that path, each later touch its agent reading a file, giving what
//! the product newly loads then and the piece [`Preset::render_touch`] gives for it. Gemini CLI
//! from npm `@google/gemini-cli-core` 0.61.0 (`dist/src/utils/memoryDiscovery.js`
//! `loadJitSubdirectoryMemory`, `dist/src/tools/jit-context.js`; "memoryDiscovery.js" and
//! "jit-context.js" below), opencode from anomalyco/opencode at 00b964bd
//! (`packages/opencode/src/session/instruction.ts` `resolve`, and the read tool that calls it).
//! Every tree is a fresh temporary directory, and every test passes `Options::home`.

mod support;

use std::path::PathBuf;

use agentsmd_core::{Chain, Options, Preset, Reason, Session};
use support::Tree;

fn paths(chain: &Chain) -> Vec<PathBuf> {
    chain.files.iter().map(|file| file.path.clone()).collect()
}

fn session(preset: Preset, home: &Tree) -> Session {
    Session::new(Options::new().home(home.root()).preset(preset)).expect("a session")
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("UTF-8")
}

#[test]
fn s12_gemini_a_read_loads_the_gemini_md_files_up_to_the_project_root_not_loaded_yet() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("GEMINI.md", "root\n");
    tree.file("a/GEMINI.md", "  a rules  \n");
    tree.file("a/b/GEMINI.md", " \n\t\n");
    tree.file("c/GEMINI.md", "c\n");
    let session = session(Preset::GeminiCli, &home);
    // The start at the project root: its own GEMINI.md.
    let start = session.touch(tree.path("README.md")).expect("start");
    assert_eq!(paths(&start), [tree.path("GEMINI.md")]);
    // memoryDiscovery.js findUpwardGeminiFiles: from the file's directory up to the ceiling,
    // root first; the root's file is loaded already (by identity); the whitespace-only file
    // gives no block (reported empty) and is marked loaded.
    let read = session.touch(tree.path("a/b/main.rs")).expect("read");
    assert_eq!(paths(&read), [tree.path("a/GEMINI.md")]);
    assert_eq!(read.files[0].content, b"a rules", "trimmed");
    let empty: Vec<_> = read
        .omitted
        .iter()
        .map(|o| (o.path.clone(), o.reason))
        .collect();
    assert_eq!(empty, [(tree.path("a/b/GEMINI.md"), Reason::Empty)]);
    // jit-context.js: appended to the tool's result inside its marks.
    let a = tree.path("a/GEMINI.md").display().to_string();
    assert_eq!(
        text(Preset::GeminiCli.render_touch(&read.files)),
        format!(
            "\n\n--- Newly Discovered Project Context ---\n--- Context from: {a} ---\na rules\n\
             --- End of Context from: {a} ---\n--- End Project Context ---"
        )
    );
    assert!(session
        .touch(tree.path("a/b/other.rs"))
        .expect("again")
        .files
        .is_empty());
    // A directory touched (list_directory) starts at itself.
    let listed = session.touch(tree.path("c")).expect("list c");
    assert_eq!(paths(&listed), [tree.path("c/GEMINI.md")]);
    // Nothing newly loaded renders nothing.
    assert!(Preset::GeminiCli.render_touch(&[]).is_empty());
}

#[test]
fn s12_gemini_a_path_outside_the_workspace_loads_nothing() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("GEMINI.md", "root\n");
    tree.file("a/GEMINI.md", "a\n");
    tree.file("b/GEMINI.md", "b\n");
    let session = session(Preset::GeminiCli, &home);
    // Started in a: its file and the root's, up to the .git root.
    let start = session.touch(tree.path("a")).expect("start in a");
    assert_eq!(
        paths(&start),
        [tree.path("GEMINI.md"), tree.path("a/GEMINI.md")]
    );
    // memoryDiscovery.js: a path in no workspace directory gets nothing.
    assert!(session
        .touch(tree.path("b/main.rs"))
        .expect("b")
        .files
        .is_empty());
}

#[test]
fn s12_opencode_a_read_attaches_the_files_between_it_and_where_opencode_runs() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n");
    tree.file("a/AGENTS.local.md", "a local\n");
    tree.file("a/CLAUDE.md", "not the first name\n");
    tree.file("a/b/CLAUDE.md", "b\n");
    tree.file("a/b/c/AGENTS.md", "");
    let session = session(Preset::Opencode, &home);
    let start = session.touch(tree.path("README.md")).expect("start");
    assert_eq!(paths(&start), [tree.path("AGENTS.md")]);
    // instruction.ts resolve: from the file's directory up to, not including, the instance
    // directory, nearest first; per directory the first name found, its file then its
    // .local.md; an empty file attached as nothing.
    let read = session.touch(tree.path("a/b/c/main.ts")).expect("read");
    let expected = [
        tree.path("a/b/CLAUDE.md"),
        tree.path("a/AGENTS.md"),
        tree.path("a/AGENTS.local.md"),
    ];
    assert_eq!(paths(&read), expected);
    let empty: Vec<_> = read
        .omitted
        .iter()
        .map(|o| (o.path.clone(), o.reason))
        .collect();
    assert_eq!(empty, [(tree.path("a/b/c/AGENTS.md"), Reason::Empty)]);
    // The read tool: `<system-reminder>` after the file's text, the items a blank line apart.
    let [b, a, local] = expected.map(|path| path.display().to_string());
    assert_eq!(
        text(Preset::Opencode.render_touch(&read.files)),
        format!(
            "\n\n<system-reminder>\nInstructions from: {b}\nb\n\n\nInstructions from: {a}\na\n\n\n\
             Instructions from: {local}\na local\n\n</system-reminder>"
        )
    );
    // Attached once.
    assert!(session
        .touch(tree.path("a/other.ts"))
        .expect("again")
        .files
        .is_empty());
}

#[test]
fn s12_opencode_skips_the_file_read_and_walks_a_sibling_named_like_its_directory() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file("proj/AGENTS.md", "proj\n");
    tree.file("proj/a/AGENTS.md", "a\n");
    tree.file("proj/a/AGENTS.local.md", "a local\n");
    tree.file("proj2/AGENTS.md", "proj2\n");
    let options = Options::new().home(home.root()).root(tree.path("proj"));
    let session = Session::new(options.preset(Preset::Opencode)).expect("a session");
    let start = session.touch(tree.path("proj")).expect("start");
    assert_eq!(paths(&start), [tree.path("proj/AGENTS.md")]);
    // `found === target`: the file read is not attached to itself.
    let read = session.touch(tree.path("proj/a/AGENTS.md")).expect("read");
    assert_eq!(paths(&read), [tree.path("proj/a/AGENTS.local.md")]);
    // `current.startsWith(root)` is a string prefix: proj2 begins with proj.
    let sibling = session.touch(tree.path("proj2/x.ts")).expect("sibling");
    assert_eq!(paths(&sibling), [tree.path("proj2/AGENTS.md")]);
}

#[test]
fn s12_products_that_load_when_they_start_give_nothing_at_a_read() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("AGENTS.md", "root\n");
    tree.file("a/AGENTS.md", "a\n");
    let products = [
        Preset::Codex,
        Preset::Pi,
        Preset::Goose,
        Preset::Zed,
        Preset::Cline,
        Preset::RooCode,
    ];
    for preset in products {
        let session = session(preset, &home);
        let start = session.touch(tree.path("README.md")).expect("start");
        assert!(
            paths(&start).contains(&tree.path("AGENTS.md")),
            "{preset:?}"
        );
        let read = session.touch(tree.path("a/main.rs")).expect("read");
        assert!(read.files.is_empty(), "{preset:?}: {:?}", paths(&read));
    }
}

#[test]
fn s12_a_budget_bounds_every_touch_of_a_presets_session() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("GEMINI.md", "root\n");
    tree.file("a/GEMINI.md", "a rules\n");
    tree.file("b/GEMINI.md", "b\n");
    let options = Options::new()
        .home(home.root())
        .budget(10)
        .preset(Preset::GeminiCli);
    let session = Session::new(options).expect("a session");
    let start = session.touch(tree.path("README.md")).expect("start");
    assert_eq!(paths(&start), [tree.path("GEMINI.md")], "4 bytes of 10");
    // SPEC §10: once a file does not fit, it and every later file of the session are out.
    let read = session.touch(tree.path("a/x.rs")).expect("read a");
    assert!(read.files.is_empty());
    let over: Vec<_> = read
        .omitted
        .iter()
        .map(|o| (o.path.clone(), o.size, o.reason))
        .collect();
    assert_eq!(over, [(tree.path("a/GEMINI.md"), 7, Reason::OverBudget)]);
    let later = session.touch(tree.path("b/x.rs")).expect("read b");
    assert!(
        later.files.is_empty(),
        "1 byte would fit, but the budget has ended"
    );
    assert_eq!(later.omitted[0].reason, Reason::OverBudget);
}

#[test]
fn s12_a_failing_touch_leaves_a_presets_session_as_it_was() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("GEMINI.md", "root\n");
    tree.file("a/GEMINI.md", "a\n");
    tree.file("a/b/GEMINI.md", "a much longer text than allowed\n");
    let options = Options::new()
        .home(home.root())
        .max_bytes(16)
        .preset(Preset::GeminiCli);
    let session = Session::new(options).expect("a session");
    session.touch(tree.path("README.md")).expect("start");
    // a/GEMINI.md is read, then a/b/GEMINI.md fails: the read is undone whole.
    let failed = session
        .touch(tree.path("a/b/x.rs"))
        .expect_err("over max_bytes");
    assert_eq!(failed.kind(), agentsmd_core::ErrorKind::TooLarge);
    tree.file("a/b/GEMINI.md", "b\n");
    let read = session
        .touch(tree.path("a/b/x.rs"))
        .expect("read after the fix");
    assert_eq!(
        paths(&read),
        [tree.path("a/GEMINI.md"), tree.path("a/b/GEMINI.md")]
    );
}

#[test]
fn s12_an_option_a_preset_does_not_take_is_refused_when_the_session_is_made() {
    let home = Tree::new();
    let options = Options::new()
        .home(home.root())
        .report(true)
        .preset(Preset::Codex);
    let refused = Session::new(options).expect_err("report beside codex");
    assert_eq!(refused.kind(), agentsmd_core::ErrorKind::InvalidArgument);
    assert!(refused.to_string().contains("report"), "{refused}");
}
