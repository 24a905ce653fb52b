//! The C test suite: each program in `ffi-tests/` is compiled against `include/agentsmd.h`,
//! linked with the static library this `cargo test` built (with the `test-hooks` feature), and
//! run under valgrind memcheck, which fails it on any memory error or leak.
//!
//! Valgrind is required. `AGENTSMD_SKIP_VALGRIND=1` runs the programs directly instead, for a
//! host without it.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// The C compiler, with the flags every C program here is held to, writing into `dir`.
fn compiler(dir: &Path) -> cc::Tool {
    let repo = Path::new(REPO);
    cc::Build::new()
        .cargo_metadata(false)
        .cargo_warnings(false)
        .target(env!("AGENTSMD_TARGET"))
        .host(env!("AGENTSMD_TARGET"))
        .opt_level(0)
        .debug(true)
        .out_dir(dir)
        .include(repo.join("include"))
        .include(repo.join("ffi-tests"))
        .define("AGENTSMD_TEST_HOOKS", None)
        .flag("-std=c11")
        .flag("-Wall")
        .flag("-Wextra")
        .flag("-Wpedantic")
        .flag("-Werror")
        .get_compiler()
}

/// Compiles and links `ffi-tests/<name>.c` into an executable in `dir`.
fn compile(name: &str, dir: &Path) -> PathBuf {
    let source = Path::new(REPO).join("ffi-tests").join(format!("{name}.c"));
    // The test executable lives in target/<profile>/deps, beside the libraries this run built.
    let library = std::env::current_exe()
        .unwrap()
        .with_file_name("libagentsmd.a");
    assert!(
        library.exists(),
        "{} is missing: `cargo test` builds it",
        library.display()
    );
    let exe = dir.join(name);
    let output = compiler(dir)
        .to_command()
        .arg(&source)
        .arg("-o")
        .arg(&exe)
        .arg(&library)
        // What the Rust standard library needs (`rustc --print native-static-libs`).
        .args([
            "-lgcc_s",
            "-lutil",
            "-lrt",
            "-lpthread",
            "-lm",
            "-ldl",
            "-lc",
        ])
        .output()
        .expect("the C compiler runs");
    check(&output, &format!("compiling {}", source.display()));
    exe
}

/// Runs `exe` with `args` under valgrind memcheck (or directly, with AGENTSMD_SKIP_VALGRIND=1)
/// and checks that it exits with status 0.
fn run(exe: &Path, args: &[&Path]) {
    let mut command = if std::env::var_os("AGENTSMD_SKIP_VALGRIND").is_some_and(|v| v == "1") {
        Command::new(exe)
    } else {
        if let Err(err) = Command::new("valgrind").arg("--version").output() {
            assert!(
                err.kind() != ErrorKind::NotFound,
                "valgrind is not on PATH: install it (e.g. `apt-get install valgrind`), \
                 or set AGENTSMD_SKIP_VALGRIND=1 to run the C tests without it"
            );
            panic!("valgrind does not run: {err}");
        }
        let mut command = Command::new("valgrind");
        command
            .args([
                "--error-exitcode=99",
                "--leak-check=full",
                "--show-leak-kinds=definite,indirect,possible",
                "--errors-for-leak-kinds=definite,indirect,possible",
                "--track-fds=no",
                "-q",
            ])
            .arg(exe);
        command
    };
    let output = command.args(args).output().expect("the test program runs");
    check(&output, &format!("running {}", exe.display()));
}

/// Fails with the output of a process that did not exit with status 0.
fn check(output: &Output, what: &str) {
    assert!(
        output.status.success(),
        "{what} failed ({})\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

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
fn every_error_kind_and_null_argument() {
    c_test("errors");
}

#[test]
fn every_declared_function_links() {
    // symbols.c must take the address of every function the header declares.
    let header = fs::read_to_string(Path::new(REPO).join("include/agentsmd.h")).unwrap();
    let symbols = fs::read_to_string(Path::new(REPO).join("ffi-tests/symbols.c")).unwrap();
    for name in declared_functions(&header) {
        assert!(
            symbols.contains(&format!("(fn){name}")),
            "ffi-tests/symbols.c does not take the address of {name}"
        );
    }
    c_test("symbols");
}

/// The functions `header` declares: every `agentsmd_…(` outside a comment.
fn declared_functions(header: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for line in header.lines() {
        let code = line.trim_start();
        if code.starts_with("/*") || code.starts_with('*') || code.starts_with("//") {
            continue;
        }
        for (at, _) in code.match_indices("agentsmd_") {
            let rest = &code[at..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if rest[end..].starts_with('(') {
                names.push(&rest[..end]);
            }
        }
    }
    assert!(names.len() > 20, "found only {names:?} in the header");
    names
}

#[test]
fn readme_c_examples_compile_against_the_header() {
    let readme = fs::read_to_string(Path::new(REPO).join("README.md")).unwrap();
    let examples: Vec<&str> = readme
        .split("```c\n")
        .skip(1)
        .map(|block| &block[..block.find("```").expect("a closed code block")])
        .collect();
    assert!(!examples.is_empty(), "README.md has no C example");
    let temp = tempfile::tempdir().unwrap();
    for (i, example) in examples.iter().enumerate() {
        let source = temp.path().join(format!("readme{i}.c"));
        fs::write(&source, example).unwrap();
        let output = compiler(temp.path())
            .to_command()
            .arg("-c")
            .arg(&source)
            .arg("-o")
            .arg(temp.path().join(format!("readme{i}.o")))
            .output()
            .expect("the C compiler runs");
        check(
            &output,
            &format!("compiling README example {i}:\n{example}"),
        );
    }
}
