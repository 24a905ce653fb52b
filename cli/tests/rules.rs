//! `--rules DIALECT:DIR` (SPEC.md §11, §11.1) through the command line: where each dialect's rule
//! directory is looked up, which of its files count, how their front matter reads, how their
//! globs match, where they come in the result, what `--explain`, `--json` and stderr say of them,
//! and how a session (`--touch`, §10) gives them.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Value};

mod support;
use support::{agentsmd, assert_usage_error, os_path, symlink, text, write};

/// A dialect of the table of §11: its name, the directory the tests keep its rules in, the
/// suffix the tests give its files, the front matter that makes one of its rules apply always,
/// and whether its rule directory is looked up in each directory of the walk (else in the root).
struct Dialect {
    name: &'static str,
    dir: &'static str,
    suffix: &'static str,
    always: &'static str,
    walk: bool,
}

const CLAUDE: Dialect = Dialect {
    name: "claude",
    dir: ".claude/rules",
    suffix: ".md",
    always: "",
    walk: false,
};
const CURSOR: Dialect = Dialect {
    name: "cursor",
    dir: ".cursor/rules",
    suffix: ".mdc",
    always: "---\nalwaysApply: true\n---\n",
    walk: true,
};
const COPILOT: Dialect = Dialect {
    name: "copilot",
    dir: ".github/instructions",
    suffix: ".instructions.md",
    always: "---\napplyTo: \"**\"\n---\n",
    walk: false,
};
const WINDSURF: Dialect = Dialect {
    name: "windsurf",
    dir: ".windsurf/rules",
    suffix: ".md",
    always: "---\ntrigger: always_on\n---\n",
    walk: true,
};
const KIRO: Dialect = Dialect {
    name: "kiro",
    dir: ".kiro/steering",
    suffix: ".md",
    always: "---\ninclusion: always\n---\n",
    walk: false,
};
const CLINE: Dialect = Dialect {
    name: "cline",
    dir: ".clinerules",
    suffix: ".md",
    always: "",
    walk: false,
};
const DIALECTS: [&Dialect; 6] = [&CLAUDE, &CURSOR, &COPILOT, &WINDSURF, &KIRO, &CLINE];

impl Dialect {
    /// The `--rules` value.
    fn flag(&self) -> String {
        format!("{}:{}", self.name, self.dir)
    }

    /// The rule file `NAME` + the dialect's suffix, in the rule directory of `holder`.
    fn file(&self, holder: &Path, name: &str) -> PathBuf {
        holder.join(self.dir).join(format!("{name}{}", self.suffix))
    }

    /// A front matter that makes a rule apply when a touched path matches `pattern` alone, in
    /// the dialect's keys (a list where a string would be split at commas).
    fn glob(&self, pattern: &str) -> String {
        let quoted = format!("'{}'", pattern.replace('\'', "''"));
        let keys = match self.name {
            "claude" => format!("paths: {quoted}\n"),
            "cursor" => format!("globs:\n  - {quoted}\n"),
            "copilot" => format!("applyTo:\n  - {quoted}\n"),
            "windsurf" => format!("trigger: glob\nglobs:\n  - {quoted}\n"),
            "kiro" => format!("inclusion: fileMatch\nfileMatchPattern: {quoted}\n"),
            "cline" => format!("paths:\n  - {quoted}\n"),
            other => unreachable!("{other}"),
        };
        format!("---\n{keys}---\n")
    }
}

fn repository() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// `root` itself for `""`, else `root/relative`.
fn at(root: &Path, relative: &str) -> PathBuf {
    match relative {
        "" => root.to_path_buf(),
        _ => root.join(relative),
    }
}

/// How the command writes `root/relative`.
fn p(root: &Path, relative: &str) -> String {
    os_path(&at(root, relative))
}

/// The run of `agentsmd` at `root/path` (absolute) with `--root root` and `more`.
fn run(root: &Path, path: &str, more: &[&str]) -> Output {
    let mut args: Vec<OsString> = vec![
        at(root, path).into_os_string(),
        "--root".into(),
        root.as_os_str().to_owned(),
    ];
    args.extend(more.iter().map(OsString::from));
    agentsmd(root, &args)
}

/// [`run`], expecting success.
fn ok(root: &Path, path: &str, more: &[&str]) -> Output {
    let out = run(root, path, more);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{path} {more:?}: {}",
        text(&out.stderr)
    );
    out
}

