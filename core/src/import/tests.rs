//! One test per rule of SPEC.md §5.4 and §5.8, over an in-memory file system.

use std::cell::Cell;
use std::collections::HashMap;

use super::*;
use crate::error::ErrorKind;

/// What a name of the in-memory file system is.
enum Entry {
    File(Vec<u8>),
    Dir,
    Escapes,
}

/// Names to entries, counting the stats and reads asked.
#[derive(Default)]
struct Memory {
    entries: HashMap<Vec<u8>, Entry>,
    stats: Cell<usize>,
    reads: Cell<usize>,
}

impl Memory {
    fn with(files: &[(&str, &str)]) -> Self {
        let mut memory = Self::default();
        for (path, content) in files {
            memory.file(path, content);
        }
        memory
    }

    fn file(&mut self, path: &str, content: &str) {
        self.entries
            .insert(path.into(), Entry::File(content.as_bytes().to_vec()));
    }
}

impl ImportTargets for Memory {
    fn stat(&self, path: &[u8]) -> Result<Target, Error> {
        self.stats.set(self.stats.get() + 1);
        Ok(match self.entries.get(path) {
            Some(Entry::File(content)) => Target::File {
                size: content.len() as u64,
            },
            Some(Entry::Dir) => Target::NotAFile,
            Some(Entry::Escapes) => Target::Escapes,
            None => Target::NotFound,
        })
    }

    fn read(&self, path: &[u8], _: u64, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        self.reads.set(self.reads.get() + 1);
        Ok(match self.entries.get(path) {
            Some(Entry::File(content)) => {
                Some(content[..content.len().min(limit as usize)].to_vec())
            }
            _ => None,
        })
    }
}

const MAX: u64 = 1 << 20;

/// `top`'s expansion within scope `.`, with the default limits.
fn expand(memory: &Memory, top: &str) -> Result<Expansion, Error> {
    expand_in(&mut Imports::new(0, 0), memory, top, ".")
}

fn expand_in(
    imports: &mut Imports,
    memory: &Memory,
    top: &str,
    scope: &str,
) -> Result<Expansion, Error> {
    let Some(Entry::File(content)) = memory.entries.get(top.as_bytes()) else {
        panic!("{top} is no file of the test");
    };
    imports.expand(
        top.as_bytes(),
        content.clone(),
        scope.as_bytes(),
        memory,
        MAX,
    )
}

fn text(expansion: &Expansion) -> &str {
    std::str::from_utf8(&expansion.content).unwrap()
}

/// The message of an import error, checking its kind.
fn import_error(result: Result<Expansion, Error>) -> String {
    let error = result.expect_err("an import error");
    assert_eq!(error.kind(), ErrorKind::Import, "{error}");
    error.message().to_owned()
}

/// (path, by, line, depth, size, duplicate) of each import, as text.
fn provenance(expansion: &Expansion) -> Vec<(String, String, u64, u32, u64, bool)> {
    expansion
        .imports
        .iter()
        .map(|i| {
            (
                display(path::bytes(&i.path)),
                display(path::bytes(&i.by)),
                i.line,
                i.depth,
                i.size,
                i.duplicate,
            )
        })
        .collect()
}

#[test]
fn a_directive_line_is_replaced_by_its_targets_content() {
    let memory = Memory::with(&[
        ("AGENTS.md", "a\n@include docs/style.md\nb\n@docs/x\nc"),
        ("docs/style.md", "S\n"),
        ("docs/x", "X\n"),
    ]);
    let expansion = expand(&memory, "AGENTS.md").unwrap();
    assert_eq!(text(&expansion), "a\nS\nb\nX\nc");
}

#[test]
fn a_file_without_directives_is_returned_as_read() {
    let memory = Memory::with(&[("AGENTS.md", "@alice said\n```\n@a.md\n")]);
    let expansion = expand(&memory, "AGENTS.md").unwrap();
    assert_eq!(text(&expansion), "@alice said\n```\n@a.md\n");
    assert!(expansion.imports.is_empty());
    assert_eq!(memory.stats.get(), 0);
}

#[test]
fn a_target_is_expanded_against_its_own_directory_with_its_own_code_regions() {
    let memory = Memory::with(&[
        ("AGENTS.md", "@docs/a.md\n@b.md\n"),
        // An unclosed fence in the target hides nothing of the file that imports it.
        ("docs/a.md", "@../c.md\n```\n@c.md\n"),
        ("c.md", "C\n"),
        ("b.md", "B\n"),
    ]);
    let expansion = expand(&memory, "AGENTS.md").unwrap();
    assert_eq!(text(&expansion), "C\n```\n@c.md\nB\n");
}

