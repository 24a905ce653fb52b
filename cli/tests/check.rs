//! `agentsmd check` (SPEC.md §12): on generated trees each holding a known set of problems, it
//! finds exactly those — a file one product loads and another ignores, a name in another case,
//! an import that fails, a rule's unreadable front matter, a glob rule that matches no file of
//! the tree walked as git would, a file over a product's limit — and exits 0 on a tree with none,
//! 1 on one with some, 2 on a usage error; `--json` is one object; no colour off a terminal.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod support;
use support::{agentsmd, assert_usage_error, command, text, write};

/// A fresh repository (a temporary directory holding `.git`, its links resolved) and an empty
/// home beside it.
struct Repo {
    _dir: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
}

fn repo() -> Repo {
    let dir = tempfile::TempDir::new().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let root = base.join("repo");
    let home = base.join("home");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    Repo {
        _dir: dir,
        root,
        home,
    }
}

impl Repo {
    fn write(&self, path: &str, content: impl AsRef<[u8]>) {
        write(&self.root.join(path), content);
    }

    /// `agentsmd check ROOT --home HOME` with `args` after.
    fn check(&self, args: &[&str]) -> Output {
        let root = self.root.to_str().unwrap();
        let home = self.home.to_str().unwrap();
        let mut all = vec!["check", root, "--home", home];
        all.extend(args);
        let mut command = command(&self.root, &all);
        command.env_remove("NO_COLOR");
        command.output().expect("agentsmd runs")
    }

    /// `--json`'s object of `check` with `args`, and its exit status.
    fn json(&self, args: &[&str]) -> (Value, Option<i32>) {
        let out = self.check(&[args, &["--json"]].concat());
        let value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
        (value, out.status.code())
    }

    /// The problems of `object`, each `(kind, path relative to the root, products)`, sorted.
    fn problems(&self, object: &Value) -> Vec<(String, String, Vec<String>)> {
        let mut problems: Vec<_> = object["problems"]
            .as_array()
            .expect("problems")
            .iter()
            .map(|problem| {
                let path = Path::new(problem["path"].as_str().unwrap_or(""));
                let path = path.strip_prefix(&self.root).unwrap_or(path);
                let products = problem["products"].as_array().unwrap().iter();
                let products = products.map(|p| p.as_str().unwrap().to_string());
                (
                    problem["kind"].as_str().unwrap().to_string(),
                    // `/`-separated on every platform, as the tests write them.
                    path.to_str().unwrap().replace('\\', "/"),
                    products.collect(),
                )
            })
            .collect();
        problems.sort();
        problems
    }
}

/// `(kind, path, products)` as [`Repo::problems`] gives it.
fn problem(kind: &str, path: &str, products: &[&str]) -> (String, String, Vec<String>) {
    let products = products.iter().map(|p| p.to_string()).collect();
    (kind.to_string(), path.to_string(), products)
}

/// The product `preset` of `object`.
fn product<'a>(object: &'a Value, preset: &str) -> &'a Value {
    let products = object["products"].as_array().expect("products");
    let found = products.iter().find(|p| p["preset"] == preset);
    found.unwrap_or_else(|| panic!("no {preset} in {object}"))
}

#[test]
fn s12_check_a_tree_every_product_reads_whole_exits_0() {
    let repo = repo();
    repo.write("AGENTS.md", "Use tabs.\n");
    repo.write("src/main.rs", "fn main() {}\n");
    let presets = ["--as", "codex", "--as", "opencode", "--as", "goose"];
    let out = repo.check(&presets);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    assert!(stdout.contains("loads"), "{stdout}");
    assert!(stdout.ends_with("no problem found\n"), "{stdout}");
    let (object, code) = repo.json(&presets);
    assert_eq!(code, Some(0));
    assert_eq!(object["problems"], Value::Array(Vec::new()));
    for preset in ["codex", "opencode", "goose"] {
        let product = product(&object, preset);
        let files = product["files"].as_array().unwrap();
        assert_eq!(files.len(), 1, "{preset}: {product}");
        assert_eq!(
            files[0]["path"],
            repo.root.join("AGENTS.md").to_str().unwrap()
        );
        assert_eq!(files[0]["size"], 10);
        assert_eq!(product["omitted"], Value::Array(Vec::new()));
        assert_eq!(product["error"], Value::Null);
    }
}