/// The JSON object of a successful run with `--json`.
fn json_of(root: &Path, path: &str, more: &[&str]) -> Value {
    let out = ok(root, path, &[more, &["--json"]].concat());
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// A session's JSON: `path` touched first, then each of `touches` (all below `root`).
fn session(root: &Path, path: &str, touches: &[&str], more: &[&str]) -> Vec<Value> {
    let mut args: Vec<OsString> = vec![
        at(root, path).into_os_string(),
        "--root".into(),
        root.as_os_str().to_owned(),
        "--json".into(),
    ];
    args.extend(more.iter().map(OsString::from));
    args.push("--touch".into());
    args.extend(
        touches
            .iter()
            .map(|touched| at(root, touched).into_os_string()),
    );
    let out = agentsmd(root, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let object: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    object["touches"].as_array().expect("touches").clone()
}

/// The one `agentsmd: error: ` line of a run that fails (exit 1, nothing on stdout).
fn error(root: &Path, path: &str, more: &[&str]) -> String {
    let out = run(root, path, more);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{path} {more:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{path} {more:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("agentsmd: error: "), "{stderr}");
    stderr
}

fn strings(value: &Value, key: &str) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("an array: {value}"))
        .iter()
        .map(|item| {
            item[key]
                .as_str()
                .unwrap_or_else(|| panic!("{item}"))
                .to_owned()
        })
        .collect()
}

/// The contents of the files of `result` whose source is `rule`, in order.
fn rules(result: &Value) -> Vec<String> {
    result["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter(|file| file["source"] == "rule")
        .map(|file| file["content"].as_str().unwrap().to_owned())
        .collect()
}

/// The contents of every file of `result`, in order.
fn contents(result: &Value) -> Vec<String> {
    strings(&result["files"], "content")
}

/// The names of `result`'s `available`, in order.
fn available(result: &Value) -> Vec<String> {
    strings(&result["available"], "name")
}

fn warnings(result: &Value) -> Vec<String> {
    result["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .map(|warning| warning.as_str().unwrap().to_owned())
        .collect()
}

/// Asserts that `result` has exactly one warning, and that it names `file`.
fn assert_one_warning(result: &Value, file: &Path) {
    let warnings = warnings(result);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let prefix = format!("{}: ", os_path(file));
    assert!(warnings[0].starts_with(&prefix), "{warnings:?}");
    assert!(warnings[0].len() > prefix.len(), "{warnings:?}");
}

#[test]
fn s11_each_dialect_is_looked_up_in_the_root_or_in_each_directory_of_the_walk() {
    for dialect in DIALECTS {
        let dir = repository();
        let root = dir.path();
        write(
            &dialect.file(root, "r"),
            format!("{}root rule\n", dialect.always),
        );
        write(
            &dialect.file(&root.join("sub"), "r"),
            format!("{}sub rule\n", dialect.always),
        );
        let flag = dialect.flag();
        let result = json_of(root, "sub/x.txt", &["--rules", &flag]);
        let expected: &[&str] = match dialect.walk {
            true => &["root rule\n", "sub rule\n"],
            false => &["root rule\n"],
        };
        assert_eq!(rules(&result), expected, "{}", dialect.name);
        assert_eq!(
            result["files"][0],
            json!({"path": os_path(&dialect.file(root, "r")), "content": "root rule\n", "source": "rule"}),
            "{}",
            dialect.name
        );
        if dialect.walk {
            assert_eq!(
                result["files"][1]["path"],
                os_path(&dialect.file(&root.join("sub"), "r"))
            );
        }
        // Not in the walk at the root: only the root's rules.
        let result = json_of(root, "x.txt", &["--rules", &flag]);
        assert_eq!(rules(&result), ["root rule\n"], "{}", dialect.name);
        assert_eq!(warnings(&result), [] as [&str; 0], "{}", dialect.name);
    }
}

#[test]
fn s11_each_dialect_counts_the_files_of_its_suffixes() {
    let expected: [(&Dialect, &[&str]); 6] = [
        (&CLAUDE, &["a", "d"]),
        (&CURSOR, &["a", "b", "d"]),
        (&COPILOT, &["d"]),
        (&WINDSURF, &["a", "d"]),
        (&KIRO, &["a", "d"]),
        (&CLINE, &["a", "c", "d"]),
    ];
    for (dialect, counted) in expected {
        let dir = repository();
        let root = dir.path();
        let rules_dir = root.join(dialect.dir);
        for (letter, file) in [
            ("a", "a.md"),
            ("b", "b.mdc"),
            ("c", "c.txt"),
            ("d", "d.instructions.md"),
            ("e", "e.markdown"),
            ("f", "f.MD"),
            ("g", "g.md.bak"),
            ("h", ".instructions.md"),
        ] {
            write(
                &rules_dir.join(file),
                format!("{}{letter}\n", dialect.always),
            );
        }
        let result = json_of(root, "x.txt", &["--rules", &dialect.flag()]);
        let counted: Vec<String> = counted.iter().map(|letter| format!("{letter}\n")).collect();
        assert_eq!(rules(&result), counted, "{}", dialect.name);
    }
}

#[test]
fn s11_claude_applies_always_without_paths_and_by_its_paths_anchored_at_the_root() {
    let dir = repository();
    let root = dir.path();
    let rules_dir = root.join(".claude/rules");
    write(&rules_dir.join("1-none.md"), "none\n");
    write(
        &rules_dir.join("2-description.md"),
        "---\ndescription: only a description\n---\ndescription\n",
    );
    write(
        &rules_dir.join("3-glob.md"),
        "---\npaths: \"src/**/*.go\"\n---\nglob\n",
    );
    write(
        &rules_dir.join("4-list.md"),
        "---\npaths:\n  - \"a/*.rs\"\n  - \"b/*.rs\"\n---\nlist\n",
    );
    write(
        &rules_dir.join("5-empty.md"),
        "---\npaths: \"\"\n---\nempty\n",
    );
    write(
        &rules_dir.join("6-nothing.md"),
        "---\npaths: []\n---\nnothing\n",
    );
    write(
        &rules_dir.join("7-comma.md"),
        "---\npaths: \"c.rs,d.rs\"\n---\none pattern\n",
    );
    let flag = CLAUDE.flag();
    let cases: [(&str, &[&str]); 6] = [
        ("src/x/y.go", &["glob\n"]),
        ("src/y.go", &["glob\n"]),
        ("b/z.rs", &["list\n"]),
        ("sub/src/a.go", &[]),
        ("d.rs", &[]),
        ("c.rs,d.rs", &["one pattern\n"]),
    ];
    for (path, matched) in cases {
        let result = json_of(root, path, &["--rules", &flag]);
        let expected: Vec<&str> = ["none\n", "description\n"]
            .into_iter()
            .chain(matched.iter().copied())
            .collect();
        assert_eq!(rules(&result), expected, "{path}");
        assert_eq!(
            available(&result),
            [] as [&str; 0],
            "claude has no on request"
        );
        assert_eq!(warnings(&result), [] as [&str; 0], "{path}");
    }
}

#[test]
fn s11_cursor_applies_always_by_globs_or_on_request() {
    let dir = repository();
    let root = dir.path();
    let rules_dir = root.join(".cursor/rules");
    write(&rules_dir.join("a.mdc"), "---\nalwaysApply: true\n---\na\n");
    write(
        &rules_dir.join("b.mdc"),
        "---\nalwaysApply: True\nglobs: \"*.none\"\n---\nb\n",
    );
    write(&rules_dir.join("c.mdc"), "---\nalwaysApply: TRUE\n---\nc\n");
    write(
        &rules_dir.join("d.mdc"),
        "---\nglobs: [\"*.go\", \"*.mod\"]\nalwaysApply: false\n---\nd\n",
    );
    write(
        &rules_dir.join("e.mdc"),
        "---\nglobs: \"*.ts,*.tsx\"\n---\ne\n",
    );
    write(
        &rules_dir.join("f.mdc"),
        "---\ndescription: Apply to Go\n---\nf\n",
    );
    write(&rules_dir.join("g.md"), "g\n");
    write(&rules_dir.join("h.mdc"), "---\nglobs: \"\"\n---\nh\n");
    write(
        &rules_dir.join("i.mdc"),
        "---\nglobs: \"{a,b}.rs\"\n---\ni\n",
    );
    write(
        &rules_dir.join("j.mdc"),
        "---\ndescription: J\nalwaysApply: false\n---\nj\n",
    );
    write(&rules_dir.join("k.mdc"), "---\nglobs: []\n---\nk\n");
    write(
        &rules_dir.join("l.mdc"),
        "---\nglobs: \"[,x].rs,*.py\"\n---\nl\n",
    );
    let flag = CURSOR.flag();
    let cases: [(&str, &[&str]); 7] = [
        ("cmd/x.go", &["d\n"]),
        ("go.mod", &["d\n"]),
        ("web/x.tsx", &["e\n"]),
        ("deep/b.rs", &["i\n"]),
        ("q/x.rs", &["l\n"]),
        ("m.py", &["l\n"]),
        ("x.none", &[]),
    ];
    for (path, matched) in cases {
        let result = json_of(root, path, &["--rules", &flag]);
        let expected: Vec<&str> = ["a\n", "b\n", "c\n"]
            .into_iter()
            .chain(matched.iter().copied())
            .collect();
        assert_eq!(rules(&result), expected, "{path}");
        assert_eq!(available(&result), ["f", "g", "h", "j", "k"], "{path}");
        assert_eq!(warnings(&result), [] as [&str; 0], "{path}");
    }
    let result = json_of(root, "x.go", &["--rules", &flag]);
    let entry = |name: &str, file: &str, description: &str| json!({"path": os_path(&rules_dir.join(file)), "name": name, "description": description});
    assert_eq!(
        result["available"],
        json!([
            entry("f", "f.mdc", "Apply to Go"),
            entry("g", "g.md", ""),
            entry("h", "h.mdc", ""),
            entry("j", "j.mdc", "J"),
            entry("k", "k.mdc", ""),
        ])
    );
}

#[test]
fn s11_copilot_applies_always_only_for_a_whole_star_pattern_and_ignores_ascii_case() {
    let dir = repository();
    let root = dir.path();
    let rules_dir = root.join(".github/instructions");
    let rule = |name: &str, text: &str| write(&rules_dir.join(name), text);
    rule("a1.instructions.md", "---\napplyTo: \"**\"\n---\na1\n");
    rule("a2.instructions.md", "---\napplyTo: \"**/*\"\n---\na2\n");
    rule("a3.instructions.md", "---\napplyTo: \"*\"\n---\na3\n");
    rule("a4.instructions.md", "---\napplyTo: \" **/* \"\n---\na4\n");
    rule(
        "b.instructions.md",
        "---\napplyTo: \"src/**/*.ts,*.md\"\n---\nb\n",
    );
    rule("c.instructions.md", "---\napplyTo: \"**/*,x\"\n---\nc\n");
    rule("d.instructions.md", "---\napplyTo: \"**/*.GO\"\n---\nd\n");
    rule("m.instructions.md", "---\ndescription: Manual\n---\nm\n");
    rule("n.instructions.md", "---\napplyTo: \"\"\n---\nn\n");
    rule("plain.md", "---\napplyTo: \"**\"\n---\nplain\n");
    let flag = COPILOT.flag();
    let always = ["a1\n", "a2\n", "a3\n", "a4\n"];
    let cases: [(&str, &[&str]); 5] = [
        // The root itself: `**/*` matches no element, but a whole `**/*` is always.
        ("", &[]),
        ("src/a/b.ts", &["b\n", "c\n"]),
        ("docs/README.md", &["b\n", "c\n"]),
        ("cmd/X.go", &["c\n", "d\n"]),
        ("x", &["c\n"]),
    ];
    for (path, matched) in cases {
        let result = json_of(root, path, &["--rules", &flag]);
        let expected: Vec<&str> = always.into_iter().chain(matched.iter().copied()).collect();
        assert_eq!(rules(&result), expected, "{path:?}");
        assert_eq!(available(&result), ["m", "n"], "{path:?}");
        assert_eq!(warnings(&result), [] as [&str; 0], "{path:?}");
    }
    let result = json_of(root, "x", &["--rules", &flag]);
    assert_eq!(
        result["available"][0],
        json!({"path": os_path(&rules_dir.join("m.instructions.md")), "name": "m", "description": "Manual"})
    );
}

#[test]
fn s11_windsurf_applies_by_trigger() {
    let dir = repository();
    let root = dir.path();
    let rules_dir = root.join(".windsurf/rules");
    let rule = |name: &str, text: &str| write(&rules_dir.join(name), text);
    rule("a.md", "---\ntrigger: always_on\n---\na\n");
    rule("b.md", "---\ntrigger: glob\nglobs: \"*.go\"\n---\nb\n");
    rule(
        "c.md",
        "---\ntrigger: model_decision\ndescription: When writing SQL\n---\nc\n",
    );
    rule("d.md", "---\ntrigger: manual\n---\nd\n");
    rule("e.md", "---\ndescription: no trigger\n---\ne\n");
    rule("f.md", "---\ntrigger: glob\n---\nf\n");
    rule("g.md", "---\ntrigger: sometimes\n---\ng\n");
    rule(
        "h.md",
        "---\ntrigger: glob\nglobs: \"*.rs,*.toml\"\n---\nh\n",
    );
    rule("i.md", "i\n");
    let flag = WINDSURF.flag();
    for (path, matched) in [("x/y.go", "b\n"), ("Cargo.toml", "h\n"), ("a/b.rs", "h\n")] {
        let result = json_of(root, path, &["--rules", &flag]);
        // An unknown trigger makes the front matter unreadable: always, with a warning.
        let mut expected = vec!["a\n", matched, "g\n"];
        expected.sort();
        assert_eq!(rules(&result), expected, "{path}");
        assert_eq!(available(&result), ["c", "d", "e", "i"], "{path}");
        assert_one_warning(&result, &rules_dir.join("g.md"));
    }
    let result = json_of(root, "x.go", &["--rules", &flag]);
    let descriptions = strings(&result["available"], "description");
    assert_eq!(descriptions, ["When writing SQL", "", "no trigger", ""]);
}

#[test]
fn s11_kiro_applies_by_inclusion() {
    let dir = repository();
    let root = dir.path();
    let rules_dir = root.join(".kiro/steering");
    let rule = |name: &str, text: &str| write(&rules_dir.join(name), text);
    rule("a.md", "a\n");
    rule("b.md", "---\ninclusion: always\n---\nb\n");
    rule(
        "c.md",
        "---\ninclusion: fileMatch\nfileMatchPattern: \"*.tsx\"\n---\nc\n",
    );
    rule("d.md", "---\ninclusion: manual\n---\nd\n");
    rule(
        "e.md",
        "---\ninclusion: auto\ndescription: API design\n---\ne\n",
    );
    rule("f.md", "---\ninclusion: fileMatch\n---\nf\n");
    rule(
        "g.md",
        "---\ninclusion: fileMatch\nfileMatchPattern: \"x.rs,y.rs\"\n---\ng\n",
    );
    rule("h.md", "---\ninclusion: sometimes\n---\nh\n");
    rule("i.md", "---\ndescription: no inclusion\n---\ni\n");
    rule(
        "j.md",
        "---\ninclusion: fileMatch\nfileMatchPattern: [\"*.py\", \"*.pyi\"]\n---\nj\n",
    );
    let flag = KIRO.flag();
    let cases: [(&str, &[&str]); 4] = [
        ("ui/app.tsx", &["c\n"]),
        ("y.rs", &[]),
        ("x.rs,y.rs", &["g\n"]),
        ("lib/m.pyi", &["j\n"]),
    ];
    for (path, matched) in cases {
        let result = json_of(root, path, &["--rules", &flag]);
        let mut expected = vec!["a\n", "b\n", "h\n", "i\n"];
        expected.extend(matched.iter().copied());
        expected.sort();
        assert_eq!(rules(&result), expected, "{path}");
        assert_eq!(available(&result), ["d", "e"], "{path}");
        assert_one_warning(&result, &rules_dir.join("h.md"));
    }
    let result = json_of(root, "x", &["--rules", &flag]);
    assert_eq!(
        strings(&result["available"], "description"),
        ["", "API design"]
    );
}

#[test]
fn s11_cline_applies_always_without_paths_and_by_its_paths_anchored_at_the_root() {
    let dir = repository();
    let root = dir.path();
    let rules_dir = root.join(".clinerules");
    let rule = |name: &str, text: &str| write(&rules_dir.join(name), text);
    rule("a.md", "a\n");
    rule("b.txt", "---\npaths:\n  - \"src/*.rs\"\n---\nb\n");
    rule("c.md", "---\npaths: []\n---\nc\n");
    rule("d.md", "---\ndescription: only\n---\nd\n");
    rule("e.md", "---\npaths: \"lib/*.rs\"\n---\ne\n");
    let flag = CLINE.flag();
    let cases: [(&str, &[&str]); 4] = [
        ("src/x.rs", &["b\n"]),
        ("lib/x.rs", &["e\n"]),
        ("z/src/x.rs", &[]),
        ("", &[]),
    ];
    for (path, matched) in cases {
        let result = json_of(root, path, &["--rules", &flag]);
        let mut expected = vec!["a\n", "d\n"];
        expected.extend(matched.iter().copied());
        expected.sort();
        assert_eq!(rules(&result), expected, "{path:?}");
        assert_eq!(
            available(&result),
            [] as [&str; 0],
            "cline has no on request"
        );
        assert_eq!(warnings(&result), [] as [&str; 0]);
    }
}

#[test]
fn s11_1_files_are_read_eight_levels_deep_skipping_dot_files_in_byte_order_of_path() {
    let dir = repository();
    let root = dir.path();
    let rules_dir = root.join(".claude/rules");
    let deep8 = "l1/l2/l3/l4/l5/l6/l7/l8/deep.md";
    let deep9 = "l1/l2/l3/l4/l5/l6/l7/l8/l9/deeper.md";
    for relative in [
        "b.md",
        "a0.md",
        "a/b.md",
        "a.md",
        "a-x.md",
        ".sub/s.md",
        "dir.md/inner.md",
        deep8,
        deep9,
    ] {
        write(&rules_dir.join(relative), format!("{relative}\n"));
    }
    write(&rules_dir.join(".hidden.md"), ".hidden.md\n");
    write(&rules_dir.join("a/.hidden.md"), "a/.hidden.md\n");
    let result = json_of(root, "x", &["--rules", &CLAUDE.flag(), "--explain"]);
    // Byte order of the whole path below the rule directory (`-` < `.` < `/` < `0` < `a`), not
    // of a walk of the tree: `a.md` comes before `a/b.md`, which comes before `a0.md`; a
    // directory whose name begins with `.` or ends in the suffix is entered like any other.
    let expected: Vec<String> = [
        ".sub/s.md",
        "a-x.md",
        "a.md",
        "a/b.md",
        "a0.md",
        "b.md",
        "dir.md/inner.md",
        deep8,
    ]
    .iter()
    .map(|relative| format!("{relative}\n"))
    .collect();
    assert_eq!(rules(&result), expected);
    let paths = strings(&result["files"], "path");
    assert_eq!(paths[3], os_path(&rules_dir.join("a/b.md")));
    assert_eq!(paths[7], os_path(&rules_dir.join(deep8)));
    let probed = strings(&result["probes"], "path");
    assert!(
        !probed.iter().any(|path| path.ends_with(".hidden.md")),
        "{probed:?}"
    );
}

#[test]
#[cfg_attr(windows, ignore = "no symbolic links under Wine: see support::symlink")]
fn s11_1_links_to_files_are_followed_and_links_to_directories_are_not_entered() {
    let dir = repository();
    let root = dir.path();
    let rules_dir = root.join(".claude/rules");
    write(&rules_dir.join("real.md"), "real\n");
    write(&root.join("shared.md"), "shared\n");
    write(&root.join("other/z.md"), "not entered\n");
    symlink("../../shared.md", rules_dir.join("linked.md"), false);
    symlink("../../other", rules_dir.join("dirlink"), true);
    symlink("../../other", rules_dir.join("dirlink.md"), true);
    symlink("nowhere", rules_dir.join("dangling.md"), false);
    #[cfg(unix)]
    {
        let fifo = std::ffi::CString::new(
            rules_dir
                .join("fifo.md")
                .into_os_string()
                .into_encoded_bytes(),
        )
        .unwrap();
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    }
    let result = json_of(root, "x", &["--rules", &CLAUDE.flag(), "--explain"]);
    assert_eq!(rules(&result), ["shared\n", "real\n"]);
    let r = |name: &str| os_path(&rules_dir.join(name));
    let mut expected = vec![
        json!({"path": p(root, "AGENTS.md"), "source": "chain", "outcome": "not_found"}),
        json!({"path": p(root, ".claude/rules"), "source": "rule", "outcome": "listed"}),
        json!({"path": r("dangling.md"), "source": "rule", "outcome": "not_a_file"}),
        json!({"path": r("dirlink.md"), "source": "rule", "outcome": "not_a_file"}),
    ];
    if cfg!(unix) {
        expected.push(json!({"path": r("fifo.md"), "source": "rule", "outcome": "not_a_file"}));
    }
    expected.push(json!({"path": r("linked.md"), "source": "rule", "outcome": "included"}));
    expected.push(json!({"path": r("real.md"), "source": "rule", "outcome": "included"}));
    assert_eq!(result["probes"], Value::Array(expected));
}

#[test]
fn s11_a_rule_directory_that_is_a_regular_file_is_an_error_when_its_directory_is_looked_up() {
    let dir = repository();
    let root = dir.path();
    write(&root.join(".claude/rules"), "not a directory\n");
    let stderr = error(root, "x", &["--rules", &CLAUDE.flag()]);
    assert!(stderr.contains(&p(root, ".claude/rules")), "{stderr}");

    // A walk dialect's: only where the walk reaches it.
    let dir = repository();
    let root = dir.path();
    write(&root.join("sub/.cursor/rules"), "not a directory\n");
    ok(root, "x", &["--rules", &CURSOR.flag()]);
    let stderr = error(root, "sub/x", &["--rules", &CURSOR.flag()]);
    assert!(stderr.contains(&p(root, "sub/.cursor/rules")), "{stderr}");
    // In a session, at the touch that looks it up.
    let root_arg = root.as_os_str().to_owned();
    let touched = root.join("sub/x").into_os_string();
    let mut args: Vec<OsString> = vec![
        root_arg.clone(),
        "--root".into(),
        root_arg,
        "--rules".into(),
        CURSOR.flag().into(),
        "--touch".into(),
    ];
    args.push(root.join("y").into_os_string());
    let out = agentsmd(root, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    args.push(touched);
    let out = agentsmd(root, &args);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("agentsmd: error: "), "{stderr}");
    assert!(stderr.contains(&p(root, "sub/.cursor/rules")), "{stderr}");
}

#[test]
fn s11_1_a_missing_rule_directory_or_one_through_a_file_has_no_rules_and_is_no_error() {
    let dir = repository();
    let root = dir.path();
    write(&root.join("AGENTS.md"), "root\n");
    write(&root.join("f"), "a file\n");
    let result = json_of(
        root,
        "x",
        &[
            "--rules",
            "claude:missing",
            "--rules",
            "cline:f/rules",
            "--explain",
        ],
    );
    assert_eq!(contents(&result), ["root\n"]);
    assert_eq!(
        result["probes"][1],
        json!({"path": p(root, "missing"), "source": "rule", "outcome": "not_found"})
    );
    assert_eq!(result["probes"][2]["path"], p(root, "f/rules"));
    assert_eq!(result["probes"][2]["source"], "rule");
    assert_eq!(result["probes"].as_array().unwrap().len(), 3);
}

#[test]
#[cfg_attr(windows, ignore = "no symbolic links under Wine: see support::symlink")]
fn s11_1_a_rule_directory_that_dangles_or_loops_has_no_rules_and_one_leading_out_escapes() {
    let dir = repository();
    let root = dir.path().join("repo");
    write(&root.join("AGENTS.md"), "root\n");
    fs::create_dir_all(root.join(".claude")).unwrap();
    symlink("nowhere", root.join(".claude/rules"), true);
    symlink("loop", root.join("loop"), true);
    let result = json_of(
        &root,
        "x",
        &[
            "--rules",
            &CLAUDE.flag(),
            "--rules",
            "cline:loop",
            "--explain",
        ],
    );
    assert_eq!(contents(&result), ["root\n"]);
    assert_eq!(
        result["probes"],
        json!([
            {"path": p(&root, "AGENTS.md"), "source": "chain", "outcome": "included"},
            {"path": p(&root, ".claude/rules"), "source": "rule", "outcome": "not_a_file"},
            {"path": p(&root, "loop"), "source": "rule", "outcome": "not_a_file"},
        ])
    );

    write(&dir.path().join("elsewhere/secret.md"), "secret\n");
    symlink("../elsewhere", root.join(".clinerules"), true);
    let result = json_of(
        &root,
        "x",
        &["--rules", &CLINE.flag(), "--confine", "--explain"],
    );
    assert_eq!(contents(&result), ["root\n"]);
    assert_eq!(
        result["probes"][1],
        json!({"path": p(&root, ".clinerules"), "source": "rule", "outcome": "escapes"})
    );
    assert_eq!(result["probes"].as_array().unwrap().len(), 2);
    // Unconfined, the link is the host's to follow.
    let result = json_of(&root, "x", &["--rules", &CLINE.flag()]);
    assert_eq!(contents(&result), ["root\n", "secret\n"]);

    // A rule file whose link leads out of root is confined as §1's files are.
    write(&root.join(".claude/inside.md"), "inside\n");
    fs::remove_file(root.join(".claude/rules")).unwrap();
    fs::create_dir_all(root.join(".claude/rules")).unwrap();
    symlink("../inside.md", root.join(".claude/rules/in.md"), false);
    symlink(
        "../../../elsewhere/secret.md",
        root.join(".claude/rules/out.md"),
        false,
    );
    let result = json_of(
        &root,
        "x",
        &["--rules", &CLAUDE.flag(), "--confine", "--explain"],
    );
    assert_eq!(contents(&result), ["root\n", "inside\n"]);
    let out = p(&root, ".claude/rules/out.md");
    assert_eq!(result["omitted"][0]["path"], out);
    assert_eq!(result["omitted"][0]["reason"], "escapes");
    assert_eq!(
        result["probes"][3],
        json!({"path": out, "source": "rule", "outcome": "escapes"})
    );
    let result = json_of(&root, "x", &["--rules", &CLAUDE.flag()]);
    assert_eq!(contents(&result), ["root\n", "inside\n", "secret\n"]);
}

#[test]
fn s11_1_overlays_have_no_rules() {
    let dir = repository();
    let root = dir.path().join("repo");
    let overlay = dir.path().join("overlay");
    write(&root.join("AGENTS.md"), "root\n");
    write(&overlay.join("AGENTS.md"), "overlay\n");
    write(
        &CURSOR.file(&overlay, "o"),
        format!("{}overlay cursor\n", CURSOR.always),
    );
    write(
        &WINDSURF.file(&overlay, "o"),
        format!("{}overlay windsurf\n", WINDSURF.always),
    );
    let result = json_of(
        &root,
        "x",
        &[
            "--overlay",
            &os_path(&overlay),
            "--rules",
            &CURSOR.flag(),
            "--rules",
            &WINDSURF.flag(),
        ],
    );
    assert_eq!(contents(&result), ["root\n", "overlay\n"]);
    assert_eq!(result["available"], json!([]));
}

#[test]
fn s11_cursor_and_windsurf_front_matter_that_is_not_yaml_is_read_line_by_line() {
    let dir = repository();
    let root = dir.path();
    let cursor = root.join(".cursor/rules");
    let windsurf = root.join(".windsurf/rules");
    write(
        &cursor.join("go.mdc"),
        "---\ndescription: Go\nglobs: **/*.go\nalwaysApply: false\n---\ngo\n",
    );
    write(
        &cursor.join("web.mdc"),
        "---\nglobs: *.ts,*.tsx\n---\nweb\n",
    );
    // The value unquoted when wholly quoted; a line without `:` says nothing; no patterns.
    write(
        &cursor.join("pick.mdc"),
        "---\ndescription: \"Style: Go\"\njust text\nglobs:\nother: *undefined\n---\npick\n",
    );
    // A repeated key is read line by line too, without a warning: the last stands.
    write(
        &cursor.join("twice.mdc"),
        "---\nalwaysApply: false\nalwaysApply: true\n---\ntwice\n",
    );
    write(
        &windsurf.join("w.md"),
        "---\ntrigger: manual\nglobs: **/*.go\n trigger : glob\n---\nw\n",
    );
    let args = [
        "--rules",
        "cursor:.cursor/rules",
        "--rules",
        "windsurf:.windsurf/rules",
        "--explain",
    ];
    let result = json_of(root, "cmd/main.go", &args);
    assert_eq!(rules(&result), ["go\n", "twice\n", "w\n"]);
    assert_eq!(
        result["available"],
        json!([{"path": os_path(&cursor.join("pick.mdc")), "name": "pick", "description": "Style: Go"}])
    );
    assert_eq!(warnings(&result), [] as [&str; 0]);

    let result = json_of(root, "web/app.tsx", &args);
    assert_eq!(rules(&result), ["twice\n", "web\n"]);
    let outcome_of = |name: &Path| {
        let probes = result["probes"].as_array().unwrap();
        let probe = probes
            .iter()
            .find(|probe| probe["path"] == os_path(name))
            .unwrap_or_else(|| panic!("no probe of {}", name.display()));
        probe["outcome"].as_str().unwrap().to_owned()
    };
    assert_eq!(outcome_of(&cursor.join("go.mdc")), "not_matched");
    assert_eq!(outcome_of(&windsurf.join("w.md")), "not_matched");
    assert_eq!(outcome_of(&cursor.join("pick.mdc")), "available");
    assert_eq!(outcome_of(&cursor.join("web.mdc")), "included");
}

#[test]
fn s11_an_unreadable_front_matter_applies_always_with_a_warning() {
    let dir = repository();
    let root = dir.path();
    write(&root.join("AGENTS.md"), "root\n");
    let rules_dir = root.join(".claude/rules");
    // YAML reads `**/*.go` as an alias, and only Cursor and Windsurf are read line by line.
    let alias = rules_dir.join("alias.md");
    write(&alias, "---\npaths: **/*.go\n---\nalias\n");
    let args = ["--rules", "claude:.claude/rules"];
    let result = json_of(root, "x.txt", &args);
    assert_eq!(rules(&result), ["alias\n"]);
    assert_one_warning(&result, &alias);
    let out = ok(root, "x.txt", &args);
    let stderr = text(&out.stderr);
    let prefix = format!("agentsmd: warning: {}: ", os_path(&alias));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with(&prefix), "{stderr}");
    assert!(stderr.len() > prefix.len() + 1, "{stderr}");

    // Another shape of a key makes it unreadable too, in each dialect.
    let cases: [(&Dialect, &str); 6] = [
        (&CLAUDE, "paths: {a: 1}\n"),
        (&CURSOR, "globs: {a: 1}\n"),
        (&COPILOT, "applyTo: {a: 1}\n"),
        (&WINDSURF, "trigger: glob\nglobs: {a: 1}\n"),
        (&KIRO, "inclusion: fileMatch\nfileMatchPattern: {a: 1}\n"),
        (&CLINE, "paths: {a: 1}\n"),
    ];
    for (dialect, keys) in cases {
        let dir = repository();
        let root = dir.path();
        let file = dialect.file(root, "bad");
        write(&file, format!("---\n{keys}---\nbad\n"));
        let result = json_of(root, "x.txt", &["--rules", &dialect.flag()]);
        assert_eq!(rules(&result), ["bad\n"], "{}", dialect.name);
        assert_one_warning(&result, &file);
    }
}

#[test]
fn s11_1_an_unclosed_front_matter_is_none_with_a_warning_and_the_dialects_no_front_matter_row() {
    let text_of_rule = "---\npaths: \"nothing\"\nunclosed body\n";
    for dialect in DIALECTS {
        let dir = repository();
        let root = dir.path();
        let file = dialect.file(root, "u");
        write(&file, text_of_rule);
        let result = json_of(root, "x.txt", &["--rules", &dialect.flag()]);
        let applies = matches!(dialect.name, "claude" | "cline" | "kiro");
        match applies {
            true => {
                assert_eq!(rules(&result), [text_of_rule], "{}", dialect.name);
                assert_eq!(result["available"], json!([]), "{}", dialect.name);
            }
            false => {
                assert_eq!(rules(&result), [] as [&str; 0], "{}", dialect.name);
                assert_eq!(
                    result["available"],
                    json!([{"path": os_path(&file), "name": "u", "description": ""}]),
                    "{}",
                    dialect.name
                );
            }
        }
        assert_one_warning(&result, &file);
    }
}

#[test]
fn s11_1_a_rules_content_is_its_text_after_the_front_matter_verbatim() {
    let dir = repository();
    let root = dir.path();
    write(&root.join("AGENTS.md"), "${env:X}\n@other.md\n");
    write(&root.join("other.md"), "other\n");
    write(
        &root.join(".claude/rules/a.md"),
        "---\ndescription: d\n---\n\n  @other.md\n${env:X}\n\n",
    );
    write(&root.join(".claude/rules/b.md"), "@other.md\r\n${env:X}");
    let result = json_of(
        root,
        "x",
        &["--rules", &CLAUDE.flag(), "--imports", "--env", "X=1"],
    );
    assert_eq!(
        contents(&result),
        [
            "1\nother\n",
            "\n  @other.md\n${env:X}\n\n",
            "@other.md\r\n${env:X}"
        ]
    );
    let imports = result["imports"].as_array().unwrap();
    assert_eq!(imports.len(), 1, "only AGENTS.md's: {imports:?}");
    assert_eq!(imports[0]["by"], p(root, "AGENTS.md"));
}

/// Whether a rule of `dialect` whose one pattern is `pattern` applies at `root/touched`; fails
/// the test if the run warns (a valid pattern) or does not warn (`invalid`).
fn glob_matches(dialect: &Dialect, pattern: &str, touched: &str, invalid: bool) -> bool {
    let dir = repository();
    let root = dir.path();
    let file = dialect.file(root, "r");
    write(&file, format!("{}rule\n", dialect.glob(pattern)));
    let result = json_of(root, touched, &["--rules", &dialect.flag()]);
    let what = format!("{} {pattern:?} at {touched:?}", dialect.name);
    match invalid {
        true => {
            let warnings = warnings(&result);
            assert!(!warnings.is_empty(), "{what}: no warning");
            let prefix = format!("{}: ", os_path(&file));
            assert!(
                warnings.iter().all(|warning| warning.starts_with(&prefix)),
                "{what}: {warnings:?}"
            );
        }
        false => assert_eq!(warnings(&result), [] as [&str; 0], "{what}"),
    }
    assert_eq!(available(&result), [] as [&str; 0], "{what}: a glob rule");
    match rules(&result).as_slice() {
        [] => false,
        [content] if content == "rule\n" => true,
        other => panic!("{what}: {other:?}"),
    }
}

#[test]
fn s11_1_globs_match_as_the_spec_reads_them() {
    let cases: &[(&Dialect, &str, &str, bool)] = &[
        // The holder directory itself: `**` matches it, `*` and `**/*` do not.
        (&CLAUDE, "**", "", true),
        (&CLAUDE, "*", "", false),
        (&CLAUDE, "**/*", "", false),
        (&CLAUDE, "**", "a/b/c.rs", true),
        // `*` is any run but `/`; claude and cline anchored at the holder.
        (&CLAUDE, "*", "a.rs", true),
        (&CLAUDE, "*", "d/a.rs", false),
        (&CLAUDE, "*.rs", "d/a.rs", false),
        (&CLINE, "*.rs", "a.rs", true),
        (&CLINE, "*.rs", "d/a.rs", false),
        (&CLAUDE, "src/*.rs", "lib/src/a.rs", false),
        // `**` as a whole element: any number of elements, none included.
        (&CLAUDE, "**/*.rs", "a.rs", true),
        (&CLAUDE, "**/*.rs", "d/e/a.rs", true),
        (&CLAUDE, "src/**", "src", true),
        (&CLAUDE, "src/**", "src/a/b.rs", true),
        (&CLAUDE, "src/**/x.rs", "src/x.rs", true),
        (&CLAUDE, "src/**/x.rs", "src/a/b/x.rs", true),
        (&CLAUDE, "src/**/x.rs", "lib/x.rs", false),
        // Not a whole element, `**` is `*`.
        (&CLAUDE, "a**b.rs", "axyb.rs", true),
        (&CLAUDE, "a**b.rs", "ax/yb.rs", false),
        (&CLAUDE, "**.rs", "x.rs", true),
        (&CLAUDE, "**.rs", "a/b.rs", false),
        (&CLAUDE, "a/**b", "a/xb", true),
        (&CLAUDE, "a/**b", "a/x/b", false),
        // The touched path as cleaned.
        (&CLAUDE, "x.go", "d/../x.go", true),
        // A leading `/` anchors and is removed.
        (&CLAUDE, "/src/*.rs", "src/a.rs", true),
        (&CURSOR, "/*.rs", "a.rs", true),
        (&CURSOR, "/*.rs", "d/a.rs", false),
        (&COPILOT, "/*.rs", "d/a.rs", false),
        (&KIRO, "/d/*.rs", "x/d/a.rs", false),
        // `**/` put before the others' patterns: any depth.
        (&CURSOR, "*.rs", "d/e/a.rs", true),
        (&CURSOR, "src/*.rs", "lib/src/a.rs", true),
        (&CURSOR, "**/src/*.rs", "lib/src/a.rs", true),
        (&COPILOT, "*.rs", "d/e/a.rs", true),
        (&WINDSURF, "*.rs", "d/a.rs", true),
        (&KIRO, "*.rs", "d/a.rs", true),
        (&KIRO, "d/*.rs", "x/d/a.rs", true),
        // `?` is one character, never `/`.
        (&CLAUDE, "a?c.rs", "abc.rs", true),
        (&CLAUDE, "a?c.rs", "a/c.rs", false),
        (&CLAUDE, "a?c.rs", "ac.rs", false),
        (&CLAUDE, "?.rs", "é.rs", true),
        (&CLAUDE, "??.rs", "é.rs", false),
        // Classes: negated by `!` or `^`, `]` first is literal, ranges by code point.
        (&CLAUDE, "[abc].rs", "b.rs", true),
        (&CLAUDE, "[abc].rs", "d.rs", false),
        (&CLAUDE, "[!abc].rs", "b.rs", false),
        (&CLAUDE, "[!abc].rs", "d.rs", true),
        (&CLAUDE, "[^abc].rs", "a.rs", false),
        (&CLAUDE, "[^abc].rs", "d.rs", true),
        (&CLAUDE, "[]].rs", "].rs", true),
        (&CLAUDE, "[]a].rs", "a.rs", true),
        (&CLAUDE, "[!]].rs", "].rs", false),
        (&CLAUDE, "[!]].rs", "x.rs", true),
        (&CLAUDE, "[a-c].rs", "b.rs", true),
        (&CLAUDE, "[a-c].rs", "d.rs", false),
        (&CLAUDE, "[α-γ].rs", "β.rs", true),
        (&CLAUDE, "[α-γ].rs", "δ.rs", false),
        // Alternatives, nested.
        (&CLAUDE, "{a,b}.rs", "b.rs", true),
        (&CLAUDE, "{a,b}.rs", "c.rs", false),
        (&CLAUDE, "{a,b{c,d}}.rs", "a.rs", true),
        (&CLAUDE, "{a,b{c,d}}.rs", "bd.rs", true),
        (&CLAUDE, "{a,b{c,d}}.rs", "b.rs", false),
        (&CLAUDE, "{src,lib}/**/*.rs", "lib/a/b.rs", true),
        // Names beginning with `.` match like any other.
        (&CLAUDE, "*.rs", ".hidden.rs", true),
        (&CLAUDE, "**/*.rs", ".github/a.rs", true),
        (&CURSOR, "*", ".env", true),
        // Copilot folds ASCII case only; the others compare exactly.
        (&COPILOT, "*.RS", "d/a.rs", true),
        (&COPILOT, "SRC/**", "src/a.rs", true),
        (&COPILOT, "É.rs", "é.rs", false),
        (&CLAUDE, "*.RS", "a.rs", false),
        (&CURSOR, "*.RS", "a.rs", false),
        (&WINDSURF, "*.RS", "a.rs", false),
        (&KIRO, "*.RS", "a.rs", false),
        (&CLINE, "*.RS", "a.rs", false),
    ];
    for &(dialect, pattern, touched, expected) in cases {
        assert_eq!(
            glob_matches(dialect, pattern, touched, false),
            expected,
            "{} {pattern:?} at {touched:?}",
            dialect.name
        );
    }
    // A backslash is literal (no Windows name holds one).
    if cfg!(unix) {
        assert!(glob_matches(&CLAUDE, "a\\*.rs", "a\\b.rs", false));
        assert!(!glob_matches(&CLAUDE, "a\\*.rs", "a*.rs", false));
    }
}

#[test]
fn s11_1_an_invalid_glob_matches_nothing_with_a_warning() {
    let cases: &[(&Dialect, &str, &str)] = &[
        (&CLAUDE, "[abc", "[abc"),
        (&CLAUDE, "[abc", "a"),
        (&CLAUDE, "[]", "[]"),
        (&CLAUDE, "[!]", "[!]"),
        (&CLAUDE, "{a,b", "a"),
        (&CLAUDE, "{a,b", "{a,b"),
        (&CLAUDE, "a}b", "a}b"),
        (&CURSOR, "[abc", "x/a"),
        (&COPILOT, "{a,b", "a"),
        (&WINDSURF, "[!", "a"),
        (&KIRO, "x{", "x{"),
        (&CLINE, "[a", "a"),
    ];
    for &(dialect, pattern, touched) in cases {
        assert!(
            !glob_matches(dialect, pattern, touched, true),
            "{} {pattern:?} at {touched:?}",
            dialect.name
        );
    }
    // One invalid pattern of several: the others still match.
    let dir = repository();
    let root = dir.path();
    let file = CURSOR.file(root, "r");
    write(&file, "---\nglobs: [\"[abc\", \"*.rs\"]\n---\nrule\n");
    let result = json_of(root, "a.rs", &["--rules", &CURSOR.flag()]);
    assert_eq!(rules(&result), ["rule\n"]);
    assert_one_warning(&result, &file);
}

#[test]
fn s11_the_globs_of_a_walk_directorys_rules_are_relative_to_that_directory() {
    let dir = repository();
    let root = dir.path();
    let sub = root.join("sub");
    write(
        &CURSOR.file(&sub, "k"),
        "---\nglobs: \"/x.go\"\n---\ncursor\n",
    );
    write(
        &WINDSURF.file(&sub, "w"),
        "---\ntrigger: glob\nglobs: \"d/*.go\"\n---\nwindsurf\n",
    );
    write(
        &CLAUDE.file(root, "c"),
        "---\npaths: \"x.go\"\n---\nclaude\n",
    );
    let args = [
        "--rules",
        "claude:.claude/rules",
        "--rules",
        "cursor:.cursor/rules",
        "--rules",
        "windsurf:.windsurf/rules",
    ];
    let cases: [(&str, &[&str]); 5] = [
        ("sub/x.go", &["cursor\n"]),
        ("sub/d/x.go", &["windsurf\n"]),
        ("sub/e/d/y.go", &["windsurf\n"]),
        ("x.go", &["claude\n"]),
        ("d/x.go", &[]),
    ];
    for (path, expected) in cases {
        assert_eq!(rules(&json_of(root, path, &args)), expected, "{path}");
    }
}

#[test]
fn s11_a_directorys_rules_come_after_its_file_and_fragments_in_option_order() {
    let dir = repository();
    let root = dir.path();
    let sub = root.join("sub");
    write(&root.join("AGENTS.md"), "root\n");
    write(&root.join("frags/f.md"), "root fragment\n");
    write(&CLINE.file(root, "b"), "cline\n");
    write(&CLAUDE.file(root, "a"), "claude\n");
    write(
        &CURSOR.file(root, "c"),
        format!("{}root cursor\n", CURSOR.always),
    );
    write(&sub.join("AGENTS.md"), "sub\n");
    write(&sub.join("frags/g.md"), "sub fragment\n");
    write(
        &CURSOR.file(&sub, "d"),
        format!("{}sub cursor\n", CURSOR.always),
    );
    let result = json_of(
        root,
        "sub/x",
        &[
            "--fragments",
            "frags",
            "--rules",
            &CLINE.flag(),
            "--rules",
            &CURSOR.flag(),
            "--rules",
            &CLAUDE.flag(),
        ],
    );
    assert_eq!(
        contents(&result),
        [
            "root\n",
            "root fragment\n",
            "cline\n",
            "root cursor\n",
            "claude\n",
            "sub\n",
            "sub fragment\n",
            "sub cursor\n",
        ]
    );
    assert_eq!(
        strings(&result["files"], "source"),
        ["chain", "fragment", "rule", "rule", "rule", "chain", "fragment", "rule"]
    );
}

#[test]
fn s11_1_two_rule_directories_over_the_same_files_both_count() {
    let dir = repository();
    let root = dir.path();
    write(&root.join(".rules/a.md"), "a\n");
    let result = json_of(
        root,
        "x",
        &["--rules", "claude:.rules", "--rules", "cline:.rules"],
    );
    assert_eq!(rules(&result), ["a\n", "a\n"]);
    let paths = strings(&result["files"], "path");
    assert_eq!(paths, [p(root, ".rules/a.md"), p(root, ".rules/a.md")]);
}

#[test]
fn s11_1_explain_probes_each_rule_directory_and_its_files() {
    let dir = repository();
    let root = dir.path();
    write(&root.join("AGENTS.md"), "root\n");
    write(&CLAUDE.file(root, "a"), "a\n");
    write(&CLAUDE.file(root, "g"), "---\npaths: \"*.go\"\n---\ng\n");
    write(&CLAUDE.file(root, ".hidden"), "hidden\n");
    write(&root.join(".claude/rules/n.txt"), "txt\n");
    write(&COPILOT.file(root, "m"), "---\ndescription: M\n---\nm\n");
    write(&root.join(".github/instructions/x.md"), "x\n");
    fs::create_dir_all(root.join("sub")).unwrap();
    let args = [
        "--rules",
        "claude:.claude/rules",
        "--rules",
        "copilot:.github/instructions",
        "--rules",
        "cursor:.cursor/rules",
        "--explain",
    ];
    let result = json_of(root, "sub/x.rs", &args);
    let probe = |relative: &str, source: &str, outcome: &str| json!({"path": p(root, relative), "source": source, "outcome": outcome});
    let expected = json!([
        probe("AGENTS.md", "chain", "included"),
        probe(".claude/rules", "rule", "listed"),
        probe(".claude/rules/a.md", "rule", "included"),
        probe(".claude/rules/g.md", "rule", "not_matched"),
        probe(".github/instructions", "rule", "listed"),
        probe(
            ".github/instructions/m.instructions.md",
            "rule",
            "available"
        ),
        probe(".cursor/rules", "rule", "not_found"),
        probe("sub/AGENTS.md", "chain", "not_found"),
        probe("sub/.cursor/rules", "rule", "not_found"),
    ]);
    assert_eq!(result["probes"], expected);

    // Without --json, one line per probe on stderr, with the available rule and nothing else.
    let out = ok(root, "sub/x.rs", &args);
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    let line = |relative: &str, outcome: &str| {
        format!("agentsmd: probe {} (rule): {outcome}", p(root, relative))
    };
    for expected in [
        line(".claude/rules", "listed"),
        line(".claude/rules/g.md", "not_matched"),
        line(".github/instructions/m.instructions.md", "available"),
        line("sub/.cursor/rules", "not_found"),
        format!(
            "agentsmd: available {} (m): M",
            p(root, ".github/instructions/m.instructions.md")
        ),
    ] {
        assert!(
            lines.contains(&expected.as_str()),
            "{expected}\nin\n{stderr}"
        );
    }
    assert_eq!(lines.len(), 10, "{stderr}");
}

#[test]
fn s11_1_available_rules_are_said_on_stderr_and_listed_in_json() {
    let dir = repository();
    let root = dir.path();
    write(&root.join("AGENTS.md"), "root\n");
    let rules_dir = root.join(".cursor/rules");
    write(
        &rules_dir.join("style.mdc"),
        "---\ndescription: Go style\n---\nstyle\n",
    );
    write(&rules_dir.join("manual.md"), "manual\n");
    write(
        &rules_dir.join("nested/deep.mdc"),
        "---\ndescription: \"Deep: yes\"\n---\ndeep\n",
    );
    let args = ["--rules", "cursor:.cursor/rules"];
    let result = json_of(root, "x", &args);
    let entry = |relative: &str, name: &str, description: &str| json!({"path": os_path(&rules_dir.join(relative)), "name": name, "description": description});
    assert_eq!(
        result["available"],
        json!([
            entry("manual.md", "manual", ""),
            entry("nested/deep.mdc", "deep", "Deep: yes"),
            entry("style.mdc", "style", "Go style"),
        ])
    );
    assert_eq!(contents(&result), ["root\n"], "not given");

    let out = ok(root, "x", &args);
    let said = |relative: &str| os_path(&rules_dir.join(relative));
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: available {} (manual)\n\
             agentsmd: available {} (deep): Deep: yes\n\
             agentsmd: available {} (style): Go style\n",
            said("manual.md"),
            said("nested/deep.mdc"),
            said("style.mdc"),
        )
    );
    assert!(text(&out.stdout).contains("root\n"));
    assert!(!text(&out.stdout).contains("style\n"));
}