#[test]
fn a_newline_is_added_after_content_that_lacks_one_when_the_directive_line_had_one() {
    let memory = Memory::with(&[
        ("AGENTS.md", "@a.md\n@e.md\n@a.md"),
        ("sub/AGENTS.md", "@../a.md"),
        ("a.md", "A"),
        ("e.md", ""),
    ]);
    let mut imports = Imports::new(0, 0);
    let top = expand_in(&mut imports, &memory, "AGENTS.md", ".").unwrap();
    // The empty target adds nothing, and the duplicate expands to nothing.
    assert_eq!(text(&top), "A\n");
    let last = expand_in(&mut imports, &memory, "sub/AGENTS.md", ".").unwrap();
    assert_eq!(text(&last), "A");
}

#[test]
fn a_crlf_directive_line_is_replaced_whole_and_the_added_newline_is_bare() {
    let memory = Memory::with(&[
        ("AGENTS.md", "x\r\n@a.md \r\n@b.md\r\ny\r\n"),
        ("a.md", "A"),
        ("b.md", "B\r\n"),
    ]);
    let expansion = expand(&memory, "AGENTS.md").unwrap();
    assert_eq!(text(&expansion), "x\r\nA\nB\r\ny\r\n");
}

#[test]
fn an_invalid_path_is_an_error() {
    for p in ["/etc/x.md", "~/x.md", "a\\b.md", "c:x.md", "a\0.md"] {
        let mut memory = Memory::default();
        memory.file("AGENTS.md", &format!("x\n@include {p}\n"));
        let message = import_error(expand(&memory, "AGENTS.md"));
        assert!(message.starts_with("AGENTS.md:2: "), "{message}");
        assert!(message.contains(&display(p.as_bytes())), "{message}");
        assert!(message.contains("invalid"), "{message}");
    }
}

#[test]
fn a_target_outside_the_scope_is_an_error() {
    let memory = Memory::with(&[("sub/AGENTS.md", "@../../x.md\n")]);
    let message = import_error(expand(&memory, "sub/AGENTS.md"));
    assert!(message.starts_with("sub/AGENTS.md:1: "), "{message}");
    assert!(message.contains("../../x.md"), "{message}");
    assert!(message.contains("outside"), "{message}");

    let memory = Memory::with(&[("sub/AGENTS.md", "@../x.md\n"), ("x.md", "")]);
    let message = import_error(expand_in(
        &mut Imports::new(0, 0),
        &memory,
        "sub/AGENTS.md",
        "sub",
    ));
    assert!(message.starts_with("sub/AGENTS.md:1: "), "{message}");
    assert!(
        message.contains("outside the import scope sub"),
        "{message}"
    );
}

#[test]
fn an_os_target_is_cleaned_lexically_and_checked_against_the_scope() {
    let memory = Memory::with(&[
        ("/r/AGENTS.md", "@./d/../x.md\n@../r/y.md\n"),
        ("/r/x.md", "X\n"),
        ("/r/y.md", "Y\n"),
        ("/e/AGENTS.md", "@../r/x.md\n"),
    ]);
    let mut imports = Imports::new(0, 0);
    let expansion = expand_in(&mut imports, &memory, "/r/AGENTS.md", "/r").unwrap();
    assert_eq!(text(&expansion), "X\nY\n");
    assert_eq!(expansion.imports[0].path, std::path::Path::new("/r/x.md"));
    // An extra file's scope is its own directory.
    let message = import_error(expand_in(&mut imports, &memory, "/e/AGENTS.md", "/e"));
    assert!(
        message.starts_with("/e/AGENTS.md:1: import /r/x.md: outside"),
        "{message}"
    );
}

#[test]
fn depth_counts_from_the_top_level_file_and_more_than_import_depth_is_an_error() {
    let memory = Memory::with(&[
        ("AGENTS.md", "@1.md\n"),
        ("1.md", "@2.md\n"),
        ("2.md", "@3.md\n"),
        ("3.md", "three\n"),
    ]);
    let expansion = expand_in(&mut Imports::new(3, 0), &memory, "AGENTS.md", ".").unwrap();
    assert_eq!(text(&expansion), "three\n");
    let depths: Vec<u32> = expansion.imports.iter().map(|i| i.depth).collect();
    assert_eq!(depths, [1, 2, 3]);

    let message = import_error(expand_in(
        &mut Imports::new(2, 0),
        &memory,
        "AGENTS.md",
        ".",
    ));
    assert!(message.starts_with("2.md:1: import 3.md: "), "{message}");
    assert!(message.contains("depth of 2"), "{message}");
}

