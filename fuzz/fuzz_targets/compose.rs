//! `cargo fuzz run compose`: the check `model::targets::compose` on every input: the composition
//! options and `parse_nearest` (see core/tests/model/).
#![no_main]

#[path = "../../core/tests/model/mod.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|data: &[u8]| model::targets::compose(data));
