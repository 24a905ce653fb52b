//! The flags of SPEC.md §5 through the command line (§7): `--fragments`, `--overlay`,
//! `--imports` with `--import-depth` and `--max-imports`, `--env`, `--nearest` and `--explain`,
//! their JSON and their stderr lines, byte for byte where the spec gives the bytes.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

mod support;
use support::{agentsmd, assert_usage_error, command, json_path, os_path, symlink, text, write};

/// A repository (`repo`, holding `.git`) in a temporary directory, and its path.
fn repository() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    (dir, repo)
}

/// Runs `agentsmd` in `repo`, expecting success.
fn ok(repo: &Path, args: &[impl AsRef<OsStr>]) -> Output {
    let out = agentsmd(repo, args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    out
}

/// The one `agentsmd: error: ` line of a failed run, which exits 1 and prints nothing.
fn error(repo: &Path, args: &[&str]) -> String {
    let out = agentsmd(repo, args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?}: {}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "{args:?}");
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("agentsmd: error: "), "{stderr}");
    stderr
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The rendering of `(path, content)` pairs, written out here so that the tests do not trust the
/// renderer they check.
fn rendering(files: &[(&Path, &str)]) -> String {
    let mut out = String::from("<project_context>\n");
    for (path, content) in files {
        let newline = if content.ends_with('\n') { "" } else { "\n" };
        out += &format!(
            "<project_instructions path=\"{}\">\n{content}{newline}</project_instructions>\n",
            os_path(path)
        );
    }
    out + "</project_context>"
}

#[test]
fn fragments_follow_each_directory_file_in_byte_order_of_name() {
    let (_dir, repo) = repository();
    write(&repo.join("AGENTS.md"), "root\n");
    let frags = repo.join(".agents/AGENTS.d");
    // Where the file system folds case (Windows), `b.md` and `B.md` are one file: `c.md`, which
    // sorts after `a.md` as well, stands for `b.md` there.
    let b = if cfg!(windows) { "c.md" } else { "b.md" };
    write(&frags.join(b), "b\n");
    write(&frags.join("B.md"), "B\n");
    write(&frags.join("a.md"), "a");
    write(&frags.join(".hidden.md"), "hidden\n");
    write(&frags.join("notes.txt"), "txt\n");
    write(&frags.join("sub/c.md"), "below\n");
    fs::create_dir_all(frags.join("dir.md")).unwrap();
    // No file of its own: its fragments still come, after the root's.
    write(&repo.join("svc/rules/z.md"), "svc z\n");
    let out = ok(
        &repo,
        &[
            "svc",
            "--fragments",
            ".agents/AGENTS.d",
            "--fragments=rules",
        ],
    );
    assert_eq!(
        text(&out.stdout),
        rendering(&[
            (&repo.join("AGENTS.md"), "root\n"),
            (&frags.join("B.md"), "B\n"),
            (&frags.join("a.md"), "a"),
            (&frags.join(b), "b\n"),
            (&repo.join("svc/rules/z.md"), "svc z\n"),
        ])
    );
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));

    let out = ok(&repo, &["svc", "--fragments", ".agents/AGENTS.d", "--json"]);
    let files = &json(&out)["files"];
    assert_eq!(files[0]["source"], "chain");
    assert_eq!(files[1]["source"], "fragment");
    assert_eq!(files[1]["path"], os_path(&frags.join("B.md")));
    assert_eq!(files.as_array().unwrap().len(), 4);
}

#[test]
fn fragments_are_bounded_like_any_file() {
    let (_dir, repo) = repository();
    write(&repo.join("AGENTS.md"), "root\n");
    write(&repo.join("d/one.md"), "one\n");
    write(&repo.join("d/two.md"), "two\n");
    let out = ok(&repo, &["--fragments", "d", "--budget", "9"]);
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: omitted {} (4 bytes): over budget\n",
            os_path(&repo.join("d/two.md"))
        )
    );
}

#[test]
fn an_invalid_fragment_directory_is_a_usage_error() {
    let (_dir, repo) = repository();
    for value in ["", "a//b", "../x", "a/./b", "/abs", "a/"] {
        let out = agentsmd(&repo, &["--fragments", value]);
        assert_usage_error(&out, &format!("{value:?}"));
    }
}