#[test]
fn s12_check_json_is_one_object_of_the_documented_shape() {
    let repo = repo();
    repo.write("AGENTS.md", "Use tabs.\n");
    let (object, code) = repo.json(&[]);
    assert_eq!(
        code,
        Some(1),
        "AGENTS.md alone: Gemini CLI and Claude Code ignore it"
    );
    let keys: Vec<&String> = object.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["part_id", "path", "root", "products", "problems"]);
    assert_eq!(object["part_id"], "agentsmd");
    assert_eq!(object["path"], repo.root.to_str().unwrap());
    assert_eq!(object["root"], repo.root.to_str().unwrap());
    // Every preset by default, in `--as list`'s order.
    let list = agentsmd(&repo.root, &["--as", "list"]);
    let names: Vec<String> = text(&list.stdout)
        .lines()
        .map(|line| line.split('\t').next().unwrap().to_string())
        .collect();
    let products = object["products"].as_array().unwrap();
    let presets: Vec<&str> = products
        .iter()
        .map(|p| p["preset"].as_str().unwrap())
        .collect();
    assert_eq!(presets, names);
    for product in products {
        let keys: Vec<&String> = product.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["preset", "product", "files", "omitted", "error"]);
    }
    for problem in object["problems"].as_array().unwrap() {
        let keys: Vec<&String> = problem.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["kind", "path", "message", "products"]);
    }
    // The one problem: the products that load no file ignore AGENTS.md (Gemini CLI and Claude
    // Code among them), each preset in order.
    let ignoring: Vec<&str> = products
        .iter()
        .filter(|p| p["files"].as_array().unwrap().is_empty())
        .map(|p| p["preset"].as_str().unwrap())
        .collect();
    assert!(ignoring.contains(&"gemini") && ignoring.contains(&"claude"));
    assert_eq!(
        repo.problems(&object),
        [problem("ignored", "AGENTS.md", &ignoring)]
    );
}

