//! The C boundary (docs/security.md): what the library exports is exactly what the headers declare.
//!
//! No panic unwinds into C by construction: every export's body is the one macro
//! `boundary::export!` (src/boundary.rs), which runs it inside `catch_unwind`; the catching is
//! shown at run time by `agentsmd_test_panic` in ffi-tests/errors.c and by the panic injected
//! after every callback in ffi-tests/faults.c. What can still go wrong unseen is an export the
//! header does not describe, or a declaration the library lacks: this test compares the shared
//! library's dynamic symbols with the functions of `include/agentsmd.h` and the test-only
//! `ffi-tests/agentsmd_test_hooks.h`, and ffi-tests/symbols.c links every declared function.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::cbuild::{built_libraries, check, declared_functions, REPO};

/// The functions `library` exports: `nm -D --defined-only`, without the version nodes.
fn exported(library: &Path) -> Vec<String> {
    let output = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(library)
        .output()
        .expect("nm runs (binutils)");
    check(&output, "nm -D");
    let mut names: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                // `ADDRESS TYPE NAME`; absolute (A) entries name version nodes, not code.
                [_, kind, name] if kind != "A" => Some(name.to_string()),
                _ => None,
            },
        )
        .collect();
    names.sort();
    names
}

fn declared(header: &str) -> Vec<String> {
    let text = fs::read_to_string(Path::new(REPO).join(header)).unwrap();
    declared_functions(&text)
        .into_iter()
        .map(String::from)
        .collect()
}

#[test]
fn the_library_exports_what_the_headers_declare_and_nothing_else() {
    let shipped = declared("include/agentsmd.h");
    let hooks = declared("ffi-tests/agentsmd_test_hooks.h");
    assert!(shipped.len() > 20, "found only {shipped:?} in the header");
    assert!(
        hooks.iter().all(|hook| hook.starts_with("agentsmd_test_")),
        "{hooks:?}"
    );
    assert!(
        shipped.iter().all(|f| !f.starts_with("agentsmd_test_")),
        "a test hook is in the shipped header: {shipped:?}"
    );
    // The libraries `cargo test` built have the test hooks.
    let mut expected = [shipped, hooks].concat();
    expected.sort();
    assert_eq!(
        exported(&built_libraries().join("libagentsmd.so")),
        expected,
        "the library exports what the headers declare, no more"
    );
}