#[test]
#[cfg_attr(windows, ignore = "no symbolic links under Wine: see support::symlink")]
fn a_fragment_directory_that_leads_out_of_root_is_omitted_under_confine() {
    let (dir, repo) = repository();
    write(&repo.join("AGENTS.md"), "root\n");
    write(&dir.path().join("elsewhere/secret.md"), "secret\n");
    symlink("../elsewhere", repo.join("frags"), true);
    let out = ok(&repo, &["--fragments", "frags", "--confine"]);
    assert_eq!(
        text(&out.stdout),
        rendering(&[(&repo.join("AGENTS.md"), "root\n")])
    );
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: omitted {} (0 bytes): escapes root\n",
            os_path(&repo.join("frags"))
        )
    );
    // Unconfined, the link is the host's to follow.
    let out = ok(&repo, &["--fragments", "frags"]);
    assert!(text(&out.stdout).contains("secret\n"));
}

#[test]
fn overlays_come_after_the_walk_in_order_and_win() {
    let (dir, repo) = repository();
    write(&repo.join("AGENTS.md"), "root\n");
    let first = dir.path().join("users/ada/.agents");
    let second = dir.path().join("second");
    write(&first.join("AGENTS.override.md"), "ada override\n");
    write(&first.join("AGENTS.md"), "ada\n");
    write(&first.join("d/x.md"), "ada fragment\n");
    write(&second.join("AGENTS.md"), "second\n");
    let missing = dir.path().join("missing");
    let args = [
        OsStr::new("--name"),
        OsStr::new("AGENTS.override.md"),
        OsStr::new("--name"),
        OsStr::new("AGENTS.md"),
        OsStr::new("--fragments"),
        OsStr::new("d"),
        OsStr::new("--overlay"),
        first.as_os_str(),
        OsStr::new("--overlay"),
        missing.as_os_str(),
        OsStr::new("--overlay"),
        second.as_os_str(),
    ];
    let out = ok(&repo, &args);
    assert_eq!(
        text(&out.stdout),
        rendering(&[
            (&repo.join("AGENTS.md"), "root\n"),
            (&first.join("AGENTS.override.md"), "ada override\n"),
            (&first.join("d/x.md"), "ada fragment\n"),
            (&second.join("AGENTS.md"), "second\n"),
        ])
    );
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: omitted {} (4 bytes): shadowed by {}\n",
            os_path(&first.join("AGENTS.md")),
            os_path(&first.join("AGENTS.override.md")),
        )
    );
    let out = ok(&repo, &[&args[..], &[OsStr::new("--json")]].concat());
    let sources: Vec<_> = json(&out)["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file["source"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(sources, ["chain", "overlay", "overlay", "overlay"]);
}

#[test]
fn an_overlay_given_twice_is_rendered_once_and_then_omitted_as_a_duplicate_of_itself() {
    // SPEC.md §5.3: a top-level file whose path is already a file of the result is not read
    // again; `by` is its own path.
    let (dir, repo) = repository();
    write(&repo.join("AGENTS.md"), "root\n");
    let overlay = dir.path().join("o");
    write(&overlay.join("AGENTS.md"), "overlay\n");
    let args = [
        OsStr::new("--overlay"),
        overlay.as_os_str(),
        OsStr::new("--overlay"),
        overlay.as_os_str(),
    ];
    let out = ok(&repo, &args);
    assert_eq!(
        text(&out.stdout),
        rendering(&[
            (&repo.join("AGENTS.md"), "root\n"),
            (&overlay.join("AGENTS.md"), "overlay\n"),
        ])
    );
    let out = ok(&repo, &[&args[..], &[OsStr::new("--json")]].concat());
    let file = os_path(&overlay.join("AGENTS.md"));
    assert_eq!(
        json(&out)["omitted"],
        serde_json::json!([{"path": file, "size": 8, "reason": "duplicate", "by": file}])
    );
}

