//! The model: SPEC.md §1 over a custom file system, written from the spec's text as plainly as
//! it reads, with no care for speed. Sums are `u128`, so no reported size overflows them.
//!
//! Where the spec leaves an order open (which of two failures a chain reports), the model
//! collects every failure the spec's walk meets and the library may report any one of them.

use agentsmd_core::{ErrorKind, Reason};

use super::memory::{join, parent, MemoryFs, Stat};
use super::rendering::rendered_len;

/// The options of a chain over a custom file system (`extra` is OS paths: not modelled here).
/// `None` is an option not given; an empty root is none given.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub names: Vec<Vec<u8>>,
    pub root: Vec<u8>,
    pub path: Vec<u8>,
    pub max_bytes: Option<u64>,
    pub budget: Option<u64>,
    pub rendered_budget: Option<u64>,
    /// Every name a directory has is one of its files (SPEC.md §9).
    pub all_names: bool,
}

impl Config {
    /// The library's options for this config, on `fs`.
    pub fn options(&self, fs: std::sync::Arc<MemoryFs>) -> agentsmd_core::Options {
        let mut options = agentsmd_core::Options::new().names(&self.names).fs(fs);
        if !self.root.is_empty() {
            options = options.root(super::memory::os_path(&self.root));
        }
        options.max_bytes = self.max_bytes;
        options.budget = self.budget;
        options.rendered_budget = self.rendered_budget;
        options.all_names = self.all_names;
        options
    }

    /// The most bytes one file may read: SPEC.md's 1 MiB when none is given.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes.unwrap_or(1 << 20)
    }
}

/// What a chain returns: (path, content) per file, and (path, size, reason, by) per file left
/// out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    pub files: Vec<(Vec<u8>, Vec<u8>)>,
    pub omitted: Vec<(Vec<u8>, u64, Reason, Vec<u8>)>,
}

/// A failure the spec's walk meets: its kind and the name it concerns (empty for an invalid
/// argument, whose message need name nothing the model knows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub kind: ErrorKind,
    pub name: Vec<u8>,
}

/// Whether `name` is one path element: "non-empty, no `/`, no NUL, not `.` or `..`"; on Windows
/// also one Windows opens as named (SPEC.md §8.2).
pub fn is_element(name: &[u8]) -> bool {
    !name.is_empty()
        && name != b"."
        && name != b".."
        && !name.contains(&b'/')
        && !name.contains(&0)
        && (cfg!(unix) || is_windows_name(name))
}

/// Whether `name` can be one of the names looked for: one or more `/`-separated path elements
/// (SPEC.md §9).
pub fn is_name(name: &[u8]) -> bool {
    name.split(|&b| b == b'/').all(is_element)
}

/// SPEC.md §8.2 "Names": no `\`, `:`, `<`, `>`, `"`, `|`, `?`, `*` or control byte, no final
/// `.` or space, and no reserved device name (`CON`, `PRN`, `AUX`, `NUL`, `COM1`–`COM9`,
/// `LPT1`–`LPT9`), in any case, with or without an extension.
fn is_windows_name(name: &[u8]) -> bool {
    let forbidden = |b: &u8| b"\\:<>\"|?*".contains(b) || *b < 0x20 || *b == 0x7f;
    let stem = name.split(|&b| b == b'.').next().unwrap_or_default();
    let stem = stem.trim_ascii_end().to_ascii_uppercase();
    let device = matches!(stem.as_slice(), b"CON" | b"PRN" | b"AUX" | b"NUL")
        || matches!(
            stem.as_slice(),
            [b'C', b'O', b'M', b'1'..=b'9'] | [b'L', b'P', b'T', b'1'..=b'9']
        );
    !name.iter().any(forbidden) && !matches!(name.last(), Some(b'.' | b' ')) && !device
}

/// Whether `name` is valid in a custom file system: Go's `fs.ValidPath` on bytes, as SPEC.md
/// §1 reads it — unrooted, `/`-separated, no empty, `.` or `..` element, `.` alone the root.
/// Two decided differences from Go: a NUL is refused (C strings, SPEC.md §4), and the bytes need
/// not be UTF-8 (paths are bytes).
pub fn is_fs_name(name: &[u8]) -> bool {
    name == b"."
        || (!name.contains(&0)
            && name
                .split(|&b| b == b'/')
                .all(|e| !e.is_empty() && e != b"." && e != b".."))
}

/// The regular file `name` names in `dir`, which lists `listed`: its first element listed
/// under exactly that spelling, and a name of several elements looked for in the directory its
/// first element is (SPEC.md §9). Each failure met is added to `failures`.
fn find(
    fs: &MemoryFs,
    dir: &[u8],
    listed: &[Vec<u8>],
    name: &[u8],
    failures: &mut Vec<Failure>,
) -> Option<(Vec<u8>, u64)> {
    let (first, rest) = match name.iter().position(|&b| b == b'/') {
        Some(slash) => (&name[..slash], Some(&name[slash + 1..])),
        None => (name, None),
    };
    if !listed.iter().any(|entry| entry == first) {
        return None;
    }
    let at = join(dir, first);
    match (fs.stat_of(&at), rest) {
        (Err(()), _) => failures.push(failure(ErrorKind::Fs, &at)),
        (Ok(Some(Stat::File { size })), None) => return Some((at, size)),
        (Ok(Some(Stat::Dir)), Some(rest)) => match fs.list_of(&at) {
            Err(()) => failures.push(failure(ErrorKind::Fs, &at)),
            Ok(None) => {}
            Ok(Some(listed)) => return find(fs, &at, &listed, rest, failures),
        },
        _ => {}
    }
    None
}

