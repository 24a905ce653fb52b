//! `agentsmd structure FILE …` (SPEC.md §6, §7) as a shell user and a script see it: stdout
//! exactly the block, stderr one line per warning and unknown skill, exit codes 0, 1 and 2.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::Path;

use serde_json::{json, Value};

mod support;
use support::{agentsmd, assert_usage_error, base64, os_path, symlink, text, write};

const HEADING: &str = "# Repository Agent Instructions (AGENTS.md)";

/// A directory holding `AGENTS.md` with front matter, a section over 2048 bytes, an inline
/// skill and a skill file; `nope` is requested and defined nowhere.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("AGENTS.md"),
        format!(
            "---\nskills: [review, deploy, nope, review]\n---\nIntro.\n\n## Big\n\n{}\n\n\
             ## Build\n\nmake\n\n## Skill: review\n\nRead twice.\n",
            "x".repeat(3000)
        ),
    );
    write(&dir.path().join("skills/deploy.md"), "\nShip it.\n\n");
    dir
}

/// The warning line the project's block carries when `Big` is dropped, reading `location`.
fn big_dropped(location: &str) -> String {
    format!(
        "> ⚠️ AGENTS.md exceeded 2048 bytes; 1 section(s) omitted (3009 bytes): \"Big\" — read \
         {location} for the full instructions before you start."
    )
}

/// `prefix` and then what is not UTF-8 in an OS string: the byte `byte` on Unix; on Windows, where
/// an OS string is UTF-16, the lone surrogate U+DC00 + `byte` (as Python's `surrogateescape`
/// spells a byte), whose WTF-8 is no UTF-8 either (SPEC.md §8.2). Its bytes are
/// `as_encoded_bytes()`.
fn not_utf8(prefix: &str, byte: u8) -> OsString {
    #[cfg(unix)]
    return std::os::unix::ffi::OsStringExt::from_vec([prefix.as_bytes(), &[byte]].concat());
    #[cfg(windows)]
    return {
        let mut wide: Vec<u16> = prefix.encode_utf16().collect();
        wide.push(0xdc00 | u16::from(byte));
        std::os::windows::ffi::OsStringExt::from_wide(&wide)
    };
}

/// `bytes` as the command writes bytes that are not UTF-8 on stderr (SPEC.md §7): `\xHH` each.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\x{b:02x}")).collect()
}

fn json_of(stdout: &[u8]) -> Value {
    assert!(stdout.ends_with(b"}\n"), "{}", text(stdout));
    assert_eq!(stdout.iter().filter(|&&b| b == b'\n').count(), 1);
    serde_json::from_slice(stdout).unwrap()
}