#[test]
fn s11_1_available_and_warnings_are_in_json_exactly_when_rules_are_given() {
    let dir = repository();
    let root = dir.path();
    write(&root.join("AGENTS.md"), "root\n");
    let keys =
        |value: &Value| -> Vec<String> { value.as_object().unwrap().keys().cloned().collect() };
    let result = json_of(root, "x", &[]);
    assert_eq!(keys(&result), ["part_id", "files", "omitted"]);
    let result = json_of(root, "x", &["--rules", "claude:.claude/rules"]);
    let mut found = keys(&result);
    found.sort();
    assert_eq!(
        found,
        ["available", "files", "omitted", "part_id", "warnings"]
    );
    assert_eq!(result["available"], json!([]));
    assert_eq!(result["warnings"], json!([]));

    let touches = session(root, "x", &["y"], &[]);
    assert_eq!(keys(&touches[0]), ["path", "files", "omitted"]);
    let touches = session(root, "x", &["y"], &["--rules", "claude:.claude/rules"]);
    for touch in &touches {
        let mut found = keys(touch);
        found.sort();
        assert_eq!(found, ["available", "files", "omitted", "path", "warnings"]);
        assert_eq!(touch["available"], json!([]));
        assert_eq!(touch["warnings"], json!([]));
    }
}