#[test]
fn s12_check_finds_a_file_one_product_loads_and_another_ignores() {
    let repo = repo();
    repo.write("AGENTS.md", "Use tabs.\n");
    repo.write("CLAUDE.md", "Claude only.\n");
    let (object, code) = repo.json(&["--as", "codex", "--as", "claude"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        repo.problems(&object),
        [
            problem("ignored", "AGENTS.md", &["claude"]),
            problem("ignored", "CLAUDE.md", &["codex"]),
        ]
    );
}

#[test]
fn s12_check_a_nested_file_zed_never_reads_is_ignored_by_it() {
    // Zed reads the worktree root's file alone; Codex working in sub/ reads sub/AGENTS.md.
    let repo = repo();
    repo.write("AGENTS.md", "Use tabs.\n");
    repo.write("sub/AGENTS.md", "Here too.\n");
    let (object, code) = repo.json(&["--as", "codex", "--as", "zed"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        repo.problems(&object),
        [problem("ignored", "sub/AGENTS.md", &["zed"])]
    );
}

#[test]
fn s12_check_a_file_imported_is_read() {
    // Claude Code reads AGENTS.md through CLAUDE.md's import: only CLAUDE.md is ignored, by Codex.
    let repo = repo();
    repo.write("AGENTS.md", "Use tabs.\n");
    repo.write("CLAUDE.md", "@AGENTS.md\n");
    let (object, code) = repo.json(&["--as", "codex", "--as", "claude"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        repo.problems(&object),
        [problem("ignored", "CLAUDE.md", &["codex"])]
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Windows' names are case-insensitive: AGENTS.md finds AGENTS.MD"
)]
fn s12_check_finds_names_in_another_case() {
    let repo = repo();
    repo.write("AGENTS.md", "Use tabs.\n");
    repo.write("docs/AGENTS.MD", "pi reads this name.\n");
    repo.write("lib/agents.md", "No product reads this name.\n");
    let (object, code) = repo.json(&["--as", "codex", "--as", "pi"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        repo.problems(&object),
        [
            problem("name_case", "docs/AGENTS.MD", &["codex"]),
            problem("name_case", "lib/agents.md", &["codex", "pi"]),
        ]
    );
    let problems = object["problems"].as_array().unwrap();
    let message = |path: &str| {
        let path = repo.root.join(path);
        let found = problems
            .iter()
            .find(|p| p["path"] == path.to_str().unwrap());
        found.unwrap()["message"].as_str().unwrap().to_string()
    };
    assert_eq!(
        message("docs/AGENTS.MD"),
        "AGENTS.MD is not AGENTS.md: read by pi only"
    );
    assert_eq!(
        message("lib/agents.md"),
        "agents.md is not AGENTS.md: read by no product"
    );
}

#[test]
fn s12_check_finds_a_file_over_codex_limit() {
    let repo = repo();
    repo.write("AGENTS.md", "x".repeat(40_000));
    let (object, code) = repo.json(&["--as", "codex", "--as", "opencode"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        repo.problems(&object),
        [problem("over_limit", "AGENTS.md", &["codex"])]
    );
    let codex = product(&object, "codex");
    assert_eq!(codex["files"][0]["size"], 32_768);
    assert_eq!(codex["omitted"][0]["reason"], "truncated");
    assert_eq!(codex["omitted"][0]["size"], 40_000 - 32_768);
    assert_eq!(product(&object, "opencode")["files"][0]["size"], 40_000);
}

#[test]
fn s12_check_finds_a_nested_file_over_codex_limit() {
    // Codex working in big/ reads the root's file, then cuts big/AGENTS.md.
    let repo = repo();
    repo.write("AGENTS.md", "Use tabs.\n");
    repo.write("big/AGENTS.md", "y".repeat(33_000));
    let (object, code) = repo.json(&["--as", "codex"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        repo.problems(&object),
        [problem("over_limit", "big/AGENTS.md", &["codex"])]
    );
    // At PATH, the root, Codex loads its one file whole.
    let codex = product(&object, "codex");
    assert_eq!(codex["omitted"], Value::Array(Vec::new()));
}

#[test]
fn s12_check_finds_imports_claude_code_fails() {
    let repo = repo();
    repo.write("CLAUDE.md", "@missing.md\n");
    let (object, code) = repo.json(&["--as", "claude"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        repo.problems(&object),
        [problem("import", "CLAUDE.md", &["claude"])]
    );
    let claude = product(&object, "claude");
    assert!(claude["error"].is_string(), "{claude}");
}

#[test]
#[cfg_attr(windows, ignore = "the Gemini CLI preset expands imports on Unix only")]
fn s12_check_finds_imports_gemini_cli_fails() {
    let repo = repo();
    repo.write("GEMINI.md", "Read @nothere.md first.\n");
    let (object, code) = repo.json(&["--as", "gemini"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        repo.problems(&object),
        [problem("import", "GEMINI.md", &["gemini"])]
    );
    let message = object["problems"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Import failed: nothere.md"),
        "{message}"
    );
    assert_eq!(product(&object, "gemini")["error"], Value::Null);
}

#[test]
fn s12_check_finds_unreadable_front_matter() {
    let repo = repo();
    repo.write("AGENTS.md", "Use tabs.\n");
    repo.write(
        ".github/instructions/bad.instructions.md",
        "---\napplyTo: [unclosed\n---\nBody.\n",
    );
    repo.write(
        ".kiro/steering/odd.md",
        "---\ninclusion: sometimes\n---\nBody.\n",
    );
    repo.write(
        ".kiro/steering/fine.md",
        "---\ninclusion: always\n---\nBody.\n",
    );
    let (object, code) = repo.json(&["--as", "codex"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        repo.problems(&object),
        [
            problem(
                "front_matter",
                ".github/instructions/bad.instructions.md",
                &["copilot"]
            ),
            problem("front_matter", ".kiro/steering/odd.md", &["kiro"]),
        ]
    );
}

#[test]
fn s12_check_finds_glob_rules_that_match_no_file_of_the_tree() {
    let repo = repo();
    repo.write("AGENTS.md", "Use tabs.\n");
    repo.write(".gitignore", "build/\n");
    repo.write("src/main.rs", "fn main() {}\n");
    // Only an ignored file matches it: no file git would track does.
    repo.write("build/gen.py", "print()\n");
    repo.write(
        ".claude/rules/python.md",
        "---\npaths: \"**/*.py\"\n---\nPython.\n",
    );
    repo.write(".cursor/rules/go.mdc", "---\nglobs: **/*.go\n---\nGo.\n");
    repo.write(
        ".cursor/rules/rust.mdc",
        "---\nglobs: **/*.rs\n---\nRust.\n",
    );
    repo.write(".clinerules/always.md", "Always.\n");
    let (object, code) = repo.json(&["--as", "codex"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        repo.problems(&object),
        [
            problem("unmatched_glob", ".claude/rules/python.md", &["claude"]),
            problem("unmatched_glob", ".cursor/rules/go.mdc", &["cursor"]),
        ]
    );
}

#[test]
fn s12_check_table_has_no_colour_off_a_terminal() {
    let repo = repo();
    repo.write("AGENTS.md", "x".repeat(40_000));
    repo.write("CLAUDE.md", "Claude only.\n");
    let out = repo.check(&[]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(!stdout.contains('\x1b'), "{stdout}");
    // Each product, its files and what it drops; the problems; the count.
    assert!(stdout.contains("\ncodex "), "{stdout}");
    assert!(stdout.contains("truncated"), "{stdout}");
    assert!(stdout.contains("over_limit"), "{stdout}");
    assert!(stdout.contains("\nproblems\n"), "{stdout}");
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("agentsmd: error: check: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn s12_check_usage_errors_exit_2() {
    let repo = repo();
    let root = repo.root.to_str().unwrap();
    for args in [
        &["check", root, "--as", "nope"][..],
        &["check", root, "--bogus"],
        &["check", root, "other"],
        &["check", root, "--json=yes"],
        &["check", root, "--home", ""],
        &["check", root, "--as"],
    ] {
        assert_usage_error(&agentsmd(&repo.root, args), &args.join(" "));
    }
}

#[test]
fn s12_check_a_path_that_does_not_exist_is_an_error() {
    let repo = repo();
    let missing = repo.root.join("missing");
    let out = agentsmd(&repo.root, &["check", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).starts_with("agentsmd: error: check "));
}

#[test]
#[cfg(target_os = "linux")]
fn s12_check_table_is_coloured_on_a_terminal_unless_no_color() {
    // util-linux's script(1) runs the command with a terminal as its stdout.
    let repo = repo();
    repo.write("AGENTS.md", "Use tabs.\n");
    let binary = env!("CARGO_BIN_EXE_agentsmd");
    let run = |no_color: Option<&str>| {
        let line = format!(
            "'{binary}' check '{}' --home '{}' --as codex",
            repo.root.display(),
            repo.home.display()
        );
        let mut script = std::process::Command::new("script");
        script.args(["-qec", &line, "/dev/null"]);
        script.env_remove("NO_COLOR");
        if let Some(value) = no_color {
            script.env("NO_COLOR", value);
        }
        let out = script.output().expect("script(1) runs");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
        text(&out.stdout)
    };
    let coloured = run(None);
    assert!(coloured.contains("\x1b[32mloads"), "{coloured:?}");
    let plain = run(Some("1"));
    assert!(plain.contains("loads"), "{plain:?}");
    assert!(!plain.contains('\x1b'), "{plain:?}");
    // An empty NO_COLOR says nothing (no-color.org).
    assert!(run(Some("")).contains('\x1b'));
}
