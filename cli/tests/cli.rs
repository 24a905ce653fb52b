//! The `agentsmd` command as a shell user and a script see it: stdout, stderr and exit codes.

use std::fs;
use std::path::Path;
use std::process::Stdio;

mod support;
use support::{agentsmd, assert_usage_error, command, json_path, os_path, symlink, text, write};

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
    let out = agentsmd(&repo.join("svc/api"), &[] as &[&str]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r = |relative: &str| os_path(&repo.join(relative));
    let expected = format!(
        "<project_context>\n\
         <project_instructions path=\"{}\">\nroot rules\n</project_instructions>\n\
         <project_instructions path=\"{}\">\nsvc rules\n</project_instructions>\n\
         <project_instructions path=\"{}\">\napi & <x>\n</project_instructions>\n\
         </project_context>",
        r("AGENTS.md"),
        r("svc/AGENTS.md"),
        r("svc/api/AGENTS.md"),
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
    let r = |relative: &str| os_path(&repo.join(relative));
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: omitted {} (10 bytes): shadowed by {}\n\
             agentsmd: omitted {} (9 bytes): over budget\n",
            r("svc/AGENTS.md"),
            r("svc/AGENTS.override.md"),
            r("svc/api/AGENTS.md"),
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
    let r = |relative: &str| json_path(&repo.join(relative));
    assert_eq!(
        text(&out.stdout),
        format!(
            "{{\"part_id\":\"agentsmd\",\"files\":[\
             {{\"path\":\"{root}\",\"content\":\"root rules\\n\",\"source\":\"chain\"}},\
             {{\"path\":\"{svc_override}\",\"content\":\"override\\n\",\"source\":\"chain\"}}],\
             \"omitted\":[\
             {{\"path\":\"{svc}\",\"size\":10,\"reason\":\"shadowed\",\"by\":\"{svc_override}\"}},\
             {{\"path\":\"{api}\",\"size\":10,\"reason\":\"over_budget\",\"by\":\"\"}}]}}\n",
            root = r("AGENTS.md"),
            svc_override = r("svc/AGENTS.override.md"),
            svc = r("svc/AGENTS.md"),
            api = r("svc/api/AGENTS.md"),
        )
    );
    assert!(out.stderr.is_empty());
}

// A name that is not UTF-8 is bytes only Unix has (Windows's names are UTF-16).
#[cfg(unix)]
#[test]
fn json_keeps_bytes_that_are_not_utf8_as_base64() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    use support::base64;
    // Two directories whose names differ only in a byte that is not UTF-8: lossy JSON made them
    // one "stable key".
    let dir = repository();
    let repo = dir.path().join("repo");
    fs::write(repo.join("AGENTS.md"), b"caf\xe9 \"x\"\n").unwrap();
    for name in [&b"d\xfe"[..], b"d\xff"] {
        let sub = repo.join(OsStr::from_bytes(name));
        write(&sub.join("AGENTS.md"), "sub\n");
    }
    let json = |path: &[u8]| -> serde_json::Value {
        let out = agentsmd(&repo, &[OsStr::from_bytes(path), OsStr::new("--json")]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("one JSON object")
    };
    let r = repo.display();
    let fe = json(b"d\xfe");
    let ff = json(b"d\xff");
    let encoded = |path: &[u8]| serde_json::json!({ "bytes": base64(path) });
    assert_eq!(fe["files"][0]["content"], encoded(b"caf\xe9 \"x\"\n"));
    assert_eq!(fe["files"][0]["path"], format!("{r}/AGENTS.md"));
    let path = [repo.as_os_str().as_bytes(), b"/d\xfe/AGENTS.md"].concat();
    assert_eq!(fe["files"][1]["path"], encoded(&path));
    assert_ne!(fe["files"][1]["path"], ff["files"][1]["path"]);
    assert_eq!(fe["files"][1]["content"], "sub\n");
    // The rendering itself keeps the bytes as they are.
    let out = agentsmd(&repo, &[] as &[&str]);
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
        stderr.contains(&os_path(&repo.join("AGENTS.md"))),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
    assert!(out.stdout.is_empty());
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
        &["--name", "a//b"],
        &["--name", ""],
        &["--name", ".."],
        &["--root", ""],
        &["--root="],
    ] {
        let out = agentsmd(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).starts_with("agentsmd: usage error: "),
            "{args:?}"
        );
        assert!(out.stdout.is_empty());
        assert_eq!(out.stderr.iter().filter(|&&b| b == b'\n').count(), 1);
    }
    let out = agentsmd(dir.path(), &["--name", "a//b"]);
    assert!(text(&out.stderr).contains("a//b"), "the name is named");
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
    let out = agentsmd(&empty, &[] as &[&str]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let e = empty.display();
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: no instruction file applies: looked for AGENTS.md from {e} down to {e}\n"
        )
    );

    let extra = dir.path().join("AGENTS.md");
    // `/no/such/file` is absolute on Unix; on Windows it is below the root of the current
    // directory's drive (SPEC.md §8.2).
    let missing = os_path(&dir.path().ancestors().last().unwrap().join("no/such/file"));
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
    assert_eq!(
        text(&out.stderr),
        format!("agentsmd: skipped {missing}: not found\n")
    );
}