#[test]
fn s11_1_the_budgets_charge_a_rules_content() {
    let dir = repository();
    let root = dir.path();
    let front = "---\ndescription: a front matter much longer than the rule it heads\n---\n";
    write(&CLAUDE.file(root, "a"), format!("{front}A\n"));
    write(&CLAUDE.file(root, "b"), format!("{front}B\n"));
    let size = front.len() + 2;
    // Each file fits, both do not: the rules' contents (2 bytes each) do.
    let budget = (size + size / 2).to_string();
    let result = json_of(root, "x", &["--rules", &CLAUDE.flag(), "--budget", &budget]);
    assert_eq!(rules(&result), ["A\n", "B\n"]);
    assert_eq!(result["omitted"], json!([]));

    write(
        &CLAUDE.file(root, "c"),
        format!("{front}{}\n", "C".repeat(2 * size)),
    );
    let result = json_of(root, "x", &["--rules", &CLAUDE.flag(), "--budget", &budget]);
    assert_eq!(rules(&result), ["A\n", "B\n"]);
    let omitted = result["omitted"].as_array().unwrap();
    assert_eq!(omitted.len(), 1, "{omitted:?}");
    assert_eq!(omitted[0]["path"], os_path(&CLAUDE.file(root, "c")));
    assert_eq!(omitted[0]["reason"], "over_budget");
}

