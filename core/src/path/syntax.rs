//! How an OS writes its paths — the one thing about the lexical rules of SPEC.md §1 that differs
//! between platforms (§8.2): Unix's `/`, or Windows's prefixes (`C:\`, `\\server\share\`,
//! `\\?\C:\`), `\` and `/` both separating on input and `\` written, ASCII case ignored when
//! paths are compared, and the names Windows would open as another file. Both are compiled on
//! every platform, so that the Windows rules are tested on Linux too; [`Syntax::OS`] is the
//! host's.

/// The path syntax of an OS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    /// `/` roots and separates; bytes compare exactly.
    Unix,
    /// A prefix roots (a drive `C:`, a share `\\server\share`, a verbatim or device path
    /// `\\?\C:`, `\\?\UNC\server\share`, `\\.\X`); `\` and `/` separate, `\` is written; ASCII
    /// case is ignored when paths are compared.
    Windows,
}

impl Syntax {
    /// The host's syntax.
    pub(crate) const OS: Syntax = if cfg!(windows) {
        Syntax::Windows
    } else {
        Syntax::Unix
    };

    /// The separator written.
    pub(crate) fn sep(self) -> u8 {
        match self {
            Syntax::Unix => b'/',
            Syntax::Windows => b'\\',
        }
    }

    /// Whether `byte` separates elements on input.
    pub(crate) fn is_sep(self, byte: u8) -> bool {
        byte == b'/' || (self == Syntax::Windows && byte == b'\\')
    }

    /// Whether two paths, or parts of paths, are the same: on Windows, ignoring ASCII case.
    pub(crate) fn same(self, a: &[u8], b: &[u8]) -> bool {
        match self {
            Syntax::Unix => a == b,
            Syntax::Windows => a.eq_ignore_ascii_case(b),
        }
    }

    /// The length of the prefix that makes `path` absolute, the separator after it not counted:
    /// 0 for Unix's `/`; `None` for a relative path (on Windows also `C:x`, relative to the
    /// drive's current directory, and `\x`, relative to the current drive).
    pub(crate) fn prefix(self, path: &[u8]) -> Option<usize> {
        match self {
            Syntax::Unix => path.starts_with(b"/").then_some(0),
            Syntax::Windows => windows_prefix(path),
        }
    }

    /// The root of the absolute `path` as written: its prefix, separators written as
    /// [`Syntax::sep`], and one separator.
    pub(crate) fn root(self, path: &[u8]) -> Option<Vec<u8>> {
        let prefix = self.prefix(path)?;
        let written = path[..prefix].iter().map(|&b| match self.is_sep(b) {
            true => self.sep(),
            false => b,
        });
        Some(written.chain([self.sep()]).collect())
    }

    /// `path`, absolute or relative to `dir`, cleaned lexically ([`super::clean`]) where one of
    /// them is rooted: written from its root with this syntax's separator, a `..` at the root
    /// staying there; `None` where neither is (a file system's names).
    pub(crate) fn clean(self, dir: &[u8], path: &[u8]) -> Option<Vec<u8>> {
        let (root, parts) = if let Some(root) = self.root(path) {
            (root, [&b""[..], &path[self.prefix(path)?..]])
        } else {
            let root = self.root(dir)?;
            match path.first() {
                // Windows's `\x`: below the root of `dir`'s drive.
                Some(&b) if self.is_sep(b) => (root, [&b""[..], path]),
                _ => (root, [&dir[self.prefix(dir)?..], path]),
            }
        };
        let mut elements: Vec<&[u8]> = Vec::new();
        for element in parts
            .iter()
            .flat_map(|part| part.split(|&b| self.is_sep(b)))
        {
            match element {
                b"" | b"." => {}
                b".." => {
                    elements.pop();
                }
                _ => elements.push(element),
            }
        }
        Some([root, elements.join(&self.sep())].concat())
    }

