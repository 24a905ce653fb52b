//! A small model of SPEC.md, written for the tests from the spec's text and sharing nothing with
//! the library but its public types, and the checks that hold the library to it.
//!
//! Shared by the fuzz targets in `fuzz/` (which include this folder with `#[path]`) and by
//! `core/tests/fuzz_smoke.rs`, which runs every target's check on the seed corpus and on
//! pseudo-random inputs under plain `cargo test`, so CI needs no cargo-fuzz.
//!
//! - [`input`] turns any byte string into a test input (every byte string is one).
//! - [`memory`] is the in-memory file system both the library and the model read.
//! - [`spec`] is the model of SPEC.md §1 (the chain) over a custom file system.
//! - [`imports`] is the model of SPEC.md §5.4 (imports), stated apart from the library's.
//! - [`rendering`] is SPEC.md §2 read the other way: the length formula and a strict parser.
//! - [`structure`] is SPEC.md §6.3: which units a cap keeps, and the warning line read back.
//! - [`targets`] are the checks, one per fuzz target.

// Each user (a fuzz target, the smoke test) uses the part it needs.
#![allow(dead_code)]

pub mod imports;
pub mod input;
pub mod memory;
pub mod rendering;
pub mod spec;
pub mod structure;
pub mod targets;