#[test]
fn an_overlay_that_is_not_a_directory_is_an_error() {
    let (_dir, repo) = repository();
    write(&repo.join("AGENTS.md"), "root\n");
    let stderr = error(&repo, &["--overlay", "AGENTS.md"]);
    assert!(
        stderr.contains(&os_path(&repo.join("AGENTS.md"))),
        "{stderr}"
    );
}

#[test]
fn imports_expand_whole_line_directives_outside_code_regions() {
    let (_dir, repo) = repository();
    write(
        &repo.join("AGENTS.md"),
        "top\n@include docs/style.md\r\nsee @docs/style.md inline\n@alice\n\
         ```\n@docs/fenced.md\n```\n<!--\n@docs/commented.md\n-->\n   @docs/last.md",
    );
    write(&repo.join("docs/style.md"), "Use tabs.");
    write(&repo.join("docs/last.md"), "last\n@inner.md\n");
    write(&repo.join("docs/inner.md"), "inner\n");
    let out = ok(&repo, &["--imports", "--json"]);
    let object = json(&out);
    assert_eq!(
        object["files"][0]["content"],
        "top\nUse tabs.\nsee @docs/style.md inline\n@alice\n\
         ```\n@docs/fenced.md\n```\n<!--\n@docs/commented.md\n-->\nlast\ninner\n"
    );
    let r = |relative: &str| json_path(&repo.join(relative));
    assert_eq!(
        object["imports"].to_string(),
        format!(
            "[{{\"path\":\"{style}\",\"by\":\"{top}\",\"line\":2,\"depth\":1,\"size\":9,\"duplicate\":false}},\
             {{\"path\":\"{last}\",\"by\":\"{top}\",\"line\":11,\"depth\":1,\"size\":15,\"duplicate\":false}},\
             {{\"path\":\"{inner}\",\"by\":\"{last}\",\"line\":2,\"depth\":2,\"size\":6,\"duplicate\":false}}]",
            style = r("docs/style.md"),
            top = r("AGENTS.md"),
            last = r("docs/last.md"),
            inner = r("docs/inner.md"),
        )
    );
    assert!(object.get("probes").is_none(), "probes only with --explain");

    // Off, the directives are text, and the JSON has no imports.
    let out = ok(
        &repo,
        &["--json", "--import-depth", "1", "--max-imports", "1"],
    );
    let object = json(&out);
    assert!(object["files"][0]["content"]
        .as_str()
        .unwrap()
        .contains("@include docs/style.md\r\n"));
    assert!(object.get("imports").is_none());
}

#[test]
fn import_depth_and_max_imports_change_nothing_without_imports() {
    let (_dir, repo) = repository();
    write(&repo.join("AGENTS.md"), "@a.md\n@b.md\n");
    write(&repo.join("a.md"), "@b.md\n");
    write(&repo.join("b.md"), "b\n");
    let plain = ok(&repo, &[] as &[&str]);
    let limited = ok(&repo, &["--import-depth", "1", "--max-imports", "1"]);
    assert_eq!(plain.stdout, limited.stdout);
    assert_eq!(plain.stderr, limited.stderr);
    // Zero is the default: 5 deep, 64 reads.
    ok(
        &repo,
        &["--imports", "--import-depth", "0", "--max-imports", "0"],
    );
}

#[test]
fn a_duplicate_import_expands_once_and_a_top_level_duplicate_is_omitted() {
    let (_dir, repo) = repository();
    write(&repo.join("AGENTS.md"), "@shared.md\n@svc/AGENTS.md\n");
    write(&repo.join("shared.md"), "shared\n");
    write(&repo.join("svc/AGENTS.md"), "svc\n@../shared.md\n");
    let out = ok(&repo, &["svc", "--imports"]);
    assert_eq!(
        text(&out.stdout),
        rendering(&[(&repo.join("AGENTS.md"), "shared\nsvc\n")])
    );
    let r = |relative: &str| os_path(&repo.join(relative));
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: omitted {} (18 bytes): duplicate, imported by {}\n",
            r("svc/AGENTS.md"),
            r("AGENTS.md")
        )
    );
    let object = json(&ok(&repo, &["svc", "--imports", "--json"]));
    let r = |relative: &str| json_path(&repo.join(relative));
    assert_eq!(
        object["omitted"].to_string(),
        format!(
            "[{{\"path\":\"{}\",\"size\":18,\"reason\":\"duplicate\",\"by\":\"{}\"}}]",
            r("svc/AGENTS.md"),
            r("AGENTS.md")
        )
    );
    assert_eq!(
        object["imports"][2].to_string(),
        format!(
            "{{\"path\":\"{}\",\"by\":\"{}\",\"line\":2,\"depth\":2,\"size\":0,\"duplicate\":true}}",
            r("shared.md"),
            r("svc/AGENTS.md")
        )
    );
}

