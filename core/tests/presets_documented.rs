//! SPEC.md §12, the closed products' presets at the core's API: Claude Code, Cursor, GitHub
//! Copilot, Windsurf and Amp load what their documentation says (each test names the page, read
//! 2026-12-07), in its order, rendered as SPEC §2 renders; options given beside the preset
//! override it; and a session of one loads as the product does when its agent reads a file.
//! Every tree is a fresh temporary directory, and every test passes `Options::home` so no
//! user's files are read.

mod support;

use std::path::PathBuf;

use agentsmd_core::{chain, render, Chain, Options, Preset, Reason, RuleDir, Session, Source};
use support::Tree;

/// The files as (path, content, source), lossy for the assertion messages.
fn files(chain: &Chain) -> Vec<(PathBuf, String, Source)> {
    let files = chain.files.iter();
    files
        .map(|f| {
            (
                f.path.clone(),
                String::from_utf8_lossy(&f.content).into(),
                f.source,
            )
        })
        .collect()
}

fn expected(rows: &[(PathBuf, &str, Source)]) -> Vec<(PathBuf, String, Source)> {
    let rows = rows.iter();
    rows.map(|(path, text, source)| (path.clone(), text.to_string(), *source))
        .collect()
}

/// The chain of `preset` at `at`, checked to be the same through `chain` with the option as
/// through `Preset::chain`, and to render as SPEC §2 renders.
fn load(preset: Preset, at: &std::path::Path, options: Options) -> Chain {
    let direct = preset.chain(at, &options).expect("the preset's chain");
    let through = chain(at, &options.clone().preset(preset)).expect("chain with the preset");
    assert_eq!(
        direct, through,
        "Preset::chain and chain with Options::preset"
    );
    let cwd = preset.working_dir(at, &options).expect("working directory");
    assert_eq!(preset.render(&direct, &cwd), render(&direct.files));
    direct
}

/// Whether the file system holding `tree` tells `AGENTS.md` from `agents.md`.
fn case_sensitive(tree: &Tree) -> bool {
    tree.file("case-probe", "");
    let sensitive = !tree.path("CASE-PROBE").exists();
    std::fs::remove_file(tree.path("case-probe")).expect("remove probe");
    sensitive
}

// Cursor (https://cursor.com/docs/rules): the project's legacy .cursorrules, then each
// directory's AGENTS.md from the project down, each with its own .cursor/rules.
#[test]
fn s12_cursor_cursorrules_then_each_agents_md_with_its_nested_rules() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file(".cursorrules", "legacy\n");
    tree.file("AGENTS.md", "root\n");
    tree.file(
        ".cursor/rules/always.mdc",
        "---\nalwaysApply: true\n---\nalways\n",
    );
    tree.file(".cursor/rules/ts.mdc", "---\nglobs: \"*.ts\"\n---\nts\n");
    tree.file("a/AGENTS.md", "a\n");
    tree.file("a/.cursor/rules/go.mdc", "---\nglobs: \"*.go\"\n---\ngo\n");
    tree.file("a/CLAUDE.md", "not Cursor's\n");
    let chain = load(
        Preset::Cursor,
        &tree.path("a/b/main.go"),
        Options::new().home(home.root()),
    );
    let rows = [
        (tree.path(".cursorrules"), "legacy\n", Source::Extra),
        (tree.path("AGENTS.md"), "root\n", Source::Chain),
        (
            tree.path(".cursor/rules/always.mdc"),
            "always\n",
            Source::Rule,
        ),
        (tree.path("a/AGENTS.md"), "a\n", Source::Chain),
        (tree.path("a/.cursor/rules/go.mdc"), "go\n", Source::Rule),
    ];
    assert_eq!(files(&chain), expected(&rows));
    // Without a .git above, the project is the working directory alone.
    std::fs::remove_dir(tree.path(".git")).expect("remove .git");
    let chain = load(
        Preset::Cursor,
        &tree.path("a/main.go"),
        Options::new().home(home.root()),
    );
    let rows = [
        (tree.path("a/AGENTS.md"), "a\n", Source::Chain),
        (tree.path("a/.cursor/rules/go.mdc"), "go\n", Source::Rule),
    ];
    assert_eq!(files(&chain), expected(&rows));
}

