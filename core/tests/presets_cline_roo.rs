//! SPEC.md §12, the Cline and Roo Code presets at the core's API: which files the product
//! loads, in its order, with its text, what it drops or leaves unread (`omitted`), and the exact
//! piece [`Preset::render`] gives. Each test cites the line of the product's pinned source it
//! follows: cline/cline at 21cb8d2 (the SDK the VS Code extension runs on:
//! `sdk/packages/core/src/extensions/config/user-instruction-config-loader.ts`, "loader.ts"
//! below, `sdk/packages/shared/src/storage/paths.ts`, `sdk/packages/core/src/runtime/safety/
//! rules.ts`) and RooCodeInc/Roo-Code at cb83656 (`src/core/prompts/sections/
//! custom-instructions.ts`, "custom-instructions.ts" below). Every tree is a fresh temporary
//! directory, and every test passes `Options::home` so no user's files are read.

use std::fs;
use std::path::{Path, PathBuf};

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
        fs::canonicalize(self.dir.path()).expect("canonical root")
    }

    fn path(&self, rel: &str) -> PathBuf {
        match rel {
            "" => self.root(),
            rel => self.root().join(rel),
        }
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

/// What `preset` loads at `at` with `home`: the chain (the same through `agentsmd_core::chain`
/// with `Options::preset` as through `Preset::chain`) and its rendering.
fn load(preset: Preset, at: &Path, home: &Path) -> (Chain, String) {
    let options = Options::new().home(home);
    let direct = preset.chain(at, &options).expect("the preset's chain");
    let through = chain(at, &options.clone().preset(preset)).expect("chain with the preset");
    assert_eq!(direct, through, "Preset::chain and chain with the preset");
    let cwd = preset.working_dir(at, &options).expect("working directory");
    let rendered = preset.render(&direct, &cwd);
    (direct, String::from_utf8(rendered).expect("UTF-8"))
}

fn paths(chain: &Chain) -> Vec<PathBuf> {
    chain.files.iter().map(|f| f.path.clone()).collect()
}

fn omitted(chain: &Chain) -> Vec<(PathBuf, Reason)> {
    chain
        .omitted
        .iter()
        .map(|o| (o.path.clone(), o.reason))
        .collect()
}

#[test]
fn s12_names_cline_and_roo() {
    assert_eq!(Preset::from_name("cline"), Some(Preset::Cline));
    assert_eq!(Preset::from_name("roo"), Some(Preset::RooCode));
    assert!(Preset::ALL.contains(&Preset::Cline) && Preset::ALL.contains(&Preset::RooCode));
    assert!(Preset::Cline.product().contains("21cb8d2"));
    assert!(Preset::RooCode.product().contains("cb83656"));
}

// ---- Cline ----

/// paths.ts `resolveRulesConfigSearchPaths`: the workspace's AGENTS.md, `.clinerules`,
/// `.cline/rules`, then `~/.agents/AGENTS.md`, `~/.cline/rules`, `~/Documents/Cline/Rules`;
/// rules.ts `listEnabledRulesFromWatcher` sorts by name (`localeCompare`) and
/// `formatRulesForSystemPrompt` gives `\n\n# Rules\n` + `## NAME\nTEXT` joined by blank lines,
/// trimmed by `resolveRuleContent`; loader.ts `resolveRuleFallbackName` names the AGENTS.md.
#[test]
fn s12_cline_every_rules_place_sorted_by_name() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file("AGENTS.md", "  Workspace agents.\n\n");
    tree.file(".clinerules/style.md", "Use tabs.\n");
    tree.file(".clinerules/Build.txt", "Run make.");
    tree.file(".cline/rules/zeta.markdown", "Last.");
    home.file(".agents/AGENTS.md", "Global agents.");
    home.file(".cline/rules/alpha.md", "First.");
    home.file("Documents/Cline/Rules/mid.md", "Middle.");
    let (chain, rendered) = load(Preset::Cline, &tree.root(), &home.root());
    assert_eq!(
        rendered,
        "# Rules\n## alpha\nFirst.\n\n## Build\nRun make.\n\n## Global AGENTS.md\nGlobal agents.\
         \n\n## mid\nMiddle.\n\n## style\nUse tabs.\n\n## Workspace AGENTS.md\nWorkspace agents.\
         \n\n## zeta\nLast."
    );
    assert_eq!(chain.files.len(), 7);
    let sources: Vec<Source> = chain.files.iter().map(|f| f.source).collect();
    assert_eq!(sources[0], Source::Extra, "the user's rule");
    assert_eq!(sources[6], Source::Chain, "the workspace's rule");
}

