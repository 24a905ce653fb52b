//! The C test suite: each program in `ffi-tests/` is compiled against `include/agentsmd.h`,
//! linked with the static library this `cargo test` built (with the `test-hooks` feature), and
//! run under valgrind memcheck, which fails it on any memory error or leak (see `cbuild`).

mod cbuild;
mod docs;

use std::fs;
use std::path::Path;

use cbuild::{check, compile, compiler, declared_functions, run, REPO};

/// Compiles `ffi-tests/<name>.c` and runs it with the repository and a fresh directory as
/// arguments.
fn c_test(name: &str) {
    let temp = tempfile::tempdir().unwrap();
    let exe = compile(name, temp.path());
    let work = temp.path().join("work");
    fs::create_dir(&work).unwrap();
    run(&exe, &[Path::new(REPO), &work]);
}

#[test]
fn tree_fixture_chain_budgets_render_and_golden() {
    c_test("tree");
}

#[test]
fn memory_file_system_callbacks() {
    c_test("memfs");
}

#[test]
fn a_file_system_that_answers_in_batches() {
    c_test("batch");
}

#[test]
fn every_error_kind_and_null_argument() {
    c_test("errors");
}

#[test]
fn composition_options_results_overlay_dir_and_every_import_error() {
    c_test("compose");
}

#[test]
fn sessions_touched_from_eight_threads_give_each_file_once() {
    c_test("session");
}

#[test]
fn a_cancelled_chain_stops_before_its_next_question() {
    c_test("cancel");
}

#[test]
fn every_handle_refuses_every_other_type() {
    c_test("handles");
}

#[test]
fn a_file_read_one_byte_per_call_costs_work_linear_in_its_size() {
    c_test("pieces");
}

#[test]
fn structure_documents_skills_and_blocks() {
    c_test("structure");
}

#[test]
fn every_declared_function_links() {
    // symbols.c must take the address of every function the headers declare.
    let symbols = fs::read_to_string(Path::new(REPO).join("ffi-tests/symbols.c")).unwrap();
    let header = |path: &str| fs::read_to_string(Path::new(REPO).join(path)).unwrap();
    let headers = header("include/agentsmd.h") + &header("ffi-tests/agentsmd_test_hooks.h");
    for name in declared_functions(&headers) {
        assert!(
            symbols.contains(&format!("(fn){name}")),
            "ffi-tests/symbols.c does not take the address of {name}"
        );
    }
    c_test("symbols");
}

#[test]
fn every_c_example_of_the_docs_compiles_against_the_header() {
    let examples: Vec<(String, String)> = docs::pages()
        .into_iter()
        .flat_map(|page| {
            let blocks = docs::blocks(&page, "c");
            blocks.into_iter().map(move |block| (page.clone(), block))
        })
        .collect();
    assert!(
        examples.len() >= 4,
        "the README and docs/c.md have C examples"
    );
    let temp = tempfile::tempdir().unwrap();
    for (i, (page, example)) in examples.iter().enumerate() {
        let source = temp.path().join(format!("example{i}.c"));
        fs::write(&source, example).unwrap();
        let output = compiler(temp.path())
            .to_command()
            .arg("-c")
            .arg(&source)
            .arg("-o")
            .arg(temp.path().join(format!("example{i}.o")))
            .output()
            .expect("the C compiler runs");
        check(
            &output,
            &format!("compiling a C example of {page}:\n{example}"),
        );
    }
}