#[test]
fn every_import_error_is_exit_1_naming_the_file_and_line() {
    let (dir, repo) = repository();
    write(&dir.path().join("outside.md"), "outside\n");
    write(&repo.join("docs/a.md"), "@b.md\n");
    write(&repo.join("docs/b.md"), "@a.md\n");
    write(&repo.join("docs/deep.md"), "@deeper.md\n");
    write(&repo.join("docs/deeper.md"), "deeper\n");
    write(&repo.join("docs/big.md"), "0123456789".repeat(4));
    // Where the tests make no links (Windows, see `symlink`) its case is left out.
    let linked = cfg!(unix);
    if linked {
        symlink("../../outside.md", repo.join("docs/out.md"), false);
    }
    let r = |relative: &str| os_path(&repo.join(relative));
    let top = format!("agentsmd: error: {}:2: ", r("AGENTS.md"));
    // A `\` on stderr is `\\`, but on Windows, where it separates a path's elements, it is
    // written as it is (SPEC.md §8.2).
    let backslash = if cfg!(windows) { "\\" } else { "\\\\" };
    let cases: &[(&str, &[&str], String)] = &[
        (
            "@include /etc/passwd",
            &[],
            top.clone() + "import /etc/passwd",
        ),
        ("@~/x.md", &[], top.clone() + "import ~/x.md"),
        ("@a\\b.md", &[], format!("{top}import a{backslash}b.md")),
        ("@c:x.md", &[], top.clone() + "import c:x.md"),
        ("@../outside.md", &[], top.clone() + "import "),
        ("@nope.md", &[], format!("{top}import {}", r("nope.md"))),
        ("@include docs", &[], format!("{top}import {}", r("docs"))),
        (
            "@docs/a.md",
            &[],
            format!(
                "agentsmd: error: {}:1: import {}",
                r("docs/b.md"),
                r("docs/a.md")
            ),
        ),
        (
            "@docs/deep.md",
            &["--import-depth", "1"],
            format!(
                "agentsmd: error: {}:1: import {}",
                r("docs/deep.md"),
                r("docs/deeper.md")
            ),
        ),
        (
            "@docs/deep.md",
            &["--max-imports", "1"],
            format!(
                "agentsmd: error: {}:1: import {}",
                r("docs/deep.md"),
                r("docs/deeper.md")
            ),
        ),
        (
            "@docs/out.md",
            &["--confine"],
            format!("{top}import {}", r("docs/out.md")),
        ),
        ("@docs/big.md", &["--max-bytes", "30"], top.clone()),
    ];
    for (directive, flags, starts) in cases {
        if *directive == "@docs/out.md" && !linked {
            continue;
        }
        write(&repo.join("AGENTS.md"), format!("top\n{directive}\n"));
        let args = [&["--imports"][..], flags].concat();
        let stderr = error(&repo, &args);
        assert!(stderr.starts_with(starts), "{directive}: {stderr}");
    }
    // The cycle names its files in order.
    write(&repo.join("AGENTS.md"), "top\n@docs/a.md\n");
    let stderr = error(&repo, &["--imports"]);
    assert!(
        stderr.contains(&format!(
            "{a} -> {} -> {a}",
            r("docs/b.md"),
            a = r("docs/a.md")
        )),
        "{stderr}"
    );
}

