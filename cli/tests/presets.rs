//! Presets (SPEC.md §12) through the command line: `--as NAME` prints exactly the piece the
//! product hands its model, `--as list` the presets, `--home DIR` the home the product's global
//! files are read in (no environment variable read then), an unknown preset is a usage error,
//! `--json` the usual object with the product's files and omissions, and stderr one line per
//! file the product drops or cuts.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Value};

mod support;
use support::{agentsmd, assert_usage_error, command, os_path, text, write};

/// A fresh temporary directory, with its links resolved (macOS's `/tmp`); on Windows as it is,
/// where resolving it would give a `\\?\` path no product prints.
fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::TempDir::new().unwrap();
    let path = match cfg!(windows) {
        true => dir.path().to_path_buf(),
        false => dir.path().canonicalize().unwrap(),
    };
    (dir, path)
}

fn ok(out: &Output) -> &Output {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        text(&out.stderr)
    );
    out
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&ok(out).stdout).expect("one JSON object")
}

fn p(path: &Path) -> String {
    os_path(path)
}

/// Codex's wrapper (openai/codex 0cf644af, agents_md_tests.rs): `# AGENTS.md instructions for
/// CWD\n\n<INSTRUCTIONS>\nTEXT\n</INSTRUCTIONS>`.
fn codex(cwd: &Path, inner: &str) -> String {
    format!(
        "# AGENTS.md instructions for {}\n\n<INSTRUCTIONS>\n{inner}\n</INSTRUCTIONS>",
        os_path(cwd)
    )
}

#[test]
fn s12_as_list_names_every_preset_one_a_line() {
    let (_dir, root) = temp();
    let out = agentsmd(&root, &["--as", "list"]);
    let stdout = text(&ok(&out).stdout);
    let names: Vec<&str> = stdout
        .lines()
        .map(|line| line.split('\t').next().unwrap())
        .collect();
    let every = [
        "codex", "opencode", "pi", "goose", "zed", "gemini", "claude", "cline", "roo", "cursor",
        "copilot", "windsurf", "amp",
    ];
    for name in every {
        assert!(names.contains(&name), "{name} missing from {stdout:?}");
    }
    assert!(stdout.ends_with('\n'));
    assert!(
        stdout
            .lines()
            .all(|line| line.split('\t').count() == 2 && !line.ends_with('\t')),
        "each line NAME<TAB>PRODUCT: {stdout:?}"
    );
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    // Each name listed is one `--as` takes.
    for name in names {
        ok(&agentsmd(&root, &["--as", name, "--home", &p(&root)]));
    }
}

#[test]
fn s12_an_unknown_preset_is_a_usage_error() {
    let (_dir, root) = temp();
    for name in ["nope", "Codex", "CODEX", "", "list2"] {
        let out = agentsmd(&root, &["--as", name]);
        assert_usage_error(&out, &format!("--as {name:?}"));
    }
    assert_usage_error(&agentsmd(&root, &["--as"]), "--as without a name");
    assert_usage_error(
        &agentsmd(&root, &["--as", "codex", "--home"]),
        "--home without a dir",
    );
}