#[test]
#[cfg_attr(windows, ignore = "no symbolic links under Wine: see support::symlink")]
fn an_extra_whose_link_loops_is_skipped_and_said_like_a_missing_one() {
    // SPEC.md §1: a link that loops leads nowhere, as a missing file does; §7: it is skipped
    // and said on stderr, with the same line.
    let dir = repository();
    let looping = dir.path().join("loop.md");
    symlink("loop.md", &looping, false);
    let out = agentsmd(
        &dir.path().join("repo"),
        &["--extra", looping.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("root rules"));
    assert_eq!(
        text(&out.stderr),
        format!("agentsmd: skipped {}: not found\n", looping.display())
    );
}

#[test]
#[cfg_attr(windows, ignore = "no symbolic links under Wine: see support::symlink")]
fn confine_flag_refuses_a_link_out_of_the_repository() {
    // repo/lib/AGENTS.md links to the file above the repository: followed by default, refused
    // with --confine, which says so on stderr and in JSON, and keeps the rest of the chain.
    let dir = repository();
    let repo = dir.path().join("repo");
    fs::create_dir_all(repo.join("lib")).unwrap();
    symlink("../../AGENTS.md", repo.join("lib/AGENTS.md"), false);
    let out = agentsmd(&repo, &["lib/x.rs"]);
    assert!(text(&out.stdout).contains("outside the repository"));

    let out = agentsmd(&repo, &["lib/x.rs", "--confine"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("root rules") && !stdout.contains("outside the repository"));
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: omitted {} (0 bytes): escapes root\n",
            os_path(&repo.join("lib/AGENTS.md"))
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

/// The write end of a pipe whose read end is closed, as `| head` leaves it once head is done.
fn closed_pipe() -> Stdio {
    let mut fds = [0; 2];
    // SAFETY: `pipe` writes two descriptors into the array; the read end is closed at once and
    // the write end is owned by the `File`.
    #[cfg(unix)]
    unsafe {
        use std::os::fd::FromRawFd;
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        libc::close(fds[0]);
        Stdio::from(fs::File::from_raw_fd(fds[1]))
    }
    // SAFETY: the C runtime's `_pipe` writes two descriptors into the array, not inherited by a
    // child spawned meanwhile; the read end is closed at once, and the write end's handle, valid
    // while its descriptor is open, is duplicated for the `File` before the descriptor is closed.
    #[cfg(windows)]
    unsafe {
        use std::os::windows::io::{BorrowedHandle, RawHandle};
        let mode = libc::O_BINARY | libc::O_NOINHERIT;
        assert_eq!(libc::pipe(fds.as_mut_ptr(), 4096, mode), 0);
        libc::close(fds[0]);
        let handle = BorrowedHandle::borrow_raw(libc::get_osfhandle(fds[1]) as RawHandle);
        let owned = handle.try_clone_to_owned().unwrap();
        libc::close(fds[1]);
        Stdio::from(fs::File::from(owned))
    }
}

#[test]
fn closed_stdout_or_stderr_ends_the_run_quietly() {
    // `agentsmd 2>&1 | head` once head has exited: stdout fails, and a report of that on the
    // same closed pipe must not panic (exit 101).
    let dir = repository();
    let repo = dir.path().join("repo");
    let args = [
        "svc/api",
        "--name",
        "AGENTS.override.md",
        "--name",
        "AGENTS.md",
    ];
    let status = command(&repo, &args)
        .stdout(closed_pipe())
        .stderr(closed_pipe())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1), "both closed");

    // stdout alone closed: the omitted line is written, and nothing about the closed pipe.
    let out = command(&repo, &args)
        .stdout(closed_pipe())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("agentsmd: omitted "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    // stderr alone closed: the rendering is written whole, and the run succeeds.
    let out = command(&repo, &args)
        .stderr(closed_pipe())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).ends_with("</project_context>"));

    // --help and a usage error too.
    for args in [&["--help"][..], &["--frobnicate"]] {
        let status = command(&repo, args)
            .stdout(closed_pipe())
            .stderr(closed_pipe())
            .status()
            .unwrap();
        assert_ne!(status.code(), Some(101), "{args:?}");
    }
}

