//! `cargo fuzz run batched`: the check `model::targets::batched` on every input: a chain with
//! fragments and imports over a file system that answers in batches, against the same tree
//! asked one question at a time (see core/tests/model/).
#![no_main]

#[path = "../../core/tests/model/mod.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|data: &[u8]| model::targets::batched(data));
