//! The repository as a user meets it: `SPEC.md` is the behaviour of record it is said to be (the
//! shared copy, where there is one), the README's first screen installs every package, the
//! licences and the CHANGELOG are there for this version, and every link of the documentation
//! leads somewhere.

mod docs;

use std::collections::HashSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

fn repo() -> &'static Path {
    Path::new(REPO)
}

/// The spec the repository's SPEC.md copies. It is shared beside the checkout on the machines
/// this project is written on; a clone elsewhere has none, and then SPEC.md is the only copy.
#[test]
fn spec_md_is_the_shared_spec_byte_for_byte() {
    let shared = repo().join("../shared/SPEC.md");
    let ours = fs::read(repo().join("SPEC.md")).expect("SPEC.md is in the repository");
    match fs::read(&shared) {
        Ok(theirs) => assert!(
            ours == theirs,
            "SPEC.md differs from {}: copy it (`cp ../shared/SPEC.md SPEC.md`)",
            shared.display()
        ),
        Err(err) => println!(
            "skipped: no shared spec to compare SPEC.md with ({}: {err}); SPEC.md is the copy \
             of record here",
            shared.display()
        ),
    }
}

/// The README's first screen: under 250 lines, and an install line and an example for each
/// language, in the headings the install tests read them by (`tests/install/lib.sh`).
#[test]
fn readme_installs_every_package_in_one_line_and_an_example() {
    let readme = docs::read("README.md");
    let lines = readme.lines().count();
    assert!(
        lines < 250,
        "README.md has {lines} lines; the reference belongs in docs/"
    );
    for (heading, install, lang) in [
        ("npm", "npm install agentsmd", "js"),
        ("Python", "pip install agentsmd-loader", "python"),
        (
            "Go",
            "go get github.com/agentsmd/agentsmd/go/agentsmd@v",
            "go",
        ),
        ("Rust", "cargo add agentsmd-core", "rust"),
        ("C", "pkg-config --cflags --libs agentsmd", "c"),
    ] {
        let sh = docs::example("README.md", heading, "sh");
        assert!(
            sh.contains(install),
            "README.md's \"### {heading}\" installs with `{install}`:\n{sh}"
        );
        let example = docs::example("README.md", heading, lang);
        assert!(
            example.lines().count() >= 3,
            "README.md's \"### {heading}\" has a {lang} example"
        );
    }
    let version = env!("CARGO_PKG_VERSION");
    for pinned in [
        format!("go/agentsmd@v{version}"),
        format!("agentsmd-{version}-"),
    ] {
        assert!(readme.contains(&pinned), "README.md names {pinned}");
    }
}

/// What every manifest's `license = "MIT OR Apache-2.0"` refers to, and a CHANGELOG entry for
/// the version being built.
#[test]
fn licences_and_changelog_are_there_for_this_version() {
    let mit = docs::read("LICENSE-MIT");
    assert!(mit.contains("Permission is hereby granted, free of charge"));
    let apache = docs::read("LICENSE-APACHE");
    assert!(apache.contains("Apache License\n                        Version 2.0, January 2004"));
    let changelog = docs::read("CHANGELOG.md");
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        changelog.contains(&format!("\n## [{version}] - ")),
        "CHANGELOG.md has no entry for {version}"
    );
}

/// The Markdown files whose links are checked: the README, `docs/` and the files beside the
/// README.
fn linked_pages() -> Vec<String> {
    let mut pages = docs::pages();
    for page in ["AGENTS.md", "BENCHMARKS.md", "CHANGELOG.md", "SECURITY.md"] {
        pages.push(page.to_string());
    }
    pages
}

/// Every relative link of the documentation leads to a file or directory of the repository, and
/// every `#fragment` to a heading of the page it names, as GitHub makes its anchors.
#[test]
fn every_link_of_the_docs_leads_somewhere() {
    let mut broken = Vec::new();
    for page in linked_pages() {
        let text = docs::read(&page);
        for target in links(&prose(&text)) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = match target.split_once('#') {
                Some((file, fragment)) => (file, Some(fragment)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                PathBuf::from(&page)
            } else {
                resolve(&page, file)
            };
            if !repo().join(&path).exists() {
                broken.push(format!("{page}: {target} (no {})", path.display()));
                continue;
            }
            if let Some(fragment) = fragment {
                let anchors = anchors(&docs::read(path.to_str().unwrap()));
                if !anchors.contains(fragment) {
                    broken.push(format!("{page}: {target} (no such heading)"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// `target`, a link in `page`, as a path from the repository's top.
fn resolve(page: &str, target: &str) -> PathBuf {
    let mut path = PathBuf::new();
    for component in Path::new(page).parent().unwrap().join(target).components() {
        match component {
            Component::ParentDir => {
                path.pop();
            }
            Component::CurDir => {}
            other => path.push(other),
        }
    }
    path
}

/// The lines of `markdown` outside its code blocks.
fn outside_code_blocks(markdown: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut fence: Option<&str> = None;
    for line in markdown.lines() {
        let ticks = line.len() - line.trim_start_matches('`').len();
        match fence {
            Some(open) if line.starts_with(open) && line.trim_matches('`').is_empty() => {
                fence = None
            }
            Some(_) => {}
            None if ticks >= 3 => fence = Some(&line[..ticks]),
            None => lines.push(line),
        }
    }
    lines
}

/// `markdown` without its code blocks and code spans, where a `](` is no link.
fn prose(markdown: &str) -> String {
    let mut prose = String::new();
    for line in outside_code_blocks(markdown) {
        // Code spans: every other run between backticks.
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                prose.push_str(part);
            }
        }
        prose.push('\n');
    }
    prose
}

/// The targets of the inline links `[text](target)` of `prose`.
fn links(prose: &str) -> Vec<String> {
    prose
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.find(')').map(|end| rest[..end].to_string()))
        .collect()
}

/// The anchors GitHub gives the headings of `markdown`: lowercase, punctuation dropped but `-`
/// and `_`, spaces made `-`, and `-1`, `-2`… after a repeated one.
fn anchors(markdown: &str) -> HashSet<String> {
    let mut anchors = HashSet::new();
    for line in outside_code_blocks(markdown) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        let Some(title) = line[hashes..].strip_prefix(' ').filter(|_| hashes > 0) else {
            continue;
        };
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = slug.clone();
        let mut n = 0;
        while !anchors.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{slug}-{n}");
        }
    }
    anchors
}

/// docs/sessions.md's Rust example is the doc test of `Session` (core/src/session.rs) word for
/// word, its hidden lines aside, so that `cargo test` runs what the page shows.
#[test]
fn docs_sessions_rust_example_is_the_session_doc_test() {
    let shown = docs::example("docs/sessions.md", "Rust", "rust");
    let source = fs::read_to_string(repo().join("core/src/session.rs")).unwrap();
    let doc: Vec<&str> = source
        .lines()
        .filter_map(|line| line.strip_prefix("///"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect();
    let start = doc.iter().position(|line| *line == "```").unwrap() + 1;
    let end = start + doc[start..].iter().position(|line| *line == "```").unwrap();
    let tested: String = doc[start..end]
        .iter()
        .filter(|line| !line.starts_with("# "))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_eq!(shown, tested, "docs/sessions.md's Rust example");
}