#[test]
fn env_values_replace_their_placeholders_and_nothing_else() {
    let (_dir, repo) = repository();
    write(
        &repo.join("AGENTS.md"),
        "${env:WHO} ${env:FROM_ENV} ${env:UNSET} ${env:EMPTY} ${HOME} ${env:SECRET}\n",
    );
    let run = |args: &[&str]| {
        let out = command(&repo, args)
            .env("FROM_ENV", "env value")
            .env("SECRET", "do not leak")
            .env_remove("UNSET")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        json(&out)["files"][0]["content"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(
        run(&[
            "--json",
            "--env",
            "WHO=ada",
            "--env=FROM_ENV",
            "--env",
            "UNSET",
            "--env",
            "EMPTY=",
            "--env",
            "WHO=ada=lovelace",
        ]),
        "ada=lovelace env value ${env:UNSET}  ${HOME} ${env:SECRET}\n"
    );
    // Without --env nothing is read from the environment.
    assert_eq!(
        run(&["--json"]),
        "${env:WHO} ${env:FROM_ENV} ${env:UNSET} ${env:EMPTY} ${HOME} ${env:SECRET}\n"
    );
}

#[test]
fn an_env_name_that_is_not_a_name_is_a_usage_error() {
    let (_dir, repo) = repository();
    for value in ["1X", "=v", "", "A-B=v", "A B", "É=v"] {
        let out = agentsmd(&repo, &["--env", value]);
        assert_eq!(out.status.code(), Some(2), "{value:?}");
        assert!(text(&out.stderr).starts_with("agentsmd: usage error: "));
    }
    assert_eq!(agentsmd(&repo, &["--env"]).status.code(), Some(2));
}

#[test]
fn env_values_count_against_the_bounds() {
    let (_dir, repo) = repository();
    write(&repo.join("AGENTS.md"), "${env:X}\n");
    let stderr = error(&repo, &["--env", "X=0123456789", "--max-bytes", "10"]);
    assert!(stderr.contains(&os_path(&repo.join("AGENTS.md"))));
}

#[test]
fn nearest_keeps_only_the_nearest_directory_file() {
    let (dir, repo) = repository();
    write(&repo.join("AGENTS.md"), "root\n");
    write(&repo.join("svc/AGENTS.md"), "svc\n");
    write(&repo.join("svc/d/f.md"), "fragment\n");
    write(&repo.join("svc/api/x.rs"), "");
    let extra = dir.path().join("global.md");
    write(&extra, "global\n");
    let out = ok(
        &repo,
        &[
            "svc/api/x.rs",
            "--nearest",
            "--fragments",
            "d",
            "--extra",
            extra.to_str().unwrap(),
        ],
    );
    assert_eq!(
        text(&out.stdout),
        rendering(&[
            (&extra, "global\n"),
            (&repo.join("svc/AGENTS.md"), "svc\n"),
            (&repo.join("svc/d/f.md"), "fragment\n"),
        ])
    );
    let r = |relative: &str| os_path(&repo.join(relative));
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: omitted {} (5 bytes): superseded by {}\n",
            r("AGENTS.md"),
            r("svc/AGENTS.md")
        )
    );
    let object = json(&ok(&repo, &["svc/api/x.rs", "--nearest", "--json"]));
    let r = |relative: &str| json_path(&repo.join(relative));
    assert_eq!(
        object["omitted"].to_string(),
        format!(
            "[{{\"path\":\"{}\",\"size\":5,\"reason\":\"superseded\",\"by\":\"{}\"}}]",
            r("AGENTS.md"),
            r("svc/AGENTS.md")
        )
    );
}

