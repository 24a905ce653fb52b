//! Unit tests of `src/path/syntax.rs`, which includes this file by `#[path]`: they reach
//! private items.

use super::Syntax::{self, Unix, Windows};

fn root(syntax: Syntax, path: &str) -> Option<String> {
    syntax
        .root(path.as_bytes())
        .map(|root| String::from_utf8(root).unwrap())
}

fn clean(syntax: Syntax, dir: &str, path: &str) -> Option<String> {
    syntax
        .clean(dir.as_bytes(), path.as_bytes())
        .map(|clean| String::from_utf8(clean).unwrap())
}

#[test]
fn windows_paths_are_cleaned_from_their_prefix_with_backslashes() {
    for (dir, path, expected) in [
        (r"C:\repo", r"C:\a\..\..\b", r"C:\b"),
        (r"C:\repo", "c:/a/./b/", r"c:\a\b"),
        (r"C:\repo", "//server/share/x/../y", r"\\server\share\y"),
        (r"C:\repo", r"\\?\C:\a\.\b", r"\\?\C:\a\b"),
        (r"C:\repo\src", r"..\x", r"C:\repo\x"),
        (r"C:\repo\src", "../../../x", r"C:\x"),
        (r"C:\repo\src", r"\x", r"C:\x"),
        (r"\\server\share\repo", r"\x\..\..", r"\\server\share\"),
        (r"C:\", ".", r"C:\"),
    ] {
        assert_eq!(
            clean(Windows, dir, path).as_deref(),
            Some(expected),
            "{dir} {path}"
        );
    }
    assert_eq!(clean(Windows, "docs", "x.md"), None);
    assert_eq!(clean(Unix, "/repo", "a\\b").as_deref(), Some("/repo/a\\b"));
}

#[test]
fn windows_parents_stop_at_the_prefix_root() {
    let parent = |path: &str| {
        Windows
            .parent(path.as_bytes())
            .map(|p| String::from_utf8(p.to_vec()).unwrap())
    };
    assert_eq!(parent(r"C:\repo\src").as_deref(), Some(r"C:\repo"));
    assert_eq!(parent(r"C:\repo").as_deref(), Some(r"C:\"));
    assert_eq!(parent(r"C:\"), None);
    assert_eq!(
        parent(r"\\server\share\x").as_deref(),
        Some(r"\\server\share\")
    );
    assert_eq!(parent(r"\\?\C:\x").as_deref(), Some(r"\\?\C:\"));
    assert_eq!(Unix.parent(b"/a"), Some(&b"/"[..]));
}

#[test]
fn paths_and_roots_compare_on_whole_elements_ignoring_ascii_case_on_windows() {
    let root = br"C:\Repo";
    assert!(Windows.is_within(br"c:\repo\AGENTS.md", root));
    assert!(Windows.is_within(br"C:\REPO", root));
    assert!(!Windows.is_within(br"C:\Repo2\AGENTS.md", root));
    assert!(!Windows.is_within(br"D:\Repo\AGENTS.md", root));
    assert!(!Windows.is_within(br"C:\", root));
    assert!(
        !Windows.is_within(br"\\?\C:\Repo\x", root),
        "another prefix is outside"
    );
    let share = br"\\server\share\repo";
    assert!(Windows.is_within(br"\\Server\Share\repo\x", share));
    assert!(!Windows.is_within(br"\\server\share2\repo\x", share));
    assert!(Windows.is_within(br"D:\x", br"d:\"));
    assert!(!Unix.is_within(b"/Repo/x", b"/repo"));
}

#[test]
fn windows_names_below_the_os_carry_the_prefix_and_come_back() {
    for (base, path, name) in [
        ("", r"C:\repo\AGENTS.md", "C:/repo/AGENTS.md"),
        ("", r"C:\", "C:"),
        ("", r"\\server\share\x", r"\\server\share/x"),
        (r"C:\repo", r"C:\repo\a\b", "a/b"),
        (r"C:\repo", r"C:\repo", "."),
        (r"C:\", r"C:\a", "a"),
    ] {
        let below = Windows.name_below(base.as_bytes(), path.as_bytes());
        assert_eq!(
            String::from_utf8(below.clone()).unwrap(),
            name,
            "{base} {path}"
        );
        let back = Windows.os_path(base.as_bytes(), &below);
        assert_eq!(String::from_utf8(back).unwrap(), path, "{base} {name}");
    }
    assert_eq!(Unix.name_below(b"/", b"/a/b"), b"a/b");
    assert_eq!(Unix.os_path(b"/repo", b"a/b"), b"/repo/a/b");
}

#[test]
fn windows_prefixes_root_a_path() {
    for (path, expected) in [
        (r"C:\repo", Some(r"C:\")),
        ("c:/repo", Some(r"c:\")),
        (r"C:\", Some(r"C:\")),
        (r"\\server\share\repo", Some(r"\\server\share\")),
        ("//server/share", Some(r"\\server\share\")),
        (r"\\?\C:\repo", Some(r"\\?\C:\")),
        (r"\\?\UNC\server\share\x", Some(r"\\?\UNC\server\share\")),
        (r"\\?\UNC\server\", Some(r"\\?\UNC\server\")),
        (r"\\?\UNC\server", Some(r"\\?\UNC\server\")),
        (r"\\.\pipe\x", Some(r"\\.\pipe\")),
        (r"C:repo", None),
        (r"C:", None),
        (r"\repo", None),
        (r"\\server", None),
        (r"\\server\", None),
        ("repo", None),
        ("", None),
    ] {
        assert_eq!(root(Windows, path).as_deref(), expected, "{path}");
    }
    assert_eq!(root(Unix, "/x").as_deref(), Some("/"));
    assert_eq!(root(Unix, r"C:\x"), None);
}

#[test]
fn windows_compares_ignoring_ascii_case_only() {
    assert!(Windows.same(br"C:\Repo", br"c:\rEPO"));
    assert!(!Windows.same("É".as_bytes(), "é".as_bytes()));
    assert!(!Unix.same(b"/Repo", b"/repo"));
}

#[test]
fn windows_refuses_names_it_would_open_as_another_file() {
    for name in [
        "a:b",
        "AGENTS.md:stream",
        r"a\b",
        "a<b",
        "a>b",
        "a\"b",
        "a|b",
        "a?b",
        "a*b",
        "a\tb",
        "AGENTS.md.",
        "AGENTS.md ",
        "nul",
        "NUL",
        "nul.md",
        "Nul.tar.gz",
        "nul .md",
        "con",
        "prn.txt",
        "aux",
        "com1",
        "COM9.md",
        "lpt1",
        "LPT9",
        "com\u{b9}.md",
        "LPT\u{b3}",
    ] {
        assert!(!Windows.is_element(name.as_bytes()), "{name}");
        assert!(!name.contains(['/', '\0']) && !matches!(name, "." | ".."));
    }
    for name in [
        "AGENTS.md",
        "nul-rules.md",
        "null.md",
        "com0",
        "com10",
        "lpt",
        "connect.md",
        ".agents",
        "é.md",
        "a b.md",
        "CLAUDE.md",
    ] {
        assert!(Windows.is_element(name.as_bytes()), "{name}");
        assert!(Unix.is_element(name.as_bytes()), "{name}");
    }
    assert!(Unix.is_element(b"a:b") && Unix.is_element(b"nul.md"));
    for name in ["", ".", "..", "a/b", "a\0b"] {
        assert!(!Unix.is_element(name.as_bytes()) && !Windows.is_element(name.as_bytes()));
    }
}