#[test]
fn s12_as_codex_stdout_is_exactly_the_rendering() {
    let (_dir, root) = temp();
    let (_home_dir, home) = temp();
    std::fs::create_dir(root.join(".git")).unwrap();
    write(&root.join("AGENTS.md"), "root doc\n");
    write(&root.join("crate/AGENTS.md"), "crate doc");
    write(&home.join(".codex/AGENTS.md"), "  global doc\n");
    let cwd = root.join("crate");
    let expected = codex(
        &cwd,
        "global doc\n\n--- project-doc ---\n\nroot doc\n\n\ncrate doc",
    );
    // PATH given, and PATH the working directory.
    let out = agentsmd(
        &root,
        &[p(&cwd).as_str(), "--as", "codex", "--home", &p(&home)],
    );
    assert_eq!(text(&ok(&out).stdout), expected);
    let out = agentsmd(&cwd, &["--as", "codex", "--home", &p(&home)]);
    assert_eq!(text(&ok(&out).stdout), expected);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn s12_with_a_preset_nothing_loaded_prints_nothing_and_succeeds() {
    let (_dir, root) = temp();
    let (_home_dir, home) = temp();
    std::fs::create_dir(root.join(".git")).unwrap();
    for name in ["codex", "opencode", "goose", "zed"] {
        let out = agentsmd(&root, &["--as", name, "--home", &p(&home)]);
        assert!(
            ok(&out).stdout.is_empty(),
            "{name}: {:?}",
            text(&out.stdout)
        );
    }
}

#[test]
fn s12_json_with_a_preset_gives_the_products_files_and_omissions() {
    let (_dir, root) = temp();
    let (_home_dir, home) = temp();
    std::fs::create_dir(root.join(".git")).unwrap();
    // Codex (agents_md_paths): the first of AGENTS.override.md, AGENTS.md that is a regular file
    // stands for its directory, blank or not; read, a blank one is dropped (read_agents_md), and
    // the AGENTS.md it shadows is never read.
    let big = "a".repeat(32 * 1024 + 10);
    write(&root.join("AGENTS.md"), &big);
    write(&root.join("AGENTS.override.md"), "   ");
    write(&root.join("n/AGENTS.md"), "nested");
    write(&home.join(".codex/AGENTS.md"), "global\n");
    let cwd = root.join("n");
    let out = agentsmd(
        &root,
        &[
            p(&cwd).as_str(),
            "--as",
            "codex",
            "--home",
            &p(&home),
            "--json",
        ],
    );
    let object = json_of(&out);
    assert_eq!(
        object["files"],
        json!([
            {"path": p(&home.join(".codex/AGENTS.md")), "content": "global", "source": "extra"},
            {"path": p(&root.join("n/AGENTS.md")), "content": "nested", "source": "chain"},
        ])
    );
    let override_path = p(&root.join("AGENTS.override.md"));
    assert_eq!(
        object["omitted"],
        json!([
            {"path": p(&root.join("AGENTS.md")), "size": big.len(), "reason": "shadowed", "by": override_path},
            {"path": override_path, "size": 3, "reason": "empty", "by": ""},
        ])
    );
}

#[test]
fn s12_json_reports_truncated_over_budget_and_shadowed() {
    let (_dir, root) = temp();
    let (_home_dir, home) = temp();
    std::fs::create_dir(root.join(".git")).unwrap();
    let big = "a".repeat(32 * 1024 + 10);
    write(&root.join("AGENTS.md"), &big);
    write(&root.join("e/AGENTS.md"), "");
    write(&root.join("e/n/AGENTS.override.md"), "nested");
    write(&root.join("e/n/AGENTS.md"), "shadowed");
    write(&home.join(".codex/AGENTS.md"), "global\n");
    let cwd = root.join("e/n");
    let out = agentsmd(
        &root,
        &[
            p(&cwd).as_str(),
            "--as",
            "codex",
            "--home",
            &p(&home),
            "--json",
        ],
    );
    let object = json_of(&out);
    let cut = "a".repeat(32 * 1024);
    assert_eq!(
        object["files"],
        json!([
            {"path": p(&home.join(".codex/AGENTS.md")), "content": "global", "source": "extra"},
            {"path": p(&root.join("AGENTS.md")), "content": cut, "source": "chain"},
        ])
    );
    let mut omitted: Vec<(String, u64, String)> = object["omitted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let path = o["path"].as_str().unwrap().to_owned();
            (
                path,
                o["size"].as_u64().unwrap(),
                o["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    omitted.sort();
    let mut expected = vec![
        (p(&root.join("AGENTS.md")), 10, "truncated".to_owned()),
        // `if remaining == 0 { break; }`: never read, so not known to be empty.
        (p(&root.join("e/AGENTS.md")), 0, "over_budget".to_owned()),
        (p(&root.join("e/n/AGENTS.md")), 8, "shadowed".to_owned()),
        (
            p(&root.join("e/n/AGENTS.override.md")),
            6,
            "over_budget".to_owned(),
        ),
    ];
    expected.sort();
    assert_eq!(omitted, expected);
    // The shadowed file names the one that stands for it.
    let shadowed = object["omitted"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["reason"] == "shadowed")
        .unwrap();
    assert_eq!(
        shadowed["by"],
        json!(p(&root.join("e/n/AGENTS.override.md")))
    );
    // --json: nothing said of them on stderr.
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn s12_stderr_says_each_file_the_product_drops_or_cuts() {
    let (_dir, root) = temp();
    let (_home_dir, home) = temp();
    std::fs::create_dir(root.join(".git")).unwrap();
    let big = "a".repeat(32 * 1024 + 10);
    write(&root.join("AGENTS.md"), "  \n");
    write(&root.join("e/AGENTS.md"), &big);
    let out = agentsmd(
        &root,
        &[
            p(&root.join("e")).as_str(),
            "--as",
            "codex",
            "--home",
            &p(&home),
        ],
    );
    // Stdout is the rendering alone; the lines are on stderr.
    assert_eq!(
        text(&ok(&out).stdout),
        codex(&root.join("e"), &"a".repeat(32 * 1024))
    );
    let stderr = text(&out.stderr);
    let truncated = format!(
        "agentsmd: omitted {} (10 bytes): truncated\n",
        p(&root.join("e/AGENTS.md"))
    );
    let empty = format!(
        "agentsmd: omitted {} (3 bytes): empty\n",
        p(&root.join("AGENTS.md"))
    );
    assert!(stderr.contains(&truncated), "{stderr}");
    assert!(stderr.contains(&empty), "{stderr}");
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
}

#[test]
fn s12_home_is_read_and_no_environment_variable_with_it() {
    let (_dir, root) = temp();
    let (_home_dir, home) = temp();
    let (_decoy_dir, decoy) = temp();
    std::fs::create_dir(root.join(".git")).unwrap();
    write(&home.join(".codex/AGENTS.md"), "from --home");
    write(&home.join(".pi/agent/AGENTS.md"), "pi from --home");
    for rel in [
        "codex/AGENTS.md",
        "pi/AGENTS.md",
        "xdg/goose/.goosehints",
        "xdg/opencode/AGENTS.md",
        "oc/AGENTS.md",
        "home/.codex/AGENTS.md",
        "home/.config/goose/.goosehints",
        "home/.claude/CLAUDE.md",
    ] {
        write(&decoy.join(rel), "decoy");
    }
    let run = |args: &[&str]| {
        let mut command = command(&root, args);
        command
            .env("CODEX_HOME", decoy.join("codex"))
            .env("PI_CODING_AGENT_DIR", decoy.join("pi"))
            .env("XDG_CONFIG_HOME", decoy.join("xdg"))
            .env("OPENCODE_CONFIG_DIR", decoy.join("oc"))
            .env("HOME", decoy.join("home"))
            .env("USERPROFILE", decoy.join("home"));
        command.output().expect("agentsmd runs")
    };
    let home_arg = p(&home);
    let out = run(&["--as", "codex", "--home", &home_arg]);
    assert_eq!(text(&ok(&out).stdout), codex(&root, "from --home"));
    for name in ["opencode", "goose", "zed"] {
        let out = run(&["--as", name, "--home", &home_arg, "--json"]);
        let object = json_of(&out);
        assert_eq!(object["files"], json!([]), "{name}");
        assert!(!text(&out.stdout).contains("decoy"), "{name}");
    }
    // Without --home, each product's own variable.
    let out = run(&["--as", "codex"]);
    assert_eq!(text(&ok(&out).stdout), codex(&root, "decoy"));
    let object = json_of(&run(&["--as", "goose", "--json"]));
    assert_eq!(
        object["files"][0]["path"],
        json!(p(&decoy.join("xdg/goose/.goosehints")))
    );
    let object = json_of(&run(&["--as", "opencode", "--json"]));
    assert_eq!(
        object["files"][0]["path"],
        json!(p(&decoy.join("oc/AGENTS.md")))
    );
}

#[test]
fn s12_as_pi_goose_opencode_and_zed_print_their_pieces() {
    let (_dir, root) = temp();
    let (_home_dir, home) = temp();
    std::fs::create_dir(root.join(".git")).unwrap();
    write(&root.join("AGENTS.md"), "agents\n");
    write(&root.join(".goosehints"), "hints");
    write(&root.join(".rules"), "\r\nzed rules\r\n");
    let name = root.file_name().unwrap().to_str().unwrap();
    let zed = format!(
        "There are project rules that apply to these root directories:\n`{name}/.rules`:\n``````\nzed rules\n``````\n"
    );
    let out = agentsmd(&root, &["--as", "zed", "--home", &p(&home)]);
    assert_eq!(text(&ok(&out).stdout), zed);
    let goose = "### Project Hints\nThese are hints for working on the project in this directory.\nhints\nagents\n";
    let out = agentsmd(&root, &["--as", "goose", "--home", &p(&home)]);
    assert_eq!(text(&ok(&out).stdout), goose);
    let opencode = format!(
        "Instructions from: {}\nagents\n",
        p(&root.join("AGENTS.md"))
    );
    let out = agentsmd(&root, &["--as", "opencode", "--home", &p(&home)]);
    assert_eq!(text(&ok(&out).stdout), opencode);
    // pi walks to `/`: compared only where nothing above the tree holds a name of pi's.
    let above = root.ancestors().skip(1).any(|dir| {
        ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"]
            .iter()
            .any(|n| dir.join(n).exists())
    });
    if !above {
        let pi = format!(
            "\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n## {}\n\nagents\n\n\n",
            p(&root.join("AGENTS.md"))
        );
        let out = agentsmd(&root, &["--as", "pi", "--home", &p(&home)]);
        assert_eq!(text(&ok(&out).stdout), pi);
    }
}

#[test]
fn s12_root_is_the_products_project_root() {
    let (_dir, root) = temp();
    let (_home_dir, home) = temp();
    // No .git: Codex would read the working directory alone; --root makes the walk start there.
    write(&root.join("AGENTS.md"), "root");
    write(&root.join("a/AGENTS.md"), "a");
    let cwd = root.join("a");
    let out = agentsmd(
        &root,
        &[p(&cwd).as_str(), "--as", "codex", "--home", &p(&home)],
    );
    assert_eq!(text(&ok(&out).stdout), codex(&cwd, "a"));
    let args = [
        &p(&cwd),
        "--as",
        "codex",
        "--home",
        &p(&home),
        "--root",
        &p(&root),
    ];
    let out = agentsmd(&root, &args);
    assert_eq!(text(&ok(&out).stdout), codex(&cwd, "root\n\na"));
}

#[test]
fn s12_pi_agent_dir_variable_expands_a_leading_tilde() {
    let (_dir, root) = temp();
    let (_home_dir, home) = temp();
    std::fs::create_dir(root.join(".git")).unwrap();
    write(&home.join("agent-dir/AGENTS.md"), "pi global");
    // pi 0.73.1, dist/config.js getAgentDir: `if (envDir) return expandTildePath(envDir)`, and
    // expandTildePath: `if (path.startsWith("~/")) return homedir() + path.slice(1)`.
    let above = root.ancestors().skip(1).any(|dir| {
        ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"]
            .iter()
            .any(|n| dir.join(n).exists())
    });
    if above {
        eprintln!("skipped: a context file of pi's above {}", root.display());
        return;
    }
    let out = command(&root, &["--as", "pi", "--json"])
        .env("PI_CODING_AGENT_DIR", "~/agent-dir")
        .env("HOME", &home)
        .env("USERPROFILE", &home)
        .output()
        .expect("agentsmd runs");
    let object = json_of(&out);
    assert_eq!(
        object["files"],
        json!([{"path": p(&home.join("agent-dir/AGENTS.md")), "content": "pi global", "source": "extra"}])
    );
}

#[test]
fn s12_touch_with_a_preset_prints_the_start_then_what_each_read_adds() {
    let (_dir, root) = temp();
    std::fs::create_dir(root.join(".git")).unwrap();
    write(&root.join("GEMINI.md"), "root\n");
    write(&root.join("a").join("GEMINI.md"), "a\n");
    let a = root.join("a");
    let args = [
        "--as",
        "gemini",
        "--home",
        &p(&root),
        "--touch",
        &p(&a.join("x.rs")),
    ];
    let out = agentsmd(&root, &args);
    let (root_file, a_file) = (p(&root.join("GEMINI.md")), p(&a.join("GEMINI.md")));
    // Gemini CLI's start (its project context), then the block its read tool appends.
    let expected = format!(
        "\n<loaded_context>\n<project_context>\n--- Context from: {root_file} ---\nroot\n\
         --- End of Context from: {root_file} ---\n</project_context>\n</loaded_context>\
         \n\n--- Newly Discovered Project Context ---\n--- Context from: {a_file} ---\na\n\
         --- End of Context from: {a_file} ---\n--- End Project Context ---"
    );
    assert_eq!(text(&ok(&out).stdout), expected);
    // A closed product's session renders each delta as SPEC §2 does.
    let args = [
        "--as",
        "cursor",
        "--home",
        &p(&root),
        "--touch",
        &p(&a.join("x.rs")),
    ];
    write(&root.join("AGENTS.md"), "r\n");
    write(&a.join("AGENTS.md"), "a\n");
    let stdout = text(&ok(&agentsmd(&root, &args)).stdout);
    assert_eq!(stdout.matches("<project_context>").count(), 2, "{stdout}");
    // A product that loads its files when it starts prints its start, and a read adds nothing.
    let args = [
        "--as",
        "codex",
        "--home",
        &p(&root),
        "--touch",
        &p(&a.join("x.rs")),
    ];
    let alone = ["--as", "codex", "--home", &p(&root)];
    assert_eq!(
        text(&ok(&agentsmd(&root, &args)).stdout),
        text(&ok(&agentsmd(&root, &alone)).stdout)
    );
}