/// loader.ts `discoverRulesLikeFiles`: a path that is a file is itself the candidate (the
/// legacy `.clinerules` file, `includeFile`'s `fileName === ".clinerules"`), its name the file
/// name (`basename(filePath, extname(filePath))`, and `.clinerules` has no extension).
#[test]
fn s12_cline_a_clinerules_file_is_one_rule() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file(".clinerules", "\u{FEFF}Legacy rules.\n");
    let (chain, rendered) = load(Preset::Cline, &tree.root(), &home.root());
    assert_eq!(rendered, "# Rules\n## .clinerules\nLegacy rules.");
    assert_eq!(paths(&chain), [tree.path(".clinerules")]);
}

/// loader.ts `discoverRulesLikeFiles`: a directory's entries that are files with an extension
/// of `MARKDOWN_EXTENSIONS` (lowercased), not below it; `.md` alone has no extension.
#[test]
fn s12_cline_a_rules_directory_gives_its_own_rule_files_only() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file(".clinerules/a.MD", "upper");
    tree.file(".clinerules/b.json", "{}");
    tree.file(".clinerules/.md", "no extension");
    tree.file(".clinerules/workflows/w.md", "a workflow");
    let (chain, rendered) = load(Preset::Cline, &tree.root(), &home.root());
    assert_eq!(rendered, "# Rules\n## a\nupper");
    assert_eq!(paths(&chain), [tree.path(".clinerules/a.MD")]);
}

/// loader.ts `parseRuleConfigFromMarkdown`: the front matter is taken off, `name` names the
/// rule, `disabled: true` (or `enabled: false`) leaves it out; the body trimmed.
#[test]
fn s12_cline_front_matter_names_and_disables() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file(
        ".clinerules/a.md",
        "---\nname: Zulu rule\n---\n\n  Body A.\n",
    );
    tree.file(".clinerules/b.md", "---\ndisabled: true\n---\nOff.");
    tree.file(
        ".clinerules/c.md",
        "---\r\nenabled: false\r\n---\r\nOff too.",
    );
    tree.file(
        ".clinerules/d.md",
        "\u{FEFF}---\npaths: [\"src/**\"]\n---\nScoped.",
    );
    let (chain, rendered) = load(Preset::Cline, &tree.root(), &home.root());
    assert_eq!(rendered, "# Rules\n## d\nScoped.\n\n## Zulu rule\nBody A.");
    assert_eq!(chain.files.len(), 2);
}

/// loader.ts `parseRuleConfigFromMarkdown`: "Missing instructions body in rule file." is
/// thrown for an empty body, and the watcher skips the file.
#[test]
fn s12_cline_empty_and_whitespace_rules_are_dropped() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file("AGENTS.md", "");
    tree.file(".clinerules/blank.md", " \n\t\n");
    tree.file(".clinerules/fm.md", "---\nname: x\n---\n   ");
    let (chain, rendered) = load(Preset::Cline, &tree.root(), &home.root());
    assert_eq!(rendered, "");
    assert!(chain.files.is_empty());
    let mut dropped = omitted(&chain);
    dropped.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        dropped,
        [
            (tree.path(".clinerules/blank.md"), Reason::Empty),
            (tree.path(".clinerules/fm.md"), Reason::Empty),
            (tree.path("AGENTS.md"), Reason::Empty),
        ]
    );
}

