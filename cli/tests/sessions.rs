//! `agentsmd PATH --touch P…` (SPEC.md §10, §11.1): a session's deltas, on stdout, stderr and
//! as JSON.

use std::fs;
use std::path::Path;

mod support;
use support::{agentsmd, assert_usage_error, os_path, text, write};

/// A repository (explicit root) with a file at each of three levels and a sibling.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("AGENTS.md"), "root\n");
    write(&dir.path().join("a/AGENTS.md"), "a\n");
    write(&dir.path().join("a/b/AGENTS.md"), "b\n");
    write(&dir.path().join("c/AGENTS.md"), "c\n");
    dir
}

fn rendering(files: &[(&Path, &str)]) -> String {
    let mut out = String::from("<project_context>\n");
    for (path, content) in files {
        let path = os_path(path);
        out +=
            &format!("<project_instructions path=\"{path}\">\n{content}</project_instructions>\n");
    }
    out + "</project_context>"
}

#[test]
fn s10_stdout_is_each_non_empty_deltas_rendering_each_after_the_first_after_a_newline() {
    let dir = repository();
    let root = dir.path();
    let root_arg = root.as_os_str().to_owned();
    let args = [
        "a".as_ref(),
        "--root".as_ref(),
        root_arg.as_os_str(),
        "--touch".as_ref(),
        "a/b/x.rs".as_ref(),
        "a/y.rs".as_ref(),
        "c".as_ref(),
    ];
    let out = agentsmd(root, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let first = rendering(&[
        (&root.join("AGENTS.md"), "root\n"),
        (&root.join("a/AGENTS.md"), "a\n"),
    ]);
    let second = rendering(&[(&root.join("a/b/AGENTS.md"), "b\n")]);
    let third = rendering(&[(&root.join("c/AGENTS.md"), "c\n")]);
    assert_eq!(text(&out.stdout), format!("{first}\n{second}\n{third}"));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    // `--touch P` repeated says the same.
    let repeated = [
        "a".as_ref(),
        "--root".as_ref(),
        root_arg.as_os_str(),
        "--touch".as_ref(),
        "a/b/x.rs".as_ref(),
        "--touch".as_ref(),
        "a/y.rs".as_ref(),
        "--touch".as_ref(),
        "c".as_ref(),
    ];
    assert_eq!(agentsmd(root, &repeated).stdout, out.stdout);
}

#[test]
fn s10_json_has_one_object_per_touch_each_shaped_as_a_result() {
    let dir = repository();
    let root = dir.path();
    let root_arg = root.as_os_str().to_owned();
    let args = [
        "a".as_ref(),
        "--root".as_ref(),
        root_arg.as_os_str(),
        "--json".as_ref(),
        "--touch".as_ref(),
        "a/./b/../b/x.rs".as_ref(),
        "a".as_ref(),
    ];
    let out = agentsmd(root, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["part_id"], "agentsmd");
    let touches = json["touches"].as_array().unwrap();
    assert_eq!(touches.len(), 3);
    let p = |rel: &str| os_path(&root.join(rel));
    assert_eq!(touches[0]["path"], p("a"));
    assert_eq!(touches[1]["path"], p("a/b/x.rs"), "absolute and clean");
    assert_eq!(touches[2]["path"], p("a"));
    assert_eq!(touches[0]["files"].as_array().unwrap().len(), 2);
    assert_eq!(touches[1]["files"][0]["path"], p("a/b/AGENTS.md"));
    assert_eq!(touches[1]["files"][0]["content"], "b\n");
    assert_eq!(touches[2]["files"], serde_json::json!([]));
    assert_eq!(touches[2]["omitted"], serde_json::json!([]));
    let keys: Vec<_> = touches[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["path", "files", "omitted"]);
}

#[test]
fn s10_stderr_has_each_deltas_lines_once() {
    let dir = repository();
    let root = dir.path();
    write(&root.join("CLAUDE.md"), "shadowed\n");
    let root_arg = root.as_os_str().to_owned();
    let args = [
        "a".as_ref(),
        "--root".as_ref(),
        root_arg.as_os_str(),
        "--name".as_ref(),
        "AGENTS.md".as_ref(),
        "--name".as_ref(),
        "CLAUDE.md".as_ref(),
        "--touch".as_ref(),
        "c".as_ref(),
    ];
    let out = agentsmd(root, &args);
    let shadowed = format!(
        "agentsmd: omitted {} (9 bytes): shadowed by {}\n",
        os_path(&root.join("CLAUDE.md")),
        os_path(&root.join("AGENTS.md"))
    );
    assert_eq!(text(&out.stderr), shadowed);
}

#[test]
fn s11_1_a_failing_touch_prints_its_error_alone() {
    let dir = repository();
    let root = dir.path();
    write(&root.join("c/AGENTS.md"), "far too large\n");
    let root_arg = root.as_os_str().to_owned();
    let args = [
        "a".as_ref(),
        "--root".as_ref(),
        root_arg.as_os_str(),
        "--max-bytes".as_ref(),
        "5".as_ref(),
        "--touch".as_ref(),
        "c".as_ref(),
    ];
    let out = agentsmd(root, &args);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("agentsmd: error: "), "{stderr}");
}

#[test]
fn s11_1_nearest_with_touch_is_a_usage_error() {
    let dir = repository();
    let out = agentsmd(dir.path(), &["--nearest", "--touch", "a"]);
    assert_usage_error(&out, "--nearest --touch");
}

#[test]
fn s11_1_a_first_touch_outside_an_explicit_root_is_an_empty_delta() {
    let dir = repository();
    let root = dir.path().join("a");
    let outside = dir.path().join("c");
    fs::create_dir_all(&outside).unwrap();
    let root_arg = root.as_os_str().to_owned();
    let outside_arg = outside.as_os_str().to_owned();
    let args = [
        outside_arg.as_os_str(),
        "--root".as_ref(),
        root_arg.as_os_str(),
        "--json".as_ref(),
        "--touch".as_ref(),
        root_arg.as_os_str(),
    ];
    let out = agentsmd(dir.path(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["touches"][0]["files"], serde_json::json!([]));
    assert_eq!(json["touches"][1]["files"][0]["content"], "a\n");
}