#[test]
fn s11_1_a_rule_that_applies_over_max_bytes_is_too_large_and_an_on_request_one_is_not() {
    let dir = repository();
    let root = dir.path();
    let long = format!("{}\n", "x".repeat(200));
    write(
        &COPILOT.file(root, "manual"),
        format!("---\ndescription: d\n---\n{long}"),
    );
    write(
        &CLAUDE.file(root, "go"),
        format!("---\npaths: \"*.go\"\n---\n{long}"),
    );
    let args = [
        "--rules",
        "copilot:.github/instructions",
        "--rules",
        "claude:.claude/rules",
        "--max-bytes",
        "100",
    ];
    let result = json_of(root, "x.rs", &args);
    assert_eq!(rules(&result), [] as [&str; 0]);
    assert_eq!(available(&result), ["manual"]);
    // The glob rule applies at a Go file: too large.
    let stderr = error(root, "x.go", &args);
    assert!(
        stderr.contains(&os_path(&CLAUDE.file(root, "go"))),
        "{stderr}"
    );
    // An always-rule over it.
    let dir = repository();
    let root = dir.path();
    write(&CLINE.file(root, "big"), &long);
    let stderr = error(root, "x", &["--rules", &CLINE.flag(), "--max-bytes", "100"]);
    assert!(
        stderr.contains(&os_path(&CLINE.file(root, "big"))),
        "{stderr}"
    );
    // A front matter that does not close within max_bytes.
    let dir = repository();
    let root = dir.path();
    let file = COPILOT.file(root, "long");
    write(&file, format!("---\ndescription: {long}---\nshort\n"));
    let stderr = error(
        root,
        "x",
        &["--rules", &COPILOT.flag(), "--max-bytes", "100"],
    );
    assert!(stderr.contains(&os_path(&file)), "{stderr}");
}