// A Windows name cannot hold a control byte or a `\` (SPEC.md §8.2).
#[cfg(unix)]
#[test]
fn stderr_lines_escape_control_bytes_in_paths() {
    // A directory named to forge a line of its own, and to colour the terminal.
    let dir = repository();
    let repo = dir.path().join("repo");
    let forged = "x\nagentsmd: error: FORGED\x1b[31m\\";
    write(&repo.join(forged).join("AGENTS.override.md"), "o\n");
    write(&repo.join(forged).join("AGENTS.md"), "a\n");
    let args = [
        forged,
        "--name",
        "AGENTS.override.md",
        "--name",
        "AGENTS.md",
    ];
    let out = agentsmd(&repo, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let escaped = r"x\nagentsmd: error: FORGED\x1b[31m\\";
    let r = repo.display();
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: omitted {r}/{escaped}/AGENTS.md (2 bytes): shadowed by \
             {r}/{escaped}/AGENTS.override.md\n"
        )
    );
    // stdout is the exact rendering, the path's bytes as they are.
    assert!(text(&out.stdout).contains(&format!("{r}/{forged}/AGENTS.override.md")));

    // An error's line, too.
    let out = agentsmd(
        &repo,
        &[forged, "--name", "AGENTS.override.md", "--max-bytes", "1"],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(escaped) && !stderr.contains('\x1b'),
        "{stderr}"
    );
}

/// SPEC.md §7: an error line names the path on disk, its bytes that are not UTF-8 written
/// `\xHH`, never U+FFFD: two paths that differ there give two lines. The `PATH:LINE: ` prefix of
/// an import error too.
// A name that is not UTF-8 is bytes only Unix has (Windows's names are UTF-16).
#[cfg(unix)]
#[test]
fn error_lines_write_the_bytes_of_a_path_that_is_not_utf8_as_hex() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = repository();
    let repo = dir.path().join("repo");
    let r = repo.display();
    for (byte, hex) in [(0xff_u8, r"\xff"), (0xfe, r"\xfe")] {
        let bytes = [b'd', byte];
        let name = OsStr::from_bytes(&bytes);
        write(&repo.join(name).join("AGENTS.md"), [b'x'; 40]);
        let out = agentsmd(&repo, &[name, OsStr::new("--max-bytes"), OsStr::new("20")]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            text(&out.stderr),
            format!(
                "agentsmd: error: read {r}/d{hex}/AGENTS.md: file exceeds size limit of 20 bytes\n"
            )
        );

        write(&repo.join(name).join("AGENTS.md"), "@missing.md\n");
        let out = agentsmd(&repo, &[name, OsStr::new("--imports")]);
        assert_eq!(out.status.code(), Some(1));
        let stderr = text(&out.stderr);
        let prefix =
            format!("agentsmd: error: {r}/d{hex}/AGENTS.md:1: import {r}/d{hex}/missing.md");
        assert!(stderr.starts_with(&prefix), "{stderr}");
        assert!(!stderr.contains('\u{FFFD}'), "{stderr}");
        fs::remove_dir_all(repo.join(name)).unwrap();
    }
}

