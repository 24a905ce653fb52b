//! `cargo fuzz run structure`: the check `model::targets::structure` on every input (see
//! core/tests/model/).
#![no_main]

#[path = "../../core/tests/model/mod.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|data: &[u8]| model::targets::structure(data));
