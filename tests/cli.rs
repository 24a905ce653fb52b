//! The `agentsmd` command as a shell user and a script see it: stdout, stderr and exit codes.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn agentsmd(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agentsmd"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("agentsmd runs")
}

fn write(path: &Path, content: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A repository with a .git directory, a file above it (outside the repository) and nested
/// instruction files.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("AGENTS.md"), "outside the repository\n");
    fs::create_dir_all(dir.path().join("repo/.git")).unwrap();
    write(&dir.path().join("repo/AGENTS.md"), "root rules\n");
    write(
        &dir.path().join("repo/svc/AGENTS.override.md"),
        "override\n",
    );
    write(&dir.path().join("repo/svc/AGENTS.md"), "svc rules\n");
    write(&dir.path().join("repo/svc/api/AGENTS.md"), "api & <x>");
    dir
}

#[test]
fn stdout_is_exactly_the_rendering_from_the_repository_root() {
    let dir = repository();
    let repo = dir.path().join("repo");
    let out = agentsmd(&repo.join("svc/api"), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expected = format!(
        "<project_context>\n\
         <project_instructions path=\"{r}/AGENTS.md\">\nroot rules\n</project_instructions>\n\
         <project_instructions path=\"{r}/svc/AGENTS.md\">\nsvc rules\n</project_instructions>\n\
         <project_instructions path=\"{r}/svc/api/AGENTS.md\">\napi & <x>\n</project_instructions>\n\
         </project_context>",
        r = repo.display()
    );
    assert_eq!(text(&out.stdout), expected);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn root_defaults_to_nearest_git_ancestor_also_when_git_is_a_file() {
    let dir = repository();
    let repo = dir.path().join("repo");
    fs::remove_dir(repo.join(".git")).unwrap();
    write(&repo.join(".git"), "gitdir: elsewhere\n");
    let out = agentsmd(&repo, &["svc/new-file.rs"]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("root rules"));
    assert!(stdout.contains("svc rules"));
    assert!(!stdout.contains("outside the repository"));
}

#[test]
fn explicit_root_widens_the_walk() {
    let dir = repository();
    let root = dir.path().to_str().unwrap();
    let out = agentsmd(&dir.path().join("repo"), &["--root", root]);
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("<project_context>\n<project_instructions"));
    assert!(stdout.find("outside the repository").unwrap() < stdout.find("root rules").unwrap());
}

#[test]
fn omitted_files_are_lines_on_stderr() {
    let dir = repository();
    let repo = dir.path().join("repo");
    let out = agentsmd(
        &repo,
        &[
            "svc/api",
            "--name",
            "AGENTS.override.md",
            "--name",
            "AGENTS.md",
            "--budget",
            "20",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let r = repo.display();
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: omitted {r}/svc/AGENTS.md (10 bytes): shadowed by {r}/svc/AGENTS.override.md\n\
             agentsmd: omitted {r}/svc/api/AGENTS.md (9 bytes): over budget\n"
        )
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("override\n") && !stdout.contains("api & <x>"));
}

#[test]
fn json_is_one_object_with_files_and_omitted() {
    let dir = repository();
    let repo = dir.path().join("repo");
    write(&repo.join("svc/api/AGENTS.md"), "api \"q\"\\\n\u{1}");
    let out = agentsmd(
        &repo,
        &[
            "svc/api",
            "--json",
            "--name=AGENTS.override.md",
            "--name=AGENTS.md",
            "--budget=20",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r = repo.display();
    assert_eq!(
        text(&out.stdout),
        format!(
            "{{\"part_id\":\"agentsmd\",\"files\":[\
             {{\"path\":\"{r}/AGENTS.md\",\"content\":\"root rules\\n\"}},\
             {{\"path\":\"{r}/svc/AGENTS.override.md\",\"content\":\"override\\n\"}}],\
             \"omitted\":[\
             {{\"path\":\"{r}/svc/AGENTS.md\",\"size\":10,\"reason\":\"shadowed\",\"by\":\"{r}/svc/AGENTS.override.md\"}},\
             {{\"path\":\"{r}/svc/api/AGENTS.md\",\"size\":10,\"reason\":\"over_budget\",\"by\":\"\"}}]}}\n"
        )
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn json_replaces_non_utf8_bytes() {
    let dir = repository();
    let repo = dir.path().join("repo");
    fs::write(repo.join("AGENTS.md"), b"caf\xe9 \"x\"\n").unwrap();
    let out = agentsmd(&repo, &["--json"]);
    assert!(text(&out.stdout).contains("\"content\":\"caf\u{FFFD} \\\"x\\\"\\n\""));
    // The rendering itself keeps the bytes as they are.
    let out = agentsmd(&repo, &[]);
    assert!(out.stdout.windows(4).any(|w| w == b"caf\xe9"));
}

#[test]
fn error_exits_1_with_one_line_naming_the_path() {
    let dir = repository();
    let repo = dir.path().join("repo");
    let out = agentsmd(&repo, &["svc/api", "--max-bytes", "5"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("agentsmd: error: "), "{stderr}");
    assert!(
        stderr.contains(&format!("{}/AGENTS.md", repo.display())),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
    assert!(out.stdout.is_empty());

    let out = agentsmd(&repo, &["--name", "a/b"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("a/b"));
}

#[test]
fn usage_errors_exit_2() {
    let dir = repository();
    for args in [
        &["--frobnicate"][..],
        &["--budget", "ten"],
        &["--budget", "-1"],
        &["--root"],
        &["a", "b"],
        &["--json=yes"],
    ] {
        let out = agentsmd(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).starts_with("agentsmd: usage error: "),
            "{args:?}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn help_documents_every_option() {
    let out = agentsmd(Path::new("."), &["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for option in [
        "PATH",
        "--root",
        "--name",
        "--extra",
        "--max-bytes",
        "--budget",
        "--rendered-budget",
        "--confine",
        "--json",
        "exit status",
        ".git",
    ] {
        assert!(help.contains(option), "--help does not mention {option}");
    }
}

#[test]
fn extra_comes_first_and_no_file_renders_nothing() {
    let dir = repository();
    let empty = dir.path().join("empty");
    fs::create_dir_all(empty.join(".git")).unwrap();
    let out = agentsmd(&empty, &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());

    let extra = dir.path().join("AGENTS.md");
    let out = agentsmd(
        &dir.path().join("repo"),
        &[
            "--extra",
            extra.to_str().unwrap(),
            "--extra",
            "/no/such/file",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(stdout.find("outside the repository").unwrap() < stdout.find("root rules").unwrap());
}

#[test]
fn confine_flag_refuses_a_link_out_of_the_repository() {
    // repo/lib/AGENTS.md links to the file above the repository: followed by default, refused
    // with --confine, which says so on stderr and in JSON, and keeps the rest of the chain.
    let dir = repository();
    let repo = dir.path().join("repo");
    fs::create_dir_all(repo.join("lib")).unwrap();
    std::os::unix::fs::symlink("../../AGENTS.md", repo.join("lib/AGENTS.md")).unwrap();
    let out = agentsmd(&repo, &["lib/x.rs"]);
    assert!(text(&out.stdout).contains("outside the repository"));

    let out = agentsmd(&repo, &["lib/x.rs", "--confine"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("root rules") && !stdout.contains("outside the repository"));
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: omitted {}/lib/AGENTS.md (0 bytes): escapes root\n",
            repo.display()
        )
    );

    let out = agentsmd(&repo, &["lib/x.rs", "--confine", "--json"]);
    let json = text(&out.stdout);
    assert!(json.contains("\"size\":0,\"reason\":\"escapes\""), "{json}");
    assert!(!json.contains("outside the repository"));
    assert_eq!(
        agentsmd(&repo, &["--confine=yes"]).status.code(),
        Some(2),
        "--confine takes no value"
    );
}
