//! Goose, block/goose at 0086ae65: `crates/goose/src/hints/load_hints.rs` (`load_hint_files`,
//! `find_git_root`, `get_local_directories`) with its default names.

use std::path::Path;

use super::{config_dir, project_names, project_root, root_down, Loader};
use crate::chain::{File, Reason, Source};
use crate::error::Error;
use crate::options::Options;

/// The hints files Goose reads by default, every one of each directory, in this order.
const NAMES: [&str; 2] = [".goosehints", "AGENTS.md"];

const GLOBAL_HEAD: &str = "\n### Global Hints\nThese are my global goose hints.\n";
const PROJECT_HEAD: &str =
    "### Project Hints\nThese are hints for working on the project in this directory.\n";

/// Each name in Goose's configuration directory (`~/.config/goose`), then each name of each
/// directory from the git root (the nearest ancestor holding `.git`) down to `cwd`, or of `cwd`
/// alone; each read as it is, one that is not UTF-8 or is empty left out.
pub(super) fn load(loader: &mut Loader, cwd: &Path, options: &Options) -> Result<(), Error> {
    let config = config_dir(options);
    if let Some(dir) = config.map(|config| config.join("goose")) {
        for name in NAMES {
            hint(loader, &dir.join(name), Source::Extra, &dir)?;
        }
    }
    let root = project_root(loader, cwd, options)?;
    // References lead no further out than the git root, or the working directory.
    let boundary = root.clone().unwrap_or_else(|| cwd.to_path_buf());
    let names = project_names(options, &NAMES);
    for dir in root_down(cwd, root.as_deref()) {
        for name in &names {
            hint(loader, &dir.join(name), Source::Chain, &boundary)?;
        }
    }
    Ok(())
}

/// The hints file `path` of `source`, its `@file` references expanded within `boundary`, when
/// it is a regular file that reads as UTF-8 and is not empty.
fn hint(loader: &mut Loader, path: &Path, source: Source, boundary: &Path) -> Result<(), Error> {
    let Some(size) = loader.file_size(path)? else {
        return Ok(());
    };
    let content = loader.read(path, size)?;
    let Ok(text) = String::from_utf8(content) else {
        loader.omit(path, size, Reason::Empty, None);
        return Ok(());
    };
    let mut expansion = Expansion {
        loader,
        boundary,
        visited: Vec::new(),
        operations: MAX_REFERENCE_OPERATIONS,
        output: MAX_EXPANDED_OUTPUT_BYTES,
    };
    let text = expansion.expand(&text, path, 0)?;
    match text.is_empty() {
        true => loader.omit(path, size, Reason::Empty, None),
        false => loader.give(path, text, source),
    }
    Ok(())
}

/// How deep references nest, how many are followed, and how many bytes they may add
/// (`import_files.rs`).
const MAX_DEPTH: usize = 3;
const MAX_REFERENCE_OPERATIONS: usize = 64;
const MAX_EXPANDED_OUTPUT_BYTES: usize = 1024 * 1024;
/// The longest text whose references are looked for.
const MAX_CONTENT_LENGTH: usize = 131_072;

/// The expansion of one hints file's `@file` references (`read_referenced_files`).
struct Expansion<'l, 'a, 'b> {
    loader: &'l Loader<'a>,
    /// The directory no reference leads out of: the git root, the working directory, or for a
    /// global file its own directory.
    boundary: &'b Path,
    /// The references being expanded, outermost first: none is expanded inside itself.
    visited: Vec<String>,
    operations: usize,
    output: usize,
}

