//! How an OS writes its paths (SPEC §1, §8.2). Both syntaxes are compiled everywhere, so that
//! the Windows rules are tested on Linux too.

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

    /// The length of the prefix that makes `path` absolute, not counting the separator after
    /// it; `None` for a relative path (on Windows also `C:x` and `\x`).
    pub(crate) fn prefix(self, path: &[u8]) -> Option<usize> {
        match self {
            Syntax::Unix => path.starts_with(b"/").then_some(0),
            Syntax::Windows => windows_prefix(path),
        }
    }

    /// The root of the absolute `path`: its prefix and one separator, as written.
    pub(crate) fn root(self, path: &[u8]) -> Option<Vec<u8>> {
        let mut root = self.with_sep(&path[..self.prefix(path)?], self.sep());
        root.push(self.sep());
        Some(root)
    }

    /// `bytes` with each separator written as `sep`.
    pub(crate) fn with_sep(self, bytes: &[u8], sep: u8) -> Vec<u8> {
        bytes
            .iter()
            .map(|&b| if self.is_sep(b) { sep } else { b })
            .collect()
    }

    /// `path`, absolute or relative to `dir`, cleaned lexically where one of them is rooted (a
    /// `..` at the root stays there, as the OS resolves it); `None` where neither is.
    pub(crate) fn clean(self, dir: &[u8], path: &[u8]) -> Option<Vec<u8>> {
        let (root, parts) = match self.root(path) {
            Some(root) => (root, [&b""[..], &path[self.prefix(path)?..]]),
            // Windows's `\x`: below the root of `dir`'s drive.
            None if path.first().is_some_and(|&b| self.is_sep(b)) => {
                (self.root(dir)?, [&b""[..], path])
            }
            None => (self.root(dir)?, [&dir[self.prefix(dir)?..], path]),
        };
        let (elements, _) = elements(&parts, |b| self.is_sep(b));
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

    /// Whether clean `path` is clean `dir` or below it, on whole elements ([`Syntax::same`]).
    pub(crate) fn is_within(self, path: &[u8], dir: &[u8]) -> bool {
        let sep = self.sep();
        let is_root = dir.last() == Some(&sep);
        path.len() >= dir.len()
            && self.same(&path[..dir.len()], dir)
            && (is_root || path.len() == dir.len() || path[dir.len()] == sep)
    }

    /// The file system name of the clean absolute `path` within the clean absolute `base`; on
    /// Windows, below [`super::OS_ROOT`] the first element is the prefix (`C:/repo`).
    pub(crate) fn name_below(self, base: &[u8], path: &[u8]) -> Vec<u8> {
        let slashed = |rest| self.with_sep(rest, b'/');
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
        let written = |name| self.with_sep(name, self.sep());
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

    /// Whether `name` is one path element that the OS opens as that name (SPEC §1, §8.2).
    pub(crate) fn is_element(self, name: &[u8]) -> bool {
        let element =
            !matches!(name, b"" | b"." | b"..") && !name.iter().any(|&b| b == b'/' || b == 0);
        element && (self == Syntax::Unix || is_windows_name(name))
    }
}

/// The elements of `parts` split where `is_sep`, `.` and `..` resolved; and whether a `..`
/// found no element before it.
pub(super) fn elements<'a>(
    parts: &[&'a [u8]],
    is_sep: impl Fn(u8) -> bool,
) -> (Vec<&'a [u8]>, bool) {
    let (mut elements, mut above) = (Vec::new(), false);
    for element in parts.iter().flat_map(|part| part.split(|&b| is_sep(b))) {
        match element {
            b"" | b"." => {}
            b".." => above |= elements.pop().is_none(),
            _ => elements.push(element),
        }
    }
    (elements, above)
}

/// [`Syntax::prefix`] on Windows.
fn windows_prefix(path: &[u8]) -> Option<usize> {
    let is_sep = |i: usize| path.get(i).is_some_and(|&b| b == b'/' || b == b'\\');
    // The end of the element that starts at `from`.
    let end = |from: usize| {
        let end = (from..path.len()).find(|&i| is_sep(i));
        end.unwrap_or(from.max(path.len()))
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

/// Whether Windows opens the element `name` as that name (SPEC §8.2).
fn is_windows_name(name: &[u8]) -> bool {
    let forbidden = |b: u8| b < 0x20 || b == 0x7F || b"\\:<>\"|?*".contains(&b);
    !name.iter().any(|&b| forbidden(b))
        && !matches!(name.last(), Some(b'.' | b' '))
        && !is_device_name(name)
        && super::wtf8::to_wide(name).is_some()
}

/// Whether Windows takes `name` for a device, alone or with an extension (`nul.md`, `nul .md`).
fn is_device_name(name: &[u8]) -> bool {
    let stem = name.split(|&b| b == b'.').next().unwrap_or_default();
    let stem = stem.trim_ascii_end().to_ascii_uppercase();
    match stem.split_at_checked(3) {
        Some((b"CON" | b"PRN" | b"AUX" | b"NUL", b"")) => true,
        // \u{b9}, \u{b2}, \u{b3}: superscript one, two and three.
        Some((b"COM" | b"LPT", [b'1'..=b'9'] | [0xC2, 0xB9 | 0xB2 | 0xB3])) => true,
        _ => false,
    }
}

#[cfg(test)]
#[path = "../../tests/unit/path_syntax.rs"]
mod tests;
