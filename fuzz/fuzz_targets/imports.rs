//! `cargo fuzz run imports`: the check `model::targets::imports` on every input (see
//! core/tests/model/).
#![no_main]

#[path = "../../core/tests/model/mod.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|data: &[u8]| model::targets::imports(data));