#[test]
fn s11_a_session_gives_each_rule_once_when_it_first_applies() {
    let dir = repository();
    let root = dir.path();
    let sub = root.join("sub");
    write(&root.join("AGENTS.md"), "root\n");
    write(&CLAUDE.file(root, "always"), "always\n");
    write(
        &CLAUDE.file(root, "go"),
        "---\npaths: \"**/*.go\"\n---\ngo\n",
    );
    write(
        &CURSOR.file(&sub, "always"),
        format!("{}sub always\n", CURSOR.always),
    );
    write(
        &CURSOR.file(&sub, "pick"),
        "---\ndescription: Pick me\n---\npick\n",
    );
    write(&CURSOR.file(&sub, "ts"), "---\nglobs: \"*.ts\"\n---\nts\n");
    write(
        &CURSOR.file(&sub, "md"),
        "---\nglobs: \"**/*.md\"\n---\nmd\n",
    );
    let touches = session(
        root,
        "a.txt",
        &[
            "b/c.go",
            "d.go",
            "sub/x.txt",
            "sub/y.ts",
            "sub/z.ts",
            "sub/w.go",
            // Outside the directory holding the Cursor rules: none matches there.
            "other/readme.md",
            "sub/readme.md",
        ],
        &["--rules", &CLAUDE.flag(), "--rules", &CURSOR.flag()],
    );
    let expected: [(&[&str], &[&str]); 9] = [
        (&["root\n", "always\n"], &[]),
        (&["go\n"], &[]),
        (&[], &[]),
        (&["sub always\n"], &["pick"]),
        (&["ts\n"], &[]),
        (&[], &[]),
        (&[], &[]),
        (&[], &[]),
        (&["md\n"], &[]),
    ];
    assert_eq!(touches.len(), expected.len());
    for (i, (touch, (files, offered))) in touches.iter().zip(expected).enumerate() {
        assert_eq!(contents(touch), files, "touch {i}: {touch}");
        assert_eq!(available(touch), offered, "touch {i}: {touch}");
    }
    assert_eq!(touches[3]["files"][0]["source"], "rule");

    // On stderr, each delta's lines: the offer once, from the touch that first looked it up.
    let mut args: Vec<OsString> = vec![
        root.as_os_str().to_owned(),
        "--root".into(),
        root.as_os_str().to_owned(),
        "--rules".into(),
        CURSOR.flag().into(),
        "--touch".into(),
    ];
    for touched in ["sub/x.txt", "sub/y.txt", "x.txt", "sub/z.ts"] {
        args.push(root.join(touched).into_os_string());
    }
    let out = agentsmd(root, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        format!(
            "agentsmd: available {} (pick): Pick me\n",
            os_path(&CURSOR.file(&sub, "pick"))
        )
    );
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("sub always\n").count(), 1, "{stdout}");
    assert_eq!(stdout.matches("ts\n").count(), 1, "{stdout}");
    assert_eq!(
        touches[3]["available"][0],
        json!({"path": os_path(&CURSOR.file(&sub, "pick")), "name": "pick", "description": "Pick me"})
    );
}

