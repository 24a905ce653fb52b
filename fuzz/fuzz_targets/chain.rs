//! `cargo fuzz run chain`: the check `model::targets::chain` on every input (see core/tests/model/).
#![no_main]

#[path = "../../core/tests/model/mod.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|data: &[u8]| model::targets::chain(data));
