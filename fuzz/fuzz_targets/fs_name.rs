//! `cargo fuzz run fs_name`: the check `model::targets::fs_name` on every input (see core/tests/model/).
#![no_main]

#[path = "../../core/tests/model/mod.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|data: &[u8]| model::targets::fs_name(data));