#[test]
#[cfg_attr(windows, ignore = "no symbolic links under Wine: see support::symlink")]
fn a_link_in_the_repository_never_chooses_the_root() {
    // repo/vendor and repo/home lead to another repository, by a relative and an absolute
    // link: the root stays repo, so that --confine reports the link rather than rendering
    // what is behind it.
    let dir = repository();
    let repo = dir.path().join("repo");
    let other = dir.path().join("other");
    fs::create_dir_all(other.join(".git")).unwrap();
    write(&other.join("AGENTS.md"), "other repository\n");
    symlink("../other", repo.join("vendor"), true);
    symlink(&other, repo.join("home"), true);
    for link in ["vendor", "home"] {
        let path = format!("{link}/x.c");
        let out = agentsmd(&repo, &[path.as_str(), "--confine"]);
        assert_eq!(out.status.code(), Some(0), "{link}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("root rules"), "{link}: {stdout}");
        assert!(!stdout.contains("other repository"), "{link}: {stdout}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "agentsmd: omitted {} (0 bytes): escapes root\n",
                os_path(&repo.join(link))
            )
        );
        // Unconfined the link is followed, from the same root.
        let stdout = text(&agentsmd(&repo, &[path.as_str()]).stdout);
        assert!(stdout.contains("root rules") && stdout.contains("other repository"));
    }
    // A link above every repository is followed as the directory it leads to: the way to
    // the repository from a linked home directory.
    let alias = dir.path().join("alias");
    symlink(dir.path(), &alias, true);
    let out = agentsmd(dir.path(), &["alias/repo/svc/x.c", "--confine"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&os_path(&alias.join("repo/AGENTS.md"))),
        "{stdout}"
    );
    assert!(!stdout.contains("outside the repository"));
}

/// SPEC.md §7 (decided): in a tree with no `.git` (an unpacked archive), a link inside it
/// chooses no root either: the search never follows a link that is the directory it would
/// pick, so `vendor/x.go` behind a link to a repository finds no repository, as `x.go` does
/// not, and `--confine` is refused for both.
#[test]
#[cfg_attr(windows, ignore = "no symbolic links under Wine: see support::symlink")]
fn a_link_in_a_tree_without_git_never_chooses_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let proj = dir.path().join("dl/proj");
    write(&proj.join("AGENTS.md"), "archive rules\n");
    let other = dir.path().join("other");
    fs::create_dir_all(other.join(".git")).unwrap();
    write(&other.join("AGENTS.md"), "other repository\n");
    symlink("../../other", proj.join("vendor"), true);
    for path in ["dl/proj/x.go", "dl/proj/vendor/x.go"] {
        let out = agentsmd(dir.path(), &[path, "--confine"]);
        assert_eq!(out.status.code(), Some(2), "{path}: {}", text(&out.stderr));
        assert!(out.stdout.is_empty(), "{path}: {}", text(&out.stdout));
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with("agentsmd: usage error: "),
            "{path}: {stderr}"
        );
    }
    // The repository behind the link is still found from inside it.
    let out = agentsmd(dir.path(), &["other/x.go", "--confine"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).matches("other repository").count(), 1);
}