#[test]
fn s11_an_invalid_rules_flag_is_a_usage_error() {
    let dir = repository();
    let root = dir.path();
    for value in [
        "",
        "claude",
        "claude:",
        ":.claude/rules",
        "amp:.amp/rules",
        "CLAUDE:.claude/rules",
        "claude:a//b",
        "claude:../x",
        "claude:a/../b",
        "claude:a/./b",
        "claude:/abs",
        "claude:a/",
        "claude:.",
    ] {
        let out = run(root, "x", &["--rules", value]);
        assert_usage_error(&out, &format!("--rules {value:?}"));
    }
    let out = run(root, "x", &["--rules"]);
    assert_usage_error(&out, "--rules without a value");
}

#[test]
fn s11_a_rules_front_matter_is_recognised_as_section_6_1_reads_it() {
    let dir = repository();
    let root = dir.path();
    let claude = root.join(".claude/rules");
    let cursor = root.join(".cursor/rules");
    // A leading BOM, `...` closing, spaces after `---`, `\r\n` line endings.
    write(
        &claude.join("bom.md"),
        "\u{feff}---\npaths: \"*.go\"\n---\nbom\n",
    );
    write(&claude.join("dots.md"), "---\npaths: \"*.go\"\n...\ndots\n");
    write(
        &claude.join("spaces.md"),
        "--- \t\npaths: \"*.go\"\n---  \nspaces\n",
    );
    write(
        &cursor.join("crlf.mdc"),
        "---\r\nalwaysApply: true\r\n---\r\ncrlf\r\n",
    );
    write(
        &cursor.join("lines.mdc"),
        "---\r\nglobs: **/*.go\r\n---\r\nlines\r\n",
    );
    // A document that is not a mapping is unreadable: always, with a warning.
    write(&claude.join("z-list.md"), "---\n- a\n- b\n---\nlist\n");
    let args = ["--rules", &CLAUDE.flag(), "--rules", &CURSOR.flag()];
    let result = json_of(root, "x.rs", &args);
    assert_eq!(rules(&result), ["list\n", "crlf\r\n"]);
    assert_one_warning(&result, &claude.join("z-list.md"));
    let result = json_of(root, "x.go", &args);
    assert_eq!(
        rules(&result),
        [
            "bom\n",
            "dots\n",
            "spaces\n",
            "list\n",
            "crlf\r\n",
            "lines\r\n"
        ]
    );
}

#[test]
#[cfg(unix)]
fn s11_1_a_question_mark_is_one_byte_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = repository();
    let root = dir.path();
    write(&CLAUDE.file(root, "r"), "---\npaths: \"?.rs\"\n---\nrule\n");
    for (name, expected) in [(&b"\xff.rs"[..], true), (b"\xff\xfe.rs", false)] {
        let touched = root.join(std::ffi::OsStr::from_bytes(name));
        let args: Vec<OsString> = vec![
            touched.into_os_string(),
            "--root".into(),
            root.as_os_str().to_owned(),
            "--rules".into(),
            CLAUDE.flag().into(),
            "--json".into(),
        ];
        let out = agentsmd(root, &args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let result: Value = serde_json::from_slice(&out.stdout).unwrap();
        let given = rules(&result) == ["rule\n"];
        assert_eq!(given, expected, "{name:?}: {result}");
    }
}
