//! The examples of the documentation, for the tests that compile and run them: the README's
//! install examples and the reference pages of `docs/`, read as Markdown (fenced code blocks,
//! headings outside them), so that an example is tested where a reader finds it.

// Each test file uses the helpers it needs; the rest would be dead code there.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

/// The repository.
fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fenced code block: its language (the info string's first word) and its text.
pub struct Block {
    pub lang: String,
    pub text: String,
}

/// A line of a Markdown file: a heading outside any code block, or a whole code block.
enum Item {
    Heading { level: usize, title: String },
    Block(Block),
}

/// `markdown` as headings and code blocks, in order; prose is left out. A fence is three or more
/// backticks, closed by a line of at least as many and nothing else, so a ```` block may hold
/// ``` lines and `## ` lines inside a block are not headings.
fn items(markdown: &str) -> Vec<Item> {
    let mut items = Vec::new();
    let mut lines = markdown.lines();
    while let Some(line) = lines.next() {
        let ticks = line.len() - line.trim_start_matches('`').len();
        if ticks >= 3 {
            let fence = &line[..ticks];
            let lang = line[ticks..].split_whitespace().next().unwrap_or("");
            let mut text = String::new();
            for line in lines.by_ref() {
                if line.starts_with(fence) && line.trim_end().trim_start_matches('`').is_empty() {
                    break;
                }
                text.push_str(line);
                text.push('\n');
            }
            items.push(Item::Block(Block {
                lang: lang.to_string(),
                text,
            }));
        } else if let Some(title) = heading(line) {
            items.push(Item::Heading {
                level: line.len() - line.trim_start_matches('#').len(),
                title: title.to_string(),
            });
        }
    }
    items
}

/// The title of an ATX heading line (`# Title`, `## Title`, …).
fn heading(line: &str) -> Option<&str> {
    let hashes = line.len() - line.trim_start_matches('#').len();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    line[hashes..].strip_prefix(' ').map(str::trim)
}

/// The text of `file`, a path in the repository such as `README.md` or `docs/c.md`.
pub fn read(file: &str) -> String {
    let path = repo().join(file);
    fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// Every code block of `file` in `lang`, in order.
pub fn blocks(file: &str, lang: &str) -> Vec<String> {
    items(&read(file))
        .into_iter()
        .filter_map(|item| match item {
            Item::Block(block) if block.lang == lang => Some(block.text),
            _ => None,
        })
        .collect()
}

/// The first code block in `lang` of the section of `file` headed `title` (at any level), which
/// runs until the next heading of the same level or above.
pub fn example(file: &str, title: &str, lang: &str) -> String {
    let items = items(&read(file));
    let start = items
        .iter()
        .position(|item| matches!(item, Item::Heading { title: t, .. } if t == title))
        .unwrap_or_else(|| panic!("{file} has no heading \"{title}\""));
    let Item::Heading { level, .. } = items[start] else {
        unreachable!()
    };
    for item in &items[start + 1..] {
        match item {
            Item::Heading { level: l, .. } if *l <= level => break,
            Item::Block(block) if block.lang == lang => return block.text.clone(),
            _ => {}
        }
    }
    panic!("\"{title}\" in {file} has no {lang} example")
}

/// The documentation's Markdown files: the README and every page of `docs/`, as repository
/// paths.
pub fn pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    let mut docs: Vec<PathBuf> = fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(
        docs.iter()
            .map(|path| format!("docs/{}", path.file_name().unwrap().to_str().unwrap())),
    );
    pages
}