// GitHub Copilot (docs.github.com, "Adding custom instructions for GitHub Copilot CLI" and
// "Adding repository custom instructions"): the user's instructions, the root's single
// CLAUDE.md or GEMINI.md, then each directory's .github/copilot-instructions.md and AGENTS.md,
// and the root's .github/instructions by applyTo.
#[test]
fn s12_copilot_user_then_root_files_then_each_directory_with_path_specific_instructions() {
    let (tree, home) = (Tree::new(), Tree::new());
    home.file(".copilot/copilot-instructions.md", "user\n");
    tree.dir(".git");
    tree.file("CLAUDE.md", "claude\n");
    tree.file("GEMINI.md", "gemini\n");
    tree.file(".github/copilot-instructions.md", "repository\n");
    tree.file("AGENTS.md", "root agents\n");
    tree.file(
        ".github/instructions/go.instructions.md",
        "---\napplyTo: \"**/*.go\"\n---\ngo\n",
    );
    tree.file(
        ".github/instructions/ts.instructions.md",
        "---\napplyTo: \"**/*.ts\"\n---\nts\n",
    );
    tree.file("a/AGENTS.md", "a agents\n");
    tree.file("a/CLAUDE.md", "only the root's\n");
    let chain = load(
        Preset::Copilot,
        &tree.path("a/main.go"),
        Options::new().home(home.root()),
    );
    let rows = [
        (
            home.path(".copilot/copilot-instructions.md"),
            "user\n",
            Source::Extra,
        ),
        (tree.path("CLAUDE.md"), "claude\n", Source::Extra),
        (tree.path("GEMINI.md"), "gemini\n", Source::Extra),
        (
            tree.path(".github/copilot-instructions.md"),
            "repository\n",
            Source::Chain,
        ),
        (tree.path("AGENTS.md"), "root agents\n", Source::Chain),
        (
            tree.path(".github/instructions/go.instructions.md"),
            "go\n",
            Source::Rule,
        ),
        (tree.path("a/AGENTS.md"), "a agents\n", Source::Chain),
    ];
    assert_eq!(files(&chain), expected(&rows));
}

// Windsurf (docs.windsurf.com, "Memories & Rules" and "AGENTS.md"): the global rules, the
// legacy .windsurfrules, then each directory's AGENTS.md (or agents.md) and .windsurf/rules.
#[test]
fn s12_windsurf_global_rules_then_each_directory_agents_md_and_its_rules() {
    let (tree, home) = (Tree::new(), Tree::new());
    home.file(".codeium/windsurf/memories/global_rules.md", "global\n");
    tree.dir(".git");
    tree.file(".windsurfrules", "legacy\n");
    tree.file("AGENTS.md", "root\n");
    tree.file(
        ".windsurf/rules/style.md",
        "---\ntrigger: always_on\n---\nstyle\n",
    );
    tree.file(
        ".windsurf/rules/ask.md",
        "---\ntrigger: model_decision\ndescription: d\n---\nask\n",
    );
    tree.file("a/agents.md", "a\n");
    tree.file(
        "a/.windsurf/rules/go.md",
        "---\ntrigger: glob\nglobs: \"*.go\"\n---\ngo\n",
    );
    let chain = load(
        Preset::Windsurf,
        &tree.path("a/main.go"),
        Options::new().home(home.root()),
    );
    let rows = [
        (
            home.path(".codeium/windsurf/memories/global_rules.md"),
            "global\n",
            Source::Extra,
        ),
        (tree.path(".windsurfrules"), "legacy\n", Source::Extra),
        (tree.path("AGENTS.md"), "root\n", Source::Chain),
        (
            tree.path(".windsurf/rules/style.md"),
            "style\n",
            Source::Rule,
        ),
        (tree.path("a/agents.md"), "a\n", Source::Chain),
        (tree.path("a/.windsurf/rules/go.md"), "go\n", Source::Rule),
    ];
    assert_eq!(files(&chain), expected(&rows));
    assert_eq!(chain.available.len(), 1, "the rule on request is offered");
    // One name of a directory stands for the other.
    if case_sensitive(&tree) {
        tree.file("a/AGENTS.md", "A\n");
        let chain = load(
            Preset::Windsurf,
            &tree.path("a/main.go"),
            Options::new().home(home.root()),
        );
        assert!(chain
            .omitted
            .iter()
            .any(|left_out| left_out.path == tree.path("a/agents.md")
                && left_out.reason == Reason::Shadowed));
    }
}

