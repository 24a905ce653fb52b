//! The fuzz targets' checks (`core/tests/model/targets.rs`) under plain `cargo test`: each on its seed
//! corpus (`../fuzz/corpus/<target>/`) and on a few thousand pseudo-random inputs from a fixed
//! seed, so that CI holds the library to the model without cargo-fuzz. The long runs are
//! `cargo fuzz run <target>` (see `fuzz/README.md`).

mod model;
mod support;

use std::fs;
use std::path::Path;

/// Pseudo-random inputs per target: enough to cover every decoder branch, quick in debug.
const RANDOM_INPUTS: usize = 4000;

/// Xorshift64: a deterministic stream, so that a failure here reproduces exactly.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A byte string of up to 255 bytes.
    fn bytes(&mut self) -> Vec<u8> {
        let len = (self.next() % 256) as usize;
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// Runs `check` on every file of `fuzz/corpus/<target>/` and on [`RANDOM_INPUTS`] pseudo-random
/// inputs, naming the input that failed.
fn smoke(target: &str, check: fn(&[u8])) {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut seeds = 0;
    for entry in fs::read_dir(&corpus).unwrap_or_else(|e| panic!("{}: {e}", corpus.display())) {
        let path = entry.unwrap().path();
        let data = fs::read(&path).unwrap();
        run(check, &data, &path.display().to_string());
        seeds += 1;
    }
    assert!(seeds > 0, "{} holds no seed", corpus.display());
    let mut random = Xorshift(0x9e37_79b9_7f4a_7c15 ^ target.len() as u64);
    for i in 0..RANDOM_INPUTS {
        let data = random.bytes();
        run(check, &data, &format!("pseudo-random input {i}"));
    }
}

fn run(check: fn(&[u8]), data: &[u8], what: &str) {
    if let Err(panic) = std::panic::catch_unwind(|| check(data)) {
        eprintln!("failing input ({what}): {data:?}");
        std::panic::resume_unwind(panic);
    }
}

#[test]
fn render_parses_back_to_the_same_files() {
    smoke("render", model::targets::render);
}

#[test]
fn fs_names_are_refused_exactly_as_valid_path_refuses() {
    smoke("fs_name", model::targets::fs_name);
}

#[test]
fn chain_over_any_tree_agrees_with_the_model() {
    smoke("chain", model::targets::chain);
}

#[test]
fn imports_of_any_tree_agree_with_the_model() {
    smoke("imports", model::targets::imports);
}

#[test]
fn structure_blocks_keep_whole_units_within_the_cap_and_name_every_unit_missing() {
    smoke("structure", model::targets::structure);
}

#[test]
fn composition_and_parse_nearest_of_any_tree_hold_their_invariants() {
    smoke("compose", model::targets::compose);
}

#[test]
fn batched_chains_of_any_tree_agree_with_single_questions() {
    smoke("batched", model::targets::batched);
}

#[test]
fn sessions_of_any_tree_give_what_a_chain_per_touch_gives_each_file_once() {
    smoke("session", model::targets::session);
}

#[test]
#[cfg(target_os = "linux")]
fn every_rule_here_holds_on_the_portable_path() {
    support::rerun_on_the_portable_path(&[]);
}

#[test]
#[cfg(unix)]
fn every_rule_here_holds_through_batches() {
    support::rerun_through_batches(&[]);
}