#[test]
fn explain_prints_every_probe_on_stderr_or_in_json() {
    let (dir, repo) = repository();
    write(&repo.join("AGENTS.md"), "@style.md\n");
    write(&repo.join("style.md"), "tabs\n");
    write(&repo.join("d/a.md"), "a\n");
    fs::create_dir_all(repo.join("svc")).unwrap();
    write(&repo.join("svc/d"), "a file, not a directory\n");
    let missing = dir.path().join("no-extra.md");
    let args = [
        "svc/x.rs",
        "--imports",
        "--fragments",
        "d",
        "--explain",
        "--extra",
        missing.to_str().unwrap(),
    ];
    let out = ok(&repo, &args);
    let r = |relative: &str| os_path(&repo.join(relative));
    let m = os_path(&missing);
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: skipped {m}: not found\n\
             agentsmd: probe {m} (extra): not_found\n\
             agentsmd: probe {} (chain): included\n\
             agentsmd: probe {} (chain): imported\n\
             agentsmd: probe {} (fragment): listed\n\
             agentsmd: probe {} (fragment): included\n\
             agentsmd: probe {} (chain): not_found\n\
             agentsmd: probe {} (fragment): not_a_file\n",
            r("AGENTS.md"),
            r("style.md"),
            r("d"),
            r("d/a.md"),
            r("svc/AGENTS.md"),
            r("svc/d"),
        )
    );
    let out = ok(&repo, &[&args[..], &["--json"]].concat());
    assert_eq!(
        text(&out.stderr),
        format!("agentsmd: skipped {m}: not found\n"),
        "with --json the probes are in the object only"
    );
    let object = json(&out);
    let keys: Vec<_> = object.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["part_id", "files", "omitted", "imports", "probes"]);
    assert_eq!(
        object["probes"][3].to_string(),
        format!(
            "{{\"path\":\"{}\",\"source\":\"fragment\",\"outcome\":\"listed\"}}",
            json_path(&repo.join("d"))
        )
    );
    assert_eq!(object["probes"].as_array().unwrap().len(), 7);
}

#[test]
fn explain_says_where_it_looked_when_nothing_applies() {
    let (_dir, repo) = repository();
    let out = ok(&repo, &["--explain"]);
    assert!(out.stdout.is_empty());
    let r = os_path(&repo);
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: probe {} (chain): not_found\n\
             agentsmd: no instruction file applies: looked for AGENTS.md from {r} down to {r}\n",
            os_path(&repo.join("AGENTS.md"))
        )
    );
}

// A name that is not UTF-8 is bytes only Unix has (Windows's names are UTF-16).
#[cfg(unix)]
#[test]
fn every_byte_string_of_the_json_is_lossless() {
    use std::os::unix::ffi::OsStrExt;
    use support::base64;
    let (_dir, repo) = repository();
    let name = OsStr::from_bytes(b"caf\xe9.md");
    write(&repo.join("AGENTS.md"), b"@d/caf\xe9.md\n");
    write(&repo.join("d").join(name), "x\n");
    let out = ok(
        &repo,
        &["--imports", "--explain", "--json", "--fragments", "d"],
    );
    let object = json(&out);
    let encoded = serde_json::json!({
        "bytes": base64(&[repo.as_os_str().as_bytes(), b"/d/caf\xe9.md"].concat())
    });
    assert_eq!(object["imports"][0]["path"], encoded);
    assert_eq!(object["probes"][1]["path"], encoded, "{object}");
    assert_eq!(object["probes"][3]["path"], encoded, "{object}");
    assert_eq!(object["omitted"][0]["path"], encoded);
    assert_eq!(object["omitted"][0]["reason"], "duplicate");
    assert_eq!(
        object["omitted"][0]["by"],
        format!("{}/AGENTS.md", repo.display())
    );
}

#[test]
fn composition_flags_take_no_value_or_a_valid_one() {
    let (_dir, repo) = repository();
    for args in [
        &["--imports=yes"][..],
        &["--nearest=1"],
        &["--explain=no"],
        &["--import-depth", "x"],
        &["--import-depth", "-1"],
        &["--max-imports", "4294967296"],
        &["--fragments"],
        &["--overlay"],
        &["--overlay", ""],
    ] {
        let out = agentsmd(&repo, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).starts_with("agentsmd: usage error: "));
    }
}

#[test]
fn help_documents_every_composition_flag() {
    let help = text(&ok(Path::new("."), &["--help"]).stdout);
    for flag in [
        "--fragments DIR",
        "--overlay DIR",
        "--imports",
        "--import-depth N",
        "--max-imports N",
        "--env NAME=VALUE",
        "--nearest",
        "--explain",
        "\"probes\"",
        "superseded by PATH",
        "duplicate, imported by PATH",
        "probe PATH (SOURCE): OUTCOME",
    ] {
        assert!(help.contains(flag), "--help does not mention {flag}");
    }
}
