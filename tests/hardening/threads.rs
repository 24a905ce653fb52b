//! Threads (docs/security.md): `ffi-tests/threads.c` runs eight threads on shared options (an OS tree
//! and a thread-safe custom file system) and one shared result, and checks that every answer is
//! the one a single thread gets. Run here under helgrind, which fails it on any data race or lock
//! misuse it sees (10 iterations: helgrind is slow), and by `sanitizers.rs` under
//! AddressSanitizer (25).

use std::path::Path;

use crate::cbuild::{compile, run_helgrind, REPO};

#[test]
fn eight_threads_share_options_and_results_without_a_race() {
    let temp = tempfile::tempdir().unwrap();
    let exe = compile("threads", temp.path());
    let work = temp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    run_helgrind(&exe, &[Path::new(REPO), &work, Path::new("10")]);
}
