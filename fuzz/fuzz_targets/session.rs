//! `cargo fuzz run session`: the check `model::targets::session` on every input: a session's
//! touches over an in-memory tree, each against a plain chain of its path (see
//! core/tests/model/).
#![no_main]

#[path = "../../core/tests/model/mod.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|data: &[u8]| model::targets::session(data));