    /// The directory holding the clean absolute `path`; `None` at its root.
    pub(crate) fn parent(self, path: &[u8]) -> Option<&[u8]> {
        let root = self.prefix(path)? + 1;
        if path.len() <= root {
            return None;
        }
        let sep = path
            .iter()
            .rposition(|&b| b == self.sep())
            .unwrap_or_default();
        Some(&path[..sep.max(root)])
    }

    /// Whether clean `path` is clean `dir` or below it, on whole elements, compared as
    /// [`Syntax::same`] compares; a root holds every path it roots.
    pub(crate) fn is_within(self, path: &[u8], dir: &[u8]) -> bool {
        self.within(path, dir, |a, b| self.same(a, b))
    }

    /// [`Syntax::is_within`] byte for byte, case included: for paths the OS itself wrote, such
    /// as two final paths of open handles, which carry each name as the disk spells it, so that
    /// ignoring case could only let a differently spelled name in (a case-sensitive directory).
    #[cfg(any(windows, test))]
    pub(crate) fn is_within_exactly(self, path: &[u8], dir: &[u8]) -> bool {
        self.within(path, dir, |a, b| a == b)
    }

    fn within(self, path: &[u8], dir: &[u8], same: impl Fn(&[u8], &[u8]) -> bool) -> bool {
        let sep = self.sep();
        let is_root = dir.last() == Some(&sep);
        path.len() >= dir.len()
            && same(&path[..dir.len()], dir)
            && (is_root || path.len() == dir.len() || path[dir.len()] == sep)
    }

    /// The file system name (`/`-separated, `.` for `base` itself) of the clean absolute `path`
    /// within the clean absolute `base`; on Windows, below the empty base (the OS as a whole,
    /// [`super::OS_ROOT`]) the first element is the path's prefix (`C:/repo` for `C:\repo`).
    pub(crate) fn name_below(self, base: &[u8], path: &[u8]) -> Vec<u8> {
        let slashed = |rest: &[u8]| -> Vec<u8> {
            rest.iter()
                .map(|&b| if b == self.sep() { b'/' } else { b })
                .collect()
        };
        if self == Syntax::Windows && base.is_empty() {
            let (prefix, rest) = path.split_at(self.prefix(path).unwrap_or_default());
            return match rest.get(1..).unwrap_or_default() {
                b"" => prefix.to_vec(),
                rest => [prefix, b"/", &slashed(rest)].concat(),
            };
        }
        let rest = &path[base.len()..];
        match rest.strip_prefix(&[self.sep()]).unwrap_or(rest) {
            b"" => b".".to_vec(),
            rest => slashed(rest),
        }
    }

    /// The OS path of the file system name `name` below `base` ([`Syntax::name_below`] undone).
    pub(crate) fn os_path(self, base: &[u8], name: &[u8]) -> Vec<u8> {
        let written = |name: &[u8]| -> Vec<u8> {
            name.iter()
                .map(|&b| if b == b'/' { self.sep() } else { b })
                .collect()
        };
        if self == Syntax::Windows && base.is_empty() {
            let (prefix, rest) =
                name.split_at(name.iter().position(|&b| b == b'/').unwrap_or(name.len()));
            return [prefix, b"\\", &written(rest.get(1..).unwrap_or_default())].concat();
        }
        match name {
            b"." => base.to_vec(),
            _ if base.ends_with(&[self.sep()]) => [base, &written(name)].concat(),
            _ => [base, &[self.sep()], &written(name)].concat(),
        }
    }

    /// Whether `name` is one path element that the OS opens as that name, and nothing else:
    /// non-empty, not `.` or `..`, no `/` or NUL; on Windows (SPEC.md §8.2) also no `\`, `:`
    /// (a stream), `<`, `>`, `"`, `|`, `?`, `*` or control byte, no trailing `.` or space (which
    /// Windows drops), and no reserved device name (`NUL`, `nul.md`).
    pub(crate) fn is_element(self, name: &[u8]) -> bool {
        let element =
            !matches!(name, b"" | b"." | b"..") && !name.iter().any(|&b| b == b'/' || b == 0);
        element && (self == Syntax::Unix || is_windows_name(name))
    }
}