#[test]
fn confine_with_the_root_slash_is_a_usage_error() {
    // No .git above the path (a downloaded archive): the root would be /, and a link to
    // ../../../etc/passwd would stay "inside".
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("AGENTS.md"), "x\n");
    for args in [
        &["--confine"][..],
        &["--confine", "--root", "/"],
        &["--confine", "--root=/.."],
    ] {
        let out = agentsmd(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with("agentsmd: usage error: ") && stderr.contains("--root"),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn an_explicit_root_that_does_not_exist_is_an_error_naming_it() {
    let dir = repository();
    // Before, a mistyped root walked nothing and printed nothing, with success.
    let missing = dir.path().join("repo").join("no-such-dir");
    let path = missing.join("x.rs");
    let out = agentsmd(
        &dir.path().join("repo"),
        &[path.to_str().unwrap(), "--root", missing.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("agentsmd: error: "), "{stderr}");
    assert!(stderr.contains(missing.to_str().unwrap()), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_path_or_root_over_4096_bytes_is_an_error_line_and_exit_1() {
    // SPEC.md §1 "Paths" (decided): the core refuses it before any I/O; the command says so on
    // one line, with or without --explain, for the path and for an explicit root alike.
    let dir = repository();
    let repo = dir.path().join("repo");
    let long = "d/".repeat(2_100) + "x";
    let deep_root = repo.join("d/".repeat(2_100));
    let deep_root = deep_root.to_str().unwrap();
    let cases: [&[&str]; 3] = [
        &[&long],
        &[&long, "--explain"],
        &[&long, "--root", deep_root],
    ];
    for args in cases {
        let out = agentsmd(&repo, args);
        let stderr = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            &stderr[..stderr.len().min(200)]
        );
        assert!(stderr.starts_with("agentsmd: error: "), "{stderr}");
        assert!(stderr.contains("4096"), "{stderr}");
        assert_eq!(stderr.lines().count(), 1);
        assert!(out.stdout.is_empty());
    }
}

/// SPEC.md §7 (decided, pinned): an invalid `--fragments`, an empty `--overlay`, and a number too
/// large for its option (over 2^64−1 bytes, over 2^32−1 for a count or depth) are usage errors.
#[test]
fn invalid_fragments_an_empty_overlay_and_numbers_too_large_are_usage_errors() {
    let dir = repository();
    let repo = dir.path().join("repo");
    for args in [
        &["--fragments", "../up"][..],
        &["--fragments", "a//b"],
        &["--fragments", ""],
        &["--overlay", ""],
        &["--max-bytes", "18446744073709551616"],
        &["--budget", "18446744073709551616"],
        &["--rendered-budget", "99999999999999999999"],
        &["--imports", "--import-depth", "4294967296"],
        &["--imports", "--max-imports", "4294967296"],
    ] {
        assert_usage_error(&agentsmd(&repo, args), &format!("{args:?}"));
    }
    // The largest values are taken.
    for args in [
        &["--max-bytes", "18446744073709551615"][..],
        &[
            "--imports",
            "--import-depth",
            "4294967295",
            "--max-imports",
            "4294967295",
        ],
    ] {
        let out = agentsmd(&repo, args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// SPEC.md §7 (decided, pinned): of several errors, the one reported is the first in the
/// result's order: the extras, then the walk, then the overlays.
#[test]
fn of_several_errors_the_first_in_the_results_order_is_reported() {
    let dir = repository();
    let repo = dir.path().join("repo");
    let r = |relative: &str| os_path(&repo.join(relative));
    fs::create_dir(repo.join("extra-dir")).unwrap();
    write(&repo.join("overlay-file"), "not a directory\n");
    let out = agentsmd(
        &repo,
        &[
            "svc",
            "--extra",
            "extra-dir",
            "--max-bytes",
            "3",
            "--overlay",
            "overlay-file",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: error: extra {}: not a regular file\n",
            r("extra-dir")
        )
    );
    let out = agentsmd(
        &repo,
        &["svc", "--max-bytes", "3", "--overlay", "overlay-file"],
    );
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: error: read {}: file exceeds size limit of 3 bytes\n",
            r("AGENTS.md")
        )
    );
    let out = agentsmd(&repo, &["svc", "--overlay", "overlay-file"]);
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: error: overlay {}: not a directory\n",
            r("overlay-file")
        )
    );
}