#[test]
fn an_import_depth_of_zero_means_five() {
    let mut memory = Memory::with(&[("AGENTS.md", "@1.md\n")]);
    for depth in 1..6 {
        memory.file(&format!("{depth}.md"), &format!("@{}.md\n", depth + 1));
    }
    memory.file("6.md", "six\n");
    let message = import_error(expand(&memory, "AGENTS.md"));
    assert!(message.starts_with("5.md:1: import 6.md: "), "{message}");
    memory.file("5.md", "five\n");
    assert_eq!(text(&expand(&memory, "AGENTS.md").unwrap()), "five\n");
}

#[test]
fn a_cycle_is_an_error_naming_its_files_in_order() {
    let memory = Memory::with(&[
        ("AGENTS.md", "@a.md\n"),
        ("a.md", "@b.md\n"),
        ("b.md", "x\n@a.md\n"),
    ]);
    let message = import_error(expand(&memory, "AGENTS.md"));
    assert_eq!(
        message,
        "b.md:2: import a.md: an import cycle: a.md -> b.md -> a.md"
    );
}

#[test]
fn a_file_importing_its_top_level_file_is_a_cycle() {
    let memory = Memory::with(&[("AGENTS.md", "@./AGENTS.md\n")]);
    let message = import_error(expand(&memory, "AGENTS.md"));
    assert_eq!(
        message,
        "AGENTS.md:1: import AGENTS.md: an import cycle: AGENTS.md -> AGENTS.md"
    );
}

#[test]
fn a_duplicate_in_one_file_expands_to_nothing_and_is_reported_unread() {
    let memory = Memory::with(&[
        ("AGENTS.md", "@a.md\n@b.md\n@./a.md\n"),
        ("a.md", "A\n"),
        ("b.md", "@a.md\n"),
    ]);
    let expansion = expand(&memory, "AGENTS.md").unwrap();
    assert_eq!(text(&expansion), "A\n");
    assert_eq!(
        provenance(&expansion),
        [
            ("a.md".into(), "AGENTS.md".into(), 1, 1, 2, false),
            ("b.md".into(), "AGENTS.md".into(), 2, 1, 6, false),
            ("a.md".into(), "b.md".into(), 1, 2, 0, true),
            ("a.md".into(), "AGENTS.md".into(), 3, 1, 0, true),
        ]
    );
    assert_eq!(memory.reads.get(), 2);
}

#[test]
fn a_file_already_in_a_kept_file_is_a_duplicate() {
    let memory = Memory::with(&[
        ("AGENTS.md", "@a.md\n"),
        ("a.md", "A\n"),
        ("sub/AGENTS.md", "@../a.md\n@../AGENTS.md\n"),
    ]);
    let mut imports = Imports::new(0, 0);
    let root = expand_in(&mut imports, &memory, "AGENTS.md", ".").unwrap();
    imports.keep(b"AGENTS.md", &root.imports);
    let sub = expand_in(&mut imports, &memory, "sub/AGENTS.md", ".").unwrap();
    assert_eq!(text(&sub), "");
    assert!(sub.imports.iter().all(|i| i.duplicate && i.size == 0));
}

#[test]
fn the_imports_of_a_file_left_out_are_no_duplicates_but_count_as_reads() {
    let memory = Memory::with(&[
        ("AGENTS.md", "@a.md\n"),
        ("a.md", "A\n"),
        ("sub/AGENTS.md", "@../a.md\n"),
    ]);
    let mut imports = Imports::new(0, 1);
    // Expanded, then not kept (over budget, say).
    expand_in(&mut imports, &memory, "AGENTS.md", ".").unwrap();
    assert_eq!(imports.imported_by(b"a.md"), None);
    let message = import_error(expand_in(&mut imports, &memory, "sub/AGENTS.md", "."));
    assert!(
        message.starts_with("sub/AGENTS.md:1: import a.md: "),
        "{message}"
    );
    assert!(message.contains("more than 1 imports"), "{message}");
}