// Amp (https://ampcode.com/manual#AGENTS.md): the user's ~/.config/amp/AGENTS.md and
// ~/.config/AGENTS.md, then the working directory and each parent up to the home directory,
// each its AGENTS.md, else AGENT.md, else CLAUDE.md, with the files they @-mention.
#[test]
fn s12_amp_config_files_then_each_parent_up_to_home_with_fallback_names_and_mentions() {
    let home = Tree::new();
    home.file(".config/amp/AGENTS.md", "amp user\n");
    home.file(".config/AGENTS.md", "user\n");
    home.file("AGENTS.md", "home\n");
    home.file("work/AGENT.md", "work\n");
    home.file("work/repo/AGENTS.md", "repo\n@docs/style.md\n");
    home.file("work/repo/docs/style.md", "tabs\n");
    home.file("work/repo/CLAUDE.md", "shadowed\n");
    home.dir("work/repo/src");
    let at = home.path("work/repo/src/main.rs");
    let chain = load(Preset::Amp, &at, Options::new().home(home.root()));
    let rows = [
        (
            home.path(".config/amp/AGENTS.md"),
            "amp user\n",
            Source::Extra,
        ),
        (home.path(".config/AGENTS.md"), "user\n", Source::Extra),
        (home.path("AGENTS.md"), "home\n", Source::Chain),
        (home.path("work/AGENT.md"), "work\n", Source::Chain),
        (
            home.path("work/repo/AGENTS.md"),
            "repo\ntabs\n",
            Source::Chain,
        ),
    ];
    assert_eq!(files(&chain), expected(&rows));
    let shadowed = chain
        .omitted
        .iter()
        .find(|left_out| left_out.path == home.path("work/repo/CLAUDE.md"));
    assert_eq!(
        shadowed.map(|left_out| left_out.reason),
        Some(Reason::Shadowed)
    );
}

// Claude Code (https://code.claude.com/docs/en/memory): without a root, the project is the
// nearest directory holding .git, whose .claude/rules apply; the memory files of the
// directories above it come before its own.
#[test]
fn s12_claude_finds_its_project_reads_its_rules_and_the_memory_files_above_it() {
    let (outer, home) = (Tree::new(), Tree::new());
    home.file(".claude/CLAUDE.md", "user\n");
    outer.file("CLAUDE.md", "above\n");
    outer.dir("repo/.git");
    outer.file("repo/CLAUDE.md", "project\n");
    outer.file(
        "repo/.claude/rules/go.md",
        "---\npaths: \"src/**/*.go\"\n---\ngo\n",
    );
    outer.dir("repo/src");
    let at = outer.path("repo/src/main.go");
    let chain = load(Preset::ClaudeCode, &at, Options::new().home(home.root()));
    let mine = files(&chain)
        .into_iter()
        .filter(|(path, ..)| path.starts_with(outer.root()) || path.starts_with(home.root()));
    let rows = [
        (home.path(".claude/CLAUDE.md"), "user\n", Source::Extra),
        (outer.path("CLAUDE.md"), "above\n", Source::Extra),
        (outer.path("repo/CLAUDE.md"), "project\n", Source::Chain),
        (outer.path("repo/.claude/rules/go.md"), "go\n", Source::Rule),
    ];
    assert_eq!(mine.collect::<Vec<_>>(), expected(&rows));
}