/// [`Syntax::prefix`] on Windows.
fn windows_prefix(path: &[u8]) -> Option<usize> {
    let is_sep = |i: usize| path.get(i).is_some_and(|&b| b == b'/' || b == b'\\');
    // The end of the element that starts at `from`.
    let end = |from: usize| {
        let rest = path.get(from..).unwrap_or_default();
        from + rest
            .iter()
            .position(|&b| b == b'/' || b == b'\\')
            .unwrap_or(rest.len())
    };
    if path.len() >= 2 && path[0].is_ascii_alphabetic() && path[1] == b':' {
        return is_sep(2).then_some(2);
    }
    if !(is_sep(0) && is_sep(1)) {
        return None;
    }
    // `\\?\` (verbatim) and `\\.\` (device): the element after them, or `UNC\server\share`.
    if matches!(path.get(2), Some(b'?' | b'.')) && is_sep(3) {
        let first = end(4);
        if first == 4 {
            return None;
        }
        if !path[4..first].eq_ignore_ascii_case(b"UNC") || first == path.len() {
            return Some(first);
        }
        let server = end(first + 1);
        let share = end(server + 1).min(path.len());
        return Some(if share > server + 1 { share } else { server });
    }
    // `\\server\share`.
    let server = end(2);
    if server == 2 || server == path.len() {
        return None;
    }
    let share = end(server + 1);
    (share > server + 1).then_some(share)
}

/// Whether Windows opens `name` (one element, checked so on every OS) as that name: WTF-8,
/// which every Windows name is, and none of what Windows would take otherwise.
fn is_windows_name(name: &[u8]) -> bool {
    let forbidden = |b: u8| b < 0x20 || b == 0x7F || b"\\:<>\"|?*".contains(&b);
    !name.iter().any(|&b| forbidden(b))
        && !matches!(name.last(), Some(b'.' | b' '))
        && !is_device_name(name)
        && super::wtf8::to_wide(name).is_some()
}

/// Whether Windows takes `name` for a device: a reserved name in any case, alone or with an
/// extension (`nul.md`), spaces before the extension ignored (`nul .md`); `COM` and `LPT` with
/// a digit 1 to 9, or a superscript 1, 2 or 3 (`COM\u{b9}`).
fn is_device_name(name: &[u8]) -> bool {
    let stem = name.split(|&b| b == b'.').next().unwrap_or_default();
    let stem = stem.trim_ascii_end().to_ascii_uppercase();
    let (port, number) = match stem.len() {
        3 => (&stem[..], &b""[..]),
        _ if stem.len() > 3 => stem.split_at(3),
        _ => return false,
    };
    match (port, number) {
        (b"CON" | b"PRN" | b"AUX" | b"NUL", b"") => true,
        (b"COM" | b"LPT", [digit @ b'1'..=b'9']) => digit.is_ascii_digit(),
        // \u{b9}, \u{b2}, \u{b3}: superscript one, two and three.
        (b"COM" | b"LPT", [0xC2, 0xB9 | 0xB2 | 0xB3]) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
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
    fn confinement_compares_final_paths_on_whole_elements_exactly() {
        // What ConfinedFs asks of GetFinalPathNameByHandleW's answers.
        let root = br"\\?\C:\src\proj";
        assert!(Windows.is_within_exactly(br"\\?\C:\src\proj\AGENTS.md", root));
        assert!(Windows.is_within_exactly(root, root));
        assert!(!Windows.is_within_exactly(br"\\?\C:\src\PROJ\secret", root));
        assert!(!Windows.is_within_exactly(br"\\?\C:\src\proj2\x", root));
        assert!(!Windows.is_within_exactly(br"\\?\C:\src", root));
        let share = br"\\?\UNC\server\share\repo";
        assert!(Windows.is_within_exactly(br"\\?\UNC\server\share\repo\x", share));
        assert!(!Windows.is_within_exactly(br"\\?\UNC\server\share2\repo\x", share));
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
}