impl Expansion<'_, '_, '_> {
    /// `text`, the file `path`'s, each reference replaced by the referenced file's text between
    /// `--- Content from R ---` and `--- End of R ---`; one that cannot be followed stays.
    fn expand(&mut self, text: &str, path: &Path, depth: usize) -> Result<String, Error> {
        let dir = path.parent().unwrap_or(path);
        let mut out = String::with_capacity(text.len());
        let mut cursor = 0;
        for (start, end) in references(text) {
            out.push_str(&text[cursor..start]);
            cursor = end;
            let reference = &text[start + 1..end];
            let exhausted = self.operations == 0;
            self.operations = self.operations.saturating_sub(1);
            let expanded = match depth >= MAX_DEPTH || exhausted {
                true => None,
                false => self.follow(reference, dir, depth)?,
            };
            out.push_str(expanded.as_deref().unwrap_or(&text[start..end]));
        }
        out.push_str(&text[cursor..]);
        Ok(out)
    }

    /// The expansion of `reference`, relative to `dir`; `None` when it is not followed: it is
    /// absolute, names `.git`, leads out of the boundary, is no regular file, is not UTF-8, is
    /// being expanded already, or would pass the output budget.
    fn follow(
        &mut self,
        reference: &str,
        dir: &Path,
        depth: usize,
    ) -> Result<Option<String>, Error> {
        let relative = Path::new(reference);
        let git = relative
            .components()
            .any(|c| c.as_os_str().eq_ignore_ascii_case(".git"));
        if relative.is_absolute() || git || self.visited.iter().any(|v| v == reference) {
            return Ok(None);
        }
        let joined = crate::path::absolute(dir.join(relative))?;
        if !joined.starts_with(self.boundary) {
            return Ok(None);
        }
        let Some(size) = self.loader.file_size(&joined)? else {
            return Ok(None);
        };
        let wrapper =
            format!("--- Content from {reference} ---\n\n--- End of {reference} ---").len();
        if wrapper.saturating_add(size as usize) > self.output {
            self.output = 0;
            return Ok(None);
        }
        let Ok(content) = String::from_utf8(self.loader.read(&joined, size)?) else {
            return Ok(None);
        };
        if wrapper + content.len() > self.output {
            self.output = 0;
            return Ok(None);
        }
        self.output -= wrapper + content.len();
        self.visited.push(reference.to_string());
        let expanded = self.expand(&content, &joined, depth + 1);
        self.visited.pop();
        Ok(Some(format!(
            "--- Content from {reference} ---\n{}\n--- End of {reference} ---",
            expanded?
        )))
    }
}

/// Where each `@` reference of `text` is, from its `@` to its end: Goose's pattern
/// `(?:^|\s)@(…)`, its three alternatives tried in order — a path with an extension, a word
/// with a capital first, a run holding a `.` or a `/` — each as long as it can be.
fn references(text: &str) -> Vec<(usize, usize)> {
    if text.len() > MAX_CONTENT_LENGTH {
        return Vec::new();
    }
    let in_path = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find('@').map(|at| from + at) {
        let after_space = text[..at]
            .chars()
            .next_back()
            .is_none_or(char::is_whitespace);
        let start = at + 1;
        let run = text[start..]
            .find(|c: char| !in_path(c))
            .map_or(text.len(), |n| start + n);
        let end = after_space
            .then(|| reference_end(&text[start..run]))
            .flatten();
        match end {
            Some(end) => {
                found.push((at, start + end));
                from = start + end;
            }
            None => from = start,
        }
    }
    found
}

/// The end of the reference at the start of `run` (a run of path characters), or `None`.
fn reference_end(run: &str) -> Option<usize> {
    let bytes = run.as_bytes();
    // A path and one or more extensions: the longest head that leaves `.` and an alphanumeric.
    let extension = (1..bytes.len()).rev().find(|&dot| {
        bytes[dot] == b'.' && bytes.get(dot + 1).is_some_and(u8::is_ascii_alphanumeric)
    });
    if let Some(mut end) = extension {
        while bytes.get(end) == Some(&b'.')
            && bytes.get(end + 1).is_some_and(u8::is_ascii_alphanumeric)
        {
            end += 1;
            while bytes.get(end).is_some_and(u8::is_ascii_alphanumeric) {
                end += 1;
            }
        }
        return Some(end);
    }
    if bytes.first().is_some_and(u8::is_ascii_uppercase) {
        let word = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-');
        return Some(1 + bytes[1..].iter().take_while(|b| word(b)).count());
    }
    bytes
        .iter()
        .any(|&b| b == b'.' || b == b'/')
        .then_some(bytes.len())
}

/// The global hints under their heading, then the project hints under theirs.
pub(super) fn render(files: &[File]) -> Vec<u8> {
    let texts = |source| {
        let parts: Vec<&[u8]> = files
            .iter()
            .filter(|file| file.source == source)
            .map(|file| &file.content[..])
            .collect();
        parts.join(&b"\n"[..])
    };
    let (global, project) = (texts(Source::Extra), texts(Source::Chain));
    let mut out = Vec::new();
    if files.iter().any(|file| file.source == Source::Extra) {
        out.extend_from_slice(GLOBAL_HEAD.as_bytes());
        out.extend_from_slice(&global);
    }
    if files.iter().any(|file| file.source == Source::Chain) {
        if !out.is_empty() {
            out.extend_from_slice(b"\n\n");
        }
        out.extend_from_slice(PROJECT_HEAD.as_bytes());
        out.extend_from_slice(&project);
    }
    out
}