#[test]
fn a_top_level_file_imported_into_a_kept_file_names_the_file_that_imported_it() {
    let memory = Memory::with(&[
        ("AGENTS.md", "@docs/a.md\n"),
        ("docs/a.md", "@../sub/AGENTS.md\n"),
        ("sub/AGENTS.md", "S\n"),
    ]);
    let mut imports = Imports::new(0, 0);
    let root = expand_in(&mut imports, &memory, "AGENTS.md", ".").unwrap();
    assert_eq!(imports.imported_by(b"sub/AGENTS.md"), None);
    imports.keep(b"AGENTS.md", &root.imports);
    assert_eq!(
        imports.imported_by(b"sub/AGENTS.md"),
        Some(&b"docs/a.md"[..])
    );
    assert_eq!(imports.imported_by(b"AGENTS.md"), None);
}

#[test]
fn a_missing_target_is_an_error() {
    let memory = Memory::with(&[("AGENTS.md", "x\n\n@include missing.md\n")]);
    assert_eq!(
        import_error(expand(&memory, "AGENTS.md")),
        "AGENTS.md:3: import missing.md: not found"
    );
}

#[test]
fn a_target_gone_between_its_stat_and_its_read_is_not_found() {
    struct Vanishing;
    impl ImportTargets for Vanishing {
        fn stat(&self, _: &[u8]) -> Result<Target, Error> {
            Ok(Target::File { size: 1 })
        }
        fn read(&self, _: &[u8], _: u64, _: u64) -> Result<Option<Vec<u8>>, Error> {
            Ok(None)
        }
    }
    let result =
        Imports::new(0, 0).expand(b"AGENTS.md", b"@a.md\n".to_vec(), b".", &Vanishing, MAX);
    assert_eq!(import_error(result), "AGENTS.md:1: import a.md: not found");
}

#[test]
fn a_target_that_is_not_a_regular_file_is_an_error() {
    let mut memory = Memory::with(&[("AGENTS.md", "@docs/\n")]);
    memory.entries.insert(b"docs".to_vec(), Entry::Dir);
    assert_eq!(
        import_error(expand(&memory, "AGENTS.md")),
        "AGENTS.md:1: import docs: not a regular file"
    );
}

#[test]
fn a_target_leading_out_of_root_under_confine_is_an_error() {
    let mut memory = Memory::with(&[("/r/AGENTS.md", "@link.md\n")]);
    memory
        .entries
        .insert(b"/r/link.md".to_vec(), Entry::Escapes);
    let message = import_error(expand_in(
        &mut Imports::new(0, 0),
        &memory,
        "/r/AGENTS.md",
        "/r",
    ));
    assert_eq!(
        message,
        "/r/AGENTS.md:1: import /r/link.md: a symbolic link leads out of root"
    );
}

#[test]
fn a_failing_stat_keeps_its_kind_and_says_where_the_directive_is() {
    struct Failing;
    impl ImportTargets for Failing {
        fn stat(&self, path: &[u8]) -> Result<Target, Error> {
            Err(Error::fs("stat", path, "denied"))
        }
        fn read(&self, _: &[u8], _: u64, _: u64) -> Result<Option<Vec<u8>>, Error> {
            unreachable!("nothing is read after a failed stat")
        }
    }
    let error = Imports::new(0, 0)
        .expand(b"AGENTS.md", b"@a.md\n".to_vec(), b".", &Failing, MAX)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Fs);
    assert_eq!(error.message(), "AGENTS.md:1: stat a.md: denied");
}

#[test]
fn more_than_max_imports_reads_in_one_chain_is_an_error() {
    let memory = Memory::with(&[
        ("AGENTS.md", "@a.md\n@a.md\n@b.md\n"),
        ("a.md", "A\n"),
        ("b.md", "B\n"),
        ("sub/AGENTS.md", "@../c.md\n"),
        ("c.md", "C\n"),
    ]);
    let mut imports = Imports::new(0, 2);
    // The duplicate is no read.
    let root = expand_in(&mut imports, &memory, "AGENTS.md", ".").unwrap();
    imports.keep(b"AGENTS.md", &root.imports);
    assert_eq!(
        import_error(expand_in(&mut imports, &memory, "sub/AGENTS.md", ".")),
        "sub/AGENTS.md:1: import c.md: more than 2 imports in one chain (max_imports)"
    );
}

#[test]
fn max_imports_of_zero_means_sixty_four() {
    let mut listing = String::new();
    let mut memory = Memory::default();
    for i in 0..65 {
        listing.push_str(&format!("@{i}.md\n"));
        memory.file(&format!("{i}.md"), "");
    }
    memory.file("AGENTS.md", &listing);
    let message = import_error(expand(&memory, "AGENTS.md"));
    assert!(
        message.starts_with("AGENTS.md:65: import 64.md: more than 64"),
        "{message}"
    );
}