/// unified-config-file-watcher.ts `records.set(id, …)` with loader.ts `resolveId` (the name
/// trimmed and lowercased): a later directory's rule of the same name replaces the earlier.
#[test]
fn s12_cline_a_later_rule_of_the_same_name_replaces_the_earlier() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file(".clinerules/Style.md", "Workspace style.");
    home.file(".cline/rules/style.md", "Global style.");
    let (chain, rendered) = load(Preset::Cline, &tree.root(), &home.root());
    assert_eq!(rendered, "# Rules\n## style\nGlobal style.");
    assert_eq!(
        omitted(&chain),
        [(tree.path(".clinerules/Style.md"), Reason::Shadowed)]
    );
}

/// loader.ts `discoverRulesLikeFiles`: "if this is a workspace root directory, also check for
/// AGENTS.md" — a rules directory's AGENTS.md, named by its file name.
#[test]
fn s12_cline_agents_md_in_a_rules_directory() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file(".cline/rules/AGENTS.md", "Inside.");
    let (_, rendered) = load(Preset::Cline, &tree.root(), &home.root());
    assert_eq!(rendered, "# Rules\n## AGENTS\nInside.");
}

/// paths.ts: only the workspace (the working directory) is read, not its ancestors, and no
/// other product's name (`.cursorrules`, `CLAUDE.md`).
#[test]
fn s12_cline_reads_the_working_directory_only() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file("AGENTS.md", "Parent.");
    tree.file("sub/CLAUDE.md", "Claude.");
    tree.file("sub/.cursorrules", "Cursor.");
    let (chain, rendered) = load(Preset::Cline, &tree.path("sub"), &home.root());
    assert_eq!(rendered, "");
    assert!(chain.files.is_empty() && chain.omitted.is_empty());
}

// ---- Roo Code ----

/// custom-instructions.ts `addCustomInstructions`: `Rules:\n\n` + the rules joined by blank
/// lines: the agent rules (`# Agent Rules Standard (AGENTS.md):`) before the generic rules;
/// `loadRuleFiles` falls back to `.roorules` then `.clinerules`
/// (`\n# Rules from ${file}:\n${content}\n`, trimmed).
#[test]
fn s12_roo_agents_then_legacy_rules() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file("AGENTS.md", "\n Agents. \n");
    tree.file("AGENTS.local.md", "Mine.");
    tree.file(".clinerules", "Cline rules.");
    let (chain, rendered) = load(Preset::RooCode, &tree.root(), &home.root());
    assert_eq!(
        rendered,
        "Rules:\n\n# Agent Rules Standard (AGENTS.md):\nAgents.\n\n\
         # Agent Rules Local (AGENTS.local.md):\nMine.\n\n# Rules from .clinerules:\nCline rules."
    );
    assert_eq!(
        paths(&chain),
        [
            tree.path("AGENTS.md"),
            tree.path("AGENTS.local.md"),
            tree.path(".clinerules")
        ]
    );
}

/// custom-instructions.ts `loadAgentRulesFileFromDirectory`: AGENTS.md, else AGENT.md ("Found
/// a standard file, don't check alternative"); an empty one is passed over.
#[test]
fn s12_roo_agent_md_stands_in_for_an_empty_agents_md() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file("AGENTS.md", "  \n");
    tree.file("AGENT.md", "Alternative.");
    let (chain, rendered) = load(Preset::RooCode, &tree.root(), &home.root());
    assert_eq!(
        rendered,
        "Rules:\n\n# Agent Rules Standard (AGENT.md):\nAlternative."
    );
    assert_eq!(omitted(&chain), [(tree.path("AGENTS.md"), Reason::Empty)]);

    tree.file("AGENTS.md", "Standard.");
    let (chain, _) = load(Preset::RooCode, &tree.root(), &home.root());
    assert_eq!(omitted(&chain), [(tree.path("AGENT.md"), Reason::Shadowed)]);
}

