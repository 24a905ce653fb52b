//! Fault injection from C under valgrind (docs/security.md): `ffi-tests/faults.c` fails every
//! callback of a chain in turn, with an error, a "not found" and a panic inside the library, and
//! checks each run's outcome, closes and release; memcheck fails it on any leak or bad access.

use std::path::Path;

use crate::cbuild::{compile, run, REPO};

#[test]
fn every_callback_faulted_in_turn_errors_or_gives_the_spec_result() {
    let temp = tempfile::tempdir().unwrap();
    let exe = compile("faults", temp.path());
    run(&exe, &[Path::new(REPO), temp.path()]);
}