/// Whether `path` is `root` or below it.
pub fn is_within(path: &[u8], root: &[u8]) -> bool {
    root == b"." || path == root || path.starts_with(&[root, b"/"].concat())
}

fn invalid() -> Result<Expected, Vec<Failure>> {
    Err(vec![Failure {
        kind: ErrorKind::InvalidArgument,
        name: Vec::new(),
    }])
}

fn failure(kind: ErrorKind, name: &[u8]) -> Failure {
    Failure {
        kind,
        name: name.to_vec(),
    }
}

/// The chain SPEC.md §1 defines for `config` on `fs`, or every failure its walk meets.
pub fn chain(fs: &MemoryFs, config: &Config) -> Result<Expected, Vec<Failure>> {
    // Names: each one or more path elements, checked before any I/O; none means AGENTS.md.
    let mut names: Vec<&[u8]> = Vec::new();
    for name in &config.names {
        if !is_name(name) {
            return invalid();
        }
        if !names.contains(&name.as_slice()) {
            names.push(name);
        }
    }
    if names.is_empty() {
        names.push(b"AGENTS.md");
    }

    // Path and root: valid names, the path within the root.
    let root: &[u8] = if config.root.is_empty() {
        b"."
    } else {
        &config.root
    };
    let path = config.path.as_slice();
    if !is_fs_name(path) || !is_fs_name(root) || !is_within(path, root) {
        return invalid();
    }

    // The start directory: the path if it is a directory, otherwise its parent (the walk never
    // goes above the root).
    let start: &[u8] = match fs.stat_of(path) {
        Err(()) => return Err(vec![failure(ErrorKind::Fs, path)]),
        Ok(Some(Stat::Dir)) => path,
        Ok(_) if path == root => root,
        Ok(_) => parent(path),
    };
    let mut dirs = vec![start];
    while *dirs.last().unwrap() != root {
        dirs.push(parent(dirs.last().unwrap()));
    }
    dirs.reverse();

    // Each directory's regular files under the names, in names order. A directory not found
    // lists nothing, and nothing below it is asked; any other failure is a failure, even after
    // the budget has run out.
    let mut failures = Vec::new();
    let mut found_per_dir: Vec<Vec<(Vec<u8>, u64)>> = Vec::new();
    for dir in &dirs {
        let mut found = Vec::new();
        match fs.list_of(dir) {
            Err(()) => failures.push(failure(ErrorKind::Fs, dir)),
            Ok(None) => break,
            Ok(Some(listed)) => {
                for name in &names {
                    found.extend(find(fs, dir, &listed, name, &mut failures));
                }
            }
        }
        found_per_dir.push(found);
    }

    // The walk, root first: one file per directory, within the bounds.
    let max = config.max_bytes();
    let mut expected = Expected::default();
    let mut ended = false;
    'walk: for found in found_per_dir {
        let mut chosen: Option<Vec<u8>> = None;
        for (file, size) in found {
            if let Some(by) = chosen.as_ref().filter(|_| !config.all_names) {
                expected
                    .omitted
                    .push((file, size, Reason::Shadowed, by.clone()));
                continue;
            }
            // Read only when the reported size could fit (with no newline added).
            if ended || !fits(config, &expected.files, &file, u128::from(size), true) {
                ended = true;
                expected
                    .omitted
                    .push((file.clone(), size, Reason::OverBudget, Vec::new()));
                chosen = Some(file);
                continue;
            }
            let content = match fs.read_of(&file, max.saturating_add(1)) {
                Err(()) => {
                    failures.push(failure(ErrorKind::Fs, &file));
                    break 'walk;
                }
                // Not found when read: no file, and the next name is tried.
                Ok(None) => continue,
                Ok(Some(content)) => content,
            };
            let read = content.len() as u128;
            if read > u128::from(max) {
                failures.push(failure(ErrorKind::TooLarge, &file));
                break 'walk;
            }
            if !fits(
                config,
                &expected.files,
                &file,
                read,
                content.ends_with(b"\n"),
            ) {
                ended = true;
                expected
                    .omitted
                    .push((file.clone(), read as u64, Reason::OverBudget, Vec::new()));
                chosen = Some(file);
                continue;
            }
            expected.files.push((file.clone(), content));
            chosen = Some(file);
        }
    }
    if failures.is_empty() {
        Ok(expected)
    } else {
        Err(failures)
    }
}

/// Whether a file at `path` of `len` bytes fits both budgets after the files `kept`.
fn fits(
    config: &Config,
    kept: &[(Vec<u8>, Vec<u8>)],
    path: &[u8],
    len: u128,
    ends_in_newline: bool,
) -> bool {
    let spent: u128 = kept.iter().map(|(_, content)| content.len() as u128).sum();
    let files_fit = config
        .budget
        .is_none_or(|budget| spent + len <= u128::from(budget));
    let mut rendered: Vec<(&[u8], u128, bool)> = kept
        .iter()
        .map(|(p, c)| (p.as_slice(), c.len() as u128, c.ends_with(b"\n")))
        .collect();
    rendered.push((path, len, ends_in_newline));
    let rendering_fits = config
        .rendered_budget
        .is_none_or(|budget| rendered_len(&rendered) <= u128::from(budget));
    files_fit && rendering_fits
}