// SPEC §12: options given beside a preset override it.
#[test]
fn s12_options_beside_a_closed_products_preset_override_it() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("AGENTS.md", "agents\n");
    tree.file("RULES.md", "rules file\n");
    tree.file(
        ".cursor/rules/always.mdc",
        "---\nalwaysApply: true\n---\nalways\n",
    );
    tree.file("team/always.mdc", "---\nalwaysApply: true\n---\nteam\n");
    tree.file("extra.md", "extra\n");
    let at = tree.path("main.go");
    let options = Options::new()
        .home(home.root())
        .names(["RULES.md"])
        .rules(vec![RuleDir::new(agentsmd_core::Dialect::Cursor, "team")])
        .extra([tree.path("extra.md")]);
    let chain = load(Preset::Cursor, &at, options);
    let rows = [
        (tree.path("extra.md"), "extra\n", Source::Extra),
        (tree.path("RULES.md"), "rules file\n", Source::Chain),
        (tree.path("team/always.mdc"), "team\n", Source::Rule),
    ];
    assert_eq!(files(&chain), expected(&rows));
    // A budget given beside the preset bounds what it loads.
    let options = Options::new().home(home.root()).budget(8);
    let chain = load(Preset::Cursor, &at, options);
    assert_eq!(
        files(&chain),
        expected(&[(tree.path("AGENTS.md"), "agents\n", Source::Chain)])
    );
    assert_eq!(chain.omitted[0].reason, Reason::OverBudget);
    // A product reproduced from its source decides what it loads: an option that would change
    // that is refused, naming it; a budget is spent on the texts it uses, in its order.
    tree.file("a/AGENTS.md", "a\n");
    // Names given replace those it looks for in its project's directories, as its own
    // setting does (Codex's project_doc_fallback_filenames, Gemini CLI's context.fileName).
    let names = Options::new().home(home.root()).names(["RULES.md"]);
    let codex = Preset::Codex
        .chain(&tree.path("a"), &names)
        .expect("names beside codex");
    let loaded: Vec<PathBuf> = codex.files.iter().map(|file| file.path.clone()).collect();
    assert_eq!(loaded, [tree.path("RULES.md")]);
    tree.file("a/GEMINI.md", "gemini\n");
    let both = Options::new()
        .home(home.root())
        .names(["AGENTS.md", "GEMINI.md"]);
    let gemini = Preset::GeminiCli
        .chain(&tree.path("a"), &both)
        .expect("names beside gemini");
    let loaded: Vec<PathBuf> = gemini.files.iter().map(|file| file.path.clone()).collect();
    let expected = [
        tree.path("AGENTS.md"),
        tree.path("a/AGENTS.md"),
        tree.path("a/GEMINI.md"),
    ];
    assert_eq!(
        loaded, expected,
        "every name of each directory, sorted as strings"
    );
    // Cline's project files are rule directories: names beside it are refused, naming them.
    let refused = Preset::Cline
        .chain(&tree.path("a"), &names)
        .expect_err("names beside cline");
    assert_eq!(refused.kind(), agentsmd_core::ErrorKind::InvalidArgument);
    assert!(refused.to_string().contains("names"), "{refused}");
    let report = Options::new().home(home.root()).report(true);
    let refused = Preset::Codex
        .chain(&tree.path("a"), &report)
        .expect_err("report beside codex");
    assert!(refused.to_string().contains("report"), "{refused}");
    let budget = Options::new().home(home.root()).budget(8);
    let chain = Preset::Pi
        .chain(&tree.path("a"), &budget)
        .expect("pi within a budget");
    let kept: Vec<PathBuf> = chain.files.iter().map(|file| file.path.clone()).collect();
    assert!(kept.ends_with(&[tree.path("AGENTS.md")]), "{kept:?}");
    let over = chain
        .omitted
        .iter()
        .find(|left_out| left_out.path == tree.path("a/AGENTS.md"));
    assert_eq!(
        over.map(|left_out| (left_out.size, left_out.reason)),
        Some((2, Reason::OverBudget))
    );
    // Every preset reads the OS's file system: a custom one beside it is refused.
    let fs: std::sync::Arc<dyn agentsmd_core::fs::FileSystem> =
        std::sync::Arc::new(agentsmd_core::fs::OsFs);
    let custom = Options::new().home(home.root()).fs(fs);
    let refused = Preset::Cursor
        .chain(&at, &custom)
        .expect_err("fs beside cursor");
    assert!(refused.to_string().contains("fs"), "{refused}");
    assert!(Preset::Codex
        .options(&at, &Options::new())
        .expect("options")
        .is_none());
}

// SPEC §12 with §10: a session of a closed product finds its project at its first touch and
// then gives each directory's files, and each rule, as the agent reaches them.
#[test]
fn s12_sessions_of_closed_products_load_as_the_agent_reads_files() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".git");
    tree.file("AGENTS.md", "root\n");
    tree.file(
        ".github/instructions/go.instructions.md",
        "---\napplyTo: \"**/*.go\"\n---\ngo\n",
    );
    tree.file("a/AGENTS.md", "a\n");
    tree.file(
        "a/.windsurf/rules/go.md",
        "---\ntrigger: glob\nglobs: \"*.go\"\n---\nwindsurf go\n",
    );
    for (preset, rule) in [
        (
            Preset::Copilot,
            (tree.path(".github/instructions/go.instructions.md"), "go\n"),
        ),
        (
            Preset::Windsurf,
            (tree.path("a/.windsurf/rules/go.md"), "windsurf go\n"),
        ),
    ] {
        let options = Options::new().home(home.root()).preset(preset);
        let session = Session::new(options).expect("a session of the product");
        let first = session.touch(tree.path("README")).expect("first touch");
        let rows = [(tree.path("AGENTS.md"), "root\n", Source::Chain)];
        assert_eq!(files(&first), expected(&rows), "{preset:?}");
        let second = session.touch(tree.path("a/main.go")).expect("second touch");
        let (rule, text) = rule;
        let mut rows = vec![(tree.path("a/AGENTS.md"), "a\n", Source::Chain)];
        match preset {
            Preset::Copilot => rows.insert(0, (rule, text, Source::Rule)),
            _ => rows.push((rule, text, Source::Rule)),
        }
        assert_eq!(files(&second), expected(&rows), "{preset:?}");
        let again = session.touch(tree.path("a/other.go")).expect("third touch");
        assert!(again.files.is_empty(), "{preset:?}: each file given once");
    }
}
