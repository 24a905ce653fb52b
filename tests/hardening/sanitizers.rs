//! The C suite under AddressSanitizer (docs/security.md), as well as under valgrind (tests/ffi.rs and
//! the other hardening tests): every program of `ffi-tests/` compiled with `-fsanitize=address`
//! on the C side and run with leak detection. Each catches what the other may miss: ASan sees
//! C's out-of-bounds accesses to stack and globals, which memcheck does not.

use std::path::Path;

use crate::cbuild::{compile_asan, run_asan, REPO};

/// Compiles `ffi-tests/<name>.c` with ASan and runs it with the repository and a fresh
/// directory as arguments.
fn asan(name: &str) {
    let temp = tempfile::tempdir().unwrap();
    let exe = compile_asan(name, temp.path());
    let work = temp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    run_asan(&exe, &[Path::new(REPO), &work]);
}

#[test]
fn tree_under_asan() {
    asan("tree");
}

#[test]
fn memfs_under_asan() {
    asan("memfs");
}

#[test]
fn errors_under_asan() {
    asan("errors");
}

#[test]
fn symbols_under_asan() {
    asan("symbols");
}

#[test]
fn faults_under_asan() {
    asan("faults");
}

#[test]
fn threads_under_asan() {
    asan("threads");
}

#[test]
fn handles_under_asan() {
    asan("handles");
}

#[test]
fn cancel_under_asan() {
    asan("cancel");
}

#[test]
fn compose_under_asan() {
    asan("compose");
}