/// custom-instructions.ts `loadRuleFiles`: `~/.roo/rules` then `CWD/.roo/rules`, each
/// directory's files sorted by lowercased base name, `# Rules from ${path.relative(cwd,
/// file)}:` each, under `# Rules from .roo directories:`; then `.roorules` is not read.
#[test]
fn s12_roo_rules_directories_global_first_and_legacy_shadowed() {
    let (tree, home) = (Tree::new(), Tree::new());
    let cwd = tree.dir("project");
    home.file(".roo/rules/g.md", "Global.");
    tree.file("project/.roo/rules/B.md", "Bee.\n");
    tree.file("project/.roo/rules/nested/a.txt", "Ay.");
    tree.file("project/.roo/rules/empty.md", "");
    tree.file("project/.roo/rules/skip.log", "a log");
    tree.file("project/.roorules", "Legacy.");
    let (chain, rendered) = load(Preset::RooCode, &cwd, &home.root());
    let global = home.path(".roo/rules/g.md");
    // `path.relative(cwd, file)`: up to the common directory, then down.
    let common = cwd
        .components()
        .zip(global.components())
        .take_while(|(a, b)| a == b)
        .count();
    let up = "../".repeat(cwd.components().count() - common);
    let down: Vec<String> = global
        .components()
        .skip(common)
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let global_rel = format!("{up}{}", down.join("/"));
    assert_eq!(
        rendered,
        format!(
            "Rules:\n\n# Rules from .roo directories:\n\n# Rules from {global_rel}:\nGlobal.\n\n\
             # Rules from .roo/rules/nested/a.txt:\nAy.\n\n# Rules from .roo/rules/B.md:\nBee.\n\n\
             # Rules from .roo/rules/empty.md:"
        )
    );
    assert_eq!(chain.files.len(), 4);
    assert!(chain.files.iter().all(|f| f.source == Source::Rule));
    assert_eq!(
        omitted(&chain),
        [(tree.path("project/.roorules"), Reason::Shadowed)]
    );
}

/// custom-instructions.ts `addCustomInstructions`: the mode's rules (`rules-code`, the default
/// mode) come first, under `# Rules from rules-code directories:` and a blank line, since
/// `usedRuleFile` ("rules-code directories") never holds `.roo/rules-code`.
#[test]
fn s12_roo_mode_rules_come_first_with_their_header() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file(".roo/rules-code/one.md", "Code mode.");
    tree.file(".roo/rules-architect/x.md", "Another mode.");
    tree.file("AGENTS.md", "Agents.");
    tree.file(".roo/rules/r.md", "Rule.");
    let (_, rendered) = load(Preset::RooCode, &tree.root(), &home.root());
    assert_eq!(
        rendered,
        "Rules:\n\n# Rules from rules-code directories:\n\n# Rules from .roo/rules-code/one.md:\n\
         Code mode.\n\n# Agent Rules Standard (AGENTS.md):\nAgents.\n\n# Rules from .roo \
         directories:\n\n# Rules from .roo/rules/r.md:\nRule."
    );
}

/// custom-instructions.ts `addCustomInstructions`: without `.roo/rules-code`, `.roorules-code`
/// then `.clinerules-code`, as `# Rules from ${usedRuleFile}:\n${content}`.
#[test]
fn s12_roo_legacy_mode_file() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.file(".roorules-code", "");
    tree.file(".clinerules-code", "Mode legacy.\n");
    let (chain, rendered) = load(Preset::RooCode, &tree.root(), &home.root());
    assert_eq!(
        rendered,
        "Rules:\n\n# Rules from .clinerules-code:\nMode legacy."
    );
    assert_eq!(
        omitted(&chain),
        [(tree.path(".roorules-code"), Reason::Empty)]
    );
}

/// custom-instructions.ts: nothing to give renders nothing (`rules.length > 0` guards the
/// `Rules:` section); `.clinerules` as a directory reads as "" (EISDIR).
#[test]
fn s12_roo_nothing_renders_empty() {
    let (tree, home) = (Tree::new(), Tree::new());
    tree.dir(".clinerules");
    tree.file("CLAUDE.md", "Not Roo's.");
    let (chain, rendered) = load(Preset::RooCode, &tree.root(), &home.root());
    assert_eq!(rendered, "");
    assert!(chain.files.is_empty());
}