#[test]
fn a_target_reading_more_than_max_bytes_is_too_large_at_its_directive() {
    let memory = Memory::with(&[("AGENTS.md", "@a.md\n"), ("a.md", "12345")]);
    let error = Imports::new(0, 0)
        .expand(b"AGENTS.md", b"x\n@a.md\n".to_vec(), b".", &memory, 4)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TooLarge);
    assert_eq!(
        error.message(),
        "AGENTS.md:2: read a.md: file exceeds size limit of 4 bytes"
    );
    // Exactly max_bytes is fine, and the read asked for no more than one byte over.
    let at_limit = Imports::new(0, 0)
        .expand(b"AGENTS.md", b"@a.md\n".to_vec(), b".", &memory, 5)
        .unwrap();
    assert_eq!(at_limit.content, b"12345\n");
}

#[test]
fn checks_run_in_the_order_of_the_fine_points() {
    let memory = Memory::with(&[
        ("AGENTS.md", "@../x:y\n"),
        ("a.md", "@b.md\n"),
        ("b.md", "@a.md\n@missing.md\n"),
    ]);
    // Invalid before outside the scope.
    let message = import_error(expand(&memory, "AGENTS.md"));
    assert!(message.contains("invalid"), "{message}");

    let mut memory = memory;
    memory.file("AGENTS.md", "@../../missing.md\n");
    // Outside the scope before depth (a depth of 1 allows this one).
    let message = import_error(expand_in(
        &mut Imports::new(1, 0),
        &memory,
        "AGENTS.md",
        ".",
    ));
    assert!(message.contains("outside"), "{message}");

    // Depth before cycle: b.md's `@a.md` is at depth 3.
    memory.file("AGENTS.md", "@a.md\n");
    let message = import_error(expand_in(
        &mut Imports::new(2, 0),
        &memory,
        "AGENTS.md",
        ".",
    ));
    assert!(
        message.starts_with("b.md:1: import a.md: deeper"),
        "{message}"
    );

    // Cycle before duplicate: self.md is on the chain and in the result.
    memory.file("self.md", "@self.md\n");
    let mut imports = Imports::new(0, 0);
    let kept = Expansion {
        content: Vec::new(),
        imports: Vec::new(),
    };
    imports.keep(b"self.md", &kept.imports);
    let message = import_error(expand_in(&mut imports, &memory, "self.md", "."));
    assert!(message.contains("cycle"), "{message}");

    // Duplicate and not found before max_imports: at the count, neither reads.
    memory.file("AGENTS.md", "@a.md\n@missing.md\n");
    memory.file("a.md", "A\n");
    let mut imports = Imports::new(0, 1);
    let message = import_error(expand_in(&mut imports, &memory, "AGENTS.md", "."));
    assert_eq!(message, "AGENTS.md:2: import missing.md: not found");
    memory.file("AGENTS.md", "@a.md\n@a.md\n");
    assert!(expand_in(&mut Imports::new(0, 1), &memory, "AGENTS.md", ".").is_ok());
}

#[test]
fn imports_are_listed_in_pre_order() {
    let memory = Memory::with(&[
        ("AGENTS.md", "@a.md\n@c.md\n"),
        ("a.md", "x\n@b.md\n"),
        ("b.md", "B"),
        ("c.md", "C\n"),
    ]);
    let expansion = expand(&memory, "AGENTS.md").unwrap();
    assert_eq!(text(&expansion), "x\nB\nC\n");
    assert_eq!(
        provenance(&expansion),
        [
            ("a.md".into(), "AGENTS.md".into(), 1, 1, 8, false),
            ("b.md".into(), "a.md".into(), 2, 2, 1, false),
            ("c.md".into(), "AGENTS.md".into(), 2, 1, 2, false),
        ]
    );
}

#[test]
fn the_expansion_is_one_pass_over_the_text() {
    // 50,000 directives of one target and 50,000 lines of text: one read, every other
    // directive a duplicate, and the text copied once. Quadratic work would take minutes here.
    let mut top = String::new();
    for _ in 0..50_000 {
        top.push_str("@a.md\ntext\n");
    }
    let mut memory = Memory::with(&[("a.md", "A\n")]);
    memory.file("AGENTS.md", &top);
    let started = std::time::Instant::now();
    let expansion = expand(&memory, "AGENTS.md").unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(expansion.content.len(), 2 + 50_000 * 5);
    assert_eq!(expansion.imports.len(), 50_000);
    assert_eq!(memory.reads.get(), 1);
}