#[test]
fn stdout_is_exactly_the_block_and_the_default_where_is_file_made_absolute_and_clean() {
    let dir = project();
    fs::create_dir(dir.path().join("sub")).unwrap();
    let out = agentsmd(
        dir.path(),
        &["structure", "./sub/../AGENTS.md", "--cap", "2048"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expected = format!(
        "{HEADING}\n\n{}\n\nIntro.\n\n## Build\n\nmake\n\n## Requested Skills\n\n\
         ### review\n\nRead twice.\n\n### deploy\n\nShip it.\n",
        big_dropped(&os_path(&dir.path().join("AGENTS.md")))
    );
    assert_eq!(text(&out.stdout), expected);
    assert_eq!(
        text(&out.stderr),
        "agentsmd: unknown skill \"nope\" (no section or skills/NAME.md defines it)\n"
    );
}

#[test]
fn heading_preamble_where_and_an_inline_value() {
    let dir = project();
    let out = agentsmd(
        dir.path(),
        &[
            "structure",
            "AGENTS.md",
            "--cap=2048",
            "--heading",
            "# Rules",
            "--preamble=Read on.",
            "--where",
            "the repository",
            "--no-skills",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!(
            "# Rules\n\nRead on.\n\n{}\n\nIntro.\n\n## Build\n\nmake\n",
            big_dropped("the repository")
        )
    );
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn an_empty_heading_is_kept_and_an_empty_preamble_is_none() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("AGENTS.md"), "Body.\n");
    let out = agentsmd(
        dir.path(),
        &["structure", "AGENTS.md", "--heading", "", "--preamble", ""],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "\n\nBody.\n");
}

#[test]
fn the_cap_defaults_to_8192_zero_too_and_is_raised_to_2048() {
    let dir = project();
    for cap in [None, Some("0")] {
        let mut args = vec!["structure", "AGENTS.md", "--no-skills"];
        args.extend(cap.iter().flat_map(|cap| ["--cap", cap]));
        let out = agentsmd(dir.path(), &args);
        assert_eq!(out.status.code(), Some(0), "{cap:?}");
        let block = text(&out.stdout);
        assert!(block.contains("## Big"), "{cap:?}: {block}");
        assert!(!block.contains("⚠️"), "{cap:?}: {block}");
    }
    let out = agentsmd(
        dir.path(),
        &["structure", "AGENTS.md", "--no-skills", "--cap", "5"],
    );
    assert!(text(&out.stdout).contains("exceeded 2048 bytes"));
    let out = agentsmd(
        dir.path(),
        &["structure", "AGENTS.md", "--no-skills", "--cap", "3000"],
    );
    assert!(text(&out.stdout).contains("exceeded 3000 bytes"));
}

#[test]
fn skill_gives_the_callers_list_in_order_and_no_skills_an_empty_one() {
    let dir = project();
    let out = agentsmd(
        dir.path(),
        &[
            "structure",
            "AGENTS.md",
            "--skill",
            "deploy",
            "--skill=review",
            "--skill",
            "deploy",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with(
        "make\n\n## Requested Skills\n\n### deploy\n\nShip it.\n\n### review\n\nRead twice.\n"
    ));
    let out = agentsmd(dir.path(), &["structure", "AGENTS.md", "--no-skills"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!text(&out.stdout).contains("Requested Skills"));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn json_prints_the_block_requested_skills_unknown_dropped_and_warnings_in_order() {
    let dir = project();
    let out = agentsmd(
        dir.path(),
        &[
            "structure",
            "AGENTS.md",
            "--json",
            "--cap",
            "1",
            "--where",
            "W",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The JSON says the unknown skill; stderr stays empty.
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let block = format!(
        "{HEADING}\n\n{}\n\nIntro.\n\n## Build\n\nmake\n\n## Requested Skills\n\n\
         ### review\n\nRead twice.\n\n### deploy\n\nShip it.\n",
        big_dropped("W")
    );
    let expected = json!({
        "block": block,
        "requested": ["review", "deploy", "nope"],
        "skills": [
            {"name": "review", "source": "inline"},
            {"name": "deploy", "source": "file"}
        ],
        "unknown": ["nope"],
        "dropped": [{"title": "Big", "bytes": 3009}],
        "warnings": []
    });
    assert_eq!(text(&out.stdout), format!("{expected}\n"));
    assert_eq!(json_of(&out.stdout), expected);
}

#[test]
fn json_dropped_titles_the_preamble_and_skills_as_the_spec_does() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("AGENTS.md"),
        format!(
            "{}\n## Skill: big\n{}\n",
            "p".repeat(2100),
            "s".repeat(2100)
        ),
    );
    let out = agentsmd(
        dir.path(),
        &["structure", "AGENTS.md", "--json", "--skill", "big"],
    );
    let object = json_of(&out.stdout);
    assert_eq!(
        object["skills"],
        json!([{"name": "big", "source": "inline"}])
    );
    assert_eq!(object["dropped"], json!([]));
    let out = agentsmd(
        dir.path(),
        &[
            "structure",
            "AGENTS.md",
            "--json",
            "--skill",
            "big",
            "--cap",
            "2048",
        ],
    );
    let object = json_of(&out.stdout);
    assert_eq!(
        object["dropped"],
        json!([
            {"title": "(preamble)", "bytes": 2101},
            {"title": "skill: big", "bytes": 2110}
        ])
    );
    assert!(object["block"]
        .as_str()
        .unwrap()
        .contains("the whole file was omitted (4211 bytes)"));
}

#[test]
fn json_is_lossless_a_title_or_name_that_is_not_utf8_is_base64_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let body = [
        b"## T\xff\n".as_slice(),
        "y".repeat(3000).as_bytes(),
        b"\n## ok\nz\xfe\n",
    ]
    .concat();
    write(&dir.path().join("AGENTS.md"), &body);
    let skill = not_utf8("n", 0xfd);
    let out = agentsmd(
        dir.path(),
        &[
            OsStr::new("structure"),
            OsStr::new("AGENTS.md"),
            OsStr::new("--json"),
            OsStr::new("--cap"),
            OsStr::new("2048"),
            OsStr::new("--skill"),
            &skill,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let object = json_of(&out.stdout);
    assert_eq!(
        object["dropped"],
        json!([{"title": {"bytes": base64(b"T\xff")}, "bytes": 3007}])
    );
    let skill = json!([{"bytes": base64(skill.as_encoded_bytes())}]);
    assert_eq!(object["requested"], skill);
    assert_eq!(object["unknown"], skill);
    let block = [
        format!(
            "{HEADING}\n\n> ⚠️ AGENTS.md exceeded 2048 bytes; 1 section(s) omitted (3007 bytes): \"T"
        )
        .as_bytes(),
        b"\xff",
        format!(
            "\" — read {} for the full instructions before you start.\n\n## ok\nz",
            os_path(&dir.path().join("AGENTS.md"))
        )
        .as_bytes(),
        b"\xfe\n",
    ]
    .concat();
    let raw = agentsmd(
        dir.path(),
        &["structure", "AGENTS.md", "--cap", "2048", "--no-skills"],
    );
    assert_eq!(raw.stdout, block);
    assert_eq!(object["block"], json!({"bytes": base64(&block)}));
}

#[test]
fn a_warning_is_one_line_on_stderr_and_its_display_in_json() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("AGENTS.md"),
        "---\nskills: [a\n---\nbody\n",
    );
    let out = agentsmd(dir.path(), &["structure", "AGENTS.md"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), format!("{HEADING}\n\nbody\n"));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("agentsmd: warning: line 1: front matter ignored: "),
        "{stderr}"
    );
    let out = agentsmd(dir.path(), &["structure", "AGENTS.md", "--json"]);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let object = json_of(&out.stdout);
    let warnings = object["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1);
    assert_eq!(
        format!("agentsmd: warning: {}\n", warnings[0].as_str().unwrap()),
        stderr
    );
}

#[test]
fn control_bytes_on_stderr_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("AGENTS.md"),
        "## Skill: a\x1bb\none\n## Skill: a\x1bb\ntwo\n",
    );
    let skill = not_utf8("x\ny", 0xff);
    let out = agentsmd(
        dir.path(),
        &[
            OsStr::new("structure"),
            OsStr::new("AGENTS.md"),
            OsStr::new("--skill"),
            &skill,
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    // The warning's `\` (the core's own escape) is `\\` on stderr, but on Windows, where a `\`
    // separates a path's elements, it is written as it is (SPEC.md §8.2).
    let backslash = if cfg!(windows) { "\\" } else { "\\\\" };
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: warning: line 3: skill \"a{backslash}u{{1b}}b\" is defined again (first at \
             line 1): the first stands\n\
             agentsmd: unknown skill \"x\\ny{}\" (no section or skills/NAME.md defines it)\n",
            hex(&skill.as_encoded_bytes()[3..])
        )
    );
}

#[test]
fn a_file_with_no_units_prints_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("AGENTS.md"), "---\n---\n\n");
    let out = agentsmd(dir.path(), &["structure", "AGENTS.md"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn file_must_be_a_regular_file_within_max_bytes_else_one_error_line_and_exit_1() {
    let dir = project();
    let size = fs::metadata(dir.path().join("AGENTS.md")).unwrap().len();
    let (at, over) = (size.to_string(), (size - 1).to_string());
    for args in [
        &["structure", "missing.md"][..],
        &["structure", "."],
        &["structure", "AGENTS.md", "--max-bytes", &over],
    ] {
        let out = agentsmd(dir.path(), args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.starts_with("agentsmd: error: "), "{stderr}");
        assert!(stderr.contains(&os_path(dir.path())), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(out.stdout.is_empty());
    }
    for max in [at.as_str(), "0"] {
        let out = agentsmd(dir.path(), &["structure", "AGENTS.md", "--max-bytes", max]);
        assert_eq!(out.status.code(), Some(0), "{max}: {}", text(&out.stderr));
    }
}

#[test]
fn a_skill_file_over_max_bytes_is_an_error_and_a_directory_is_no_skill() {
    let dir = project();
    write(&dir.path().join("skills/deploy.md"), "d".repeat(5000));
    let out = agentsmd(
        dir.path(),
        &["structure", "AGENTS.md", "--max-bytes", "4000"],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("agentsmd: error: "), "{stderr}");
    let skill_file = os_path(&dir.path().join("skills/deploy.md"));
    assert!(stderr.contains(&skill_file), "{stderr}");
    assert!(out.stdout.is_empty());
    fs::remove_file(dir.path().join("skills/deploy.md")).unwrap();
    fs::create_dir(dir.path().join("skills/deploy.md")).unwrap();
    let out = agentsmd(dir.path(), &["structure", "AGENTS.md", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json_of(&out.stdout)["unknown"], json!(["deploy", "nope"]));
}

/// SPEC.md §6.2 (decided): the skill files of one document are read while their total stays
/// within `--max-bytes`; past it they are not read: each name unknown, and one warning.
#[test]
fn skill_files_past_max_bytes_together_are_not_read_with_one_warning() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("AGENTS.md"),
        "---\nskills: [one, two, three]\n---\nbody\n",
    );
    for name in ["one", "two", "three"] {
        write(
            &dir.path().join(format!("skills/{name}.md")),
            "s".repeat(400),
        );
    }
    let args = ["structure", "AGENTS.md", "--max-bytes", "1000"];
    let out = agentsmd(dir.path(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "agentsmd: warning: skill files over 1000 bytes: 1 not read\n\
         agentsmd: unknown skill \"three\" (no section or skills/NAME.md defines it)\n"
    );
    let out = agentsmd(dir.path(), &[&args[..], &["--json"]].concat());
    let json = json_of(&out.stdout);
    assert_eq!(json["unknown"], json!(["three"]));
    assert_eq!(
        json["warnings"],
        json!(["skill files over 1000 bytes: 1 not read"])
    );
}

/// SPEC.md §7: `structure --confine FILE` where FILE is a link that leads out of root is an
/// error naming FILE, and nothing of what it leads to is printed.
#[test]
#[cfg_attr(windows, ignore = "no symbolic links under Wine: see support::symlink")]
fn confine_refuses_a_file_whose_link_leads_out_of_root() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("secret.md"), "API_KEY=hunter2\n");
    let repo = dir.path().join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    symlink("../secret.md", repo.join("AGENTS.md"), false);
    let root = os_path(&repo);
    for args in [
        &["structure", "AGENTS.md", "--confine"][..],
        &["structure", "AGENTS.md", "--confine", "--root", &root],
    ] {
        let out = agentsmd(&repo, args);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let stderr = text(&out.stderr);
        assert!(stderr.starts_with("agentsmd: error: "), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&os_path(&repo.join("AGENTS.md"))),
            "{stderr}"
        );
        assert!(!stderr.contains("hunter2"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn usage_errors_exit_2() {
    let dir = project();
    for args in [
        &["structure"][..],
        &["structure", "AGENTS.md", "--skill", "a", "--no-skills"],
        &["structure", "--no-skills", "AGENTS.md", "--skill=a"],
        &["structure", "AGENTS.md", "other.md"],
        &["structure", "AGENTS.md", "--cap", "lots"],
        &["structure", "AGENTS.md", "--cap", "-1"],
        &["structure", "AGENTS.md", "--cap"],
        &["structure", "AGENTS.md", "--max-bytes", "1k"],
        &["structure", "AGENTS.md", "--skill"],
        &["structure", "AGENTS.md", "--json=yes"],
        &["structure", "AGENTS.md", "--no-skills=1"],
        &["structure", "AGENTS.md", "--root", ""],
        &["structure", "AGENTS.md", "--confine=yes"],
        &["structure", "AGENTS.md", "--root", "/", "--confine"],
    ] {
        assert_usage_error(&agentsmd(dir.path(), args), &format!("{args:?}"));
    }
}

#[test]
fn a_file_after_double_dash_may_start_with_a_dash() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("-x.md"), "Dash.\n");
    let out = agentsmd(dir.path(), &["structure", "--", "-x.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{HEADING}\n\nDash.\n"));
}

#[test]
fn structure_is_a_subcommand_only_as_the_first_argument() {
    let dir = project();
    fs::create_dir(dir.path().join("structure")).unwrap();
    let root = os_path(dir.path());
    let out = agentsmd(dir.path(), &["--root", &root, "structure"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("<project_context>"));
    let out = agentsmd(dir.path(), &["./structure"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("<project_context>"));
}

#[test]
fn help_mentions_the_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["--help"][..], &["structure", "--help"]] {
        let out = agentsmd(dir.path(), args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let help = text(&out.stdout);
        assert!(
            help.contains("agentsmd structure FILE [--cap N] [--skill NAME]... [--no-skills]"),
            "{help}"
        );
        assert!(help.contains("--where TEXT"), "{help}");
    }
}

// The golden blocks, through the command line.

/// `agentsmd structure AGENTS.md ARGS…` in `testdata/golden/structure/CASE` against
/// `CASE/block.txt`, byte for byte, with nothing on stderr but the unknown skills.
fn golden(case: &str, args: &[&str], unknown: &[&str]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/golden/structure")
        .join(case);
    let mut all = vec!["structure", "AGENTS.md"];
    all.extend_from_slice(args);
    let out = agentsmd(&dir, &all);
    assert_eq!(out.status.code(), Some(0), "{case}: {}", text(&out.stderr));
    let expected = fs::read(dir.join("block.txt")).unwrap();
    assert_eq!(text(&out.stdout), text(&expected), "{case}");
    assert_eq!(out.stdout, expected, "{case}");
    let said: String = unknown
        .iter()
        .map(|name| {
            format!(
                "agentsmd: unknown skill \"{name}\" (no section or skills/NAME.md defines it)\n"
            )
        })
        .collect();
    assert_eq!(text(&out.stderr), said, "{case}");
}

const REPO: [&str; 2] = ["--where", "/repo/AGENTS.md"];

#[test]
fn golden_everything_fits() {
    golden("fits", &REPO, &[]);
}

#[test]
fn golden_a_large_section_dropped_and_a_later_small_one_kept() {
    golden(
        "dropped_then_kept",
        &[REPO[0], REPO[1], "--cap", "2048"],
        &[],
    );
}

#[test]
fn golden_the_whole_file_warning() {
    golden("whole_file", &[REPO[0], REPO[1], "--cap", "2048"], &[]);
}

#[test]
fn golden_skills_from_both_sources() {
    golden("skills_both_sources", &REPO, &["missing"]);
}

#[test]
fn golden_the_requested_skills_header() {
    golden(
        "requested_skills_header",
        &[
            REPO[0],
            REPO[1],
            "--cap",
            "2048",
            "--heading",
            "# Team rules",
            "--preamble",
            "Follow these.",
        ],
        &[],
    );
}

#[test]
fn golden_the_readme_example() {
    golden("readme", &["--cap", "2048", "--where", "AGENTS.md"], &[]);
}

/// SPEC.md §6.2, §7: `--root` and `--confine` are the chain's. Confined, a skill file whose link
/// leads out of root is not read: its name is unknown, with a warning naming the file; the
/// unconfined run follows the link, as the host trusts the repository then.
#[test]
#[cfg_attr(windows, ignore = "no symbolic links under Wine: see support::symlink")]
fn confine_keeps_a_skill_file_that_leads_out_of_root_out_of_the_block() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("secret"), "API_KEY=hunter2\n");
    let repo = dir.path().join("repo");
    write(&repo.join("AGENTS.md"), "---\nskills: [netrc]\n---\nbody\n");
    fs::create_dir(repo.join("skills")).unwrap();
    symlink("../../secret", repo.join("skills/netrc.md"), false);
    let root = os_path(&repo);

    let out = agentsmd(
        &repo,
        &["structure", "AGENTS.md", "--root", &root, "--confine"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stdout).contains("hunter2"));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "skill file {} escapes root",
            os_path(&repo.join("skills/netrc.md"))
        )),
        "{stderr}"
    );
    assert!(stderr.contains("unknown skill \"netrc\""), "{stderr}");

    let out = agentsmd(&repo, &["structure", "AGENTS.md", "--root", &root]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("hunter2"));

    // The default root is found as for the chain: here there is no .git, so it is / and
    // --confine is refused; FILE outside an explicit root is an error.
    let out = agentsmd(&repo, &["structure", "AGENTS.md", "--confine"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    fs::create_dir(repo.join(".git")).unwrap();
    let out = agentsmd(&repo, &["structure", "AGENTS.md", "--confine", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(json_of(&out.stdout)["unknown"], json!(["netrc"]));
    let elsewhere = os_path(&dir.path().join("repo/skills"));
    let out = agentsmd(&repo, &["structure", "AGENTS.md", "--root", &elsewhere]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("outside root"));
}

/// SPEC.md §8.2: FILE and root are compared element by element ignoring ASCII case, so FILE
/// lies in a root spelled in another case (Windows opens it all the same).
#[cfg(windows)]
#[test]
fn file_is_in_a_root_spelled_in_another_case() {
    let dir = project();
    let root = os_path(dir.path()).to_ascii_uppercase();
    for confine in [&[][..], &["--confine"]] {
        let args = [
            &["structure", "AGENTS.md", "--no-skills", "--root", &root][..],
            confine,
        ];
        let out = agentsmd(dir.path(), &args.concat());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("Intro."));
    }
}

/// SPEC.md §6.4 (issue 22 item 12): an empty `--where` is none, so the default WHERE stands.
#[test]
fn an_empty_where_is_none_and_the_default_stands() {
    let dir = project();
    let out = agentsmd(
        dir.path(),
        &["structure", "AGENTS.md", "--cap", "2048", "--where", ""],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let file = os_path(&dir.path().join("AGENTS.md"));
    assert!(text(&out.stdout).contains(&big_dropped(&file)));
}

/// SPEC.md §6.4 (pinned): front matter whose mapping repeats a key is not valid YAML: a
/// warning, and no names are requested; (decided) any mapping in it, a nested one included.
#[test]
fn front_matter_that_repeats_a_key_warns_and_requests_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("AGENTS.md"),
        "---\nskills: [a]\nskills: [b]\n---\n## Skill: a\nA\n## Skill: b\nB\n",
    );
    let out = agentsmd(dir.path(), &["structure", "AGENTS.md", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json = json_of(&out.stdout);
    assert_eq!(json["requested"], json!([]));
    assert_eq!(json["warnings"].as_array().unwrap().len(), 1);
    // (decided) Any mapping in it, a nested one included.
    write(
        &dir.path().join("AGENTS.md"),
        "---\nskills: [a]\nother: {k: 1, k: 2}\n---\n## Skill: a\nA\n",
    );
    let out = agentsmd(dir.path(), &["structure", "AGENTS.md", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json = json_of(&out.stdout);
    assert_eq!(json["requested"], json!([]));
    assert_eq!(json["warnings"].as_array().unwrap().len(), 1);
}

/// SPEC.md §6.3 (decided): a heading and preamble longer than the cap are an invalid argument,
/// one error line and exit 1.
#[test]
fn a_heading_longer_than_the_cap_is_an_error() {
    let dir = project();
    let heading = "h".repeat(2100);
    let out = agentsmd(
        dir.path(),
        &[
            "structure",
            "AGENTS.md",
            "--cap",
            "2048",
            "--heading",
            &heading,
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with("agentsmd: error: "));
    assert_eq!(text(&out.stderr).lines().count(), 1);
    assert!(out.stdout.is_empty());
}
