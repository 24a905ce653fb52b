//! Building and running C programs against the library, for the tests that do: the compiler
//! with the flags every C program here is held to, the static library this `cargo test` built,
//! and valgrind memcheck around each run.
//!
//! Valgrind is required. `AGENTSMD_SKIP_VALGRIND=1` runs the programs directly instead, for a
//! host without it.

// Each test file uses the helpers it needs; the rest would be dead code there.
#![allow(dead_code)]

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// The C compiler, with the flags every C program here is held to, writing into `dir`.
pub fn compiler(dir: &Path) -> cc::Tool {
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
pub fn compile(name: &str, dir: &Path) -> PathBuf {
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
pub fn run(exe: &Path, args: &[&Path]) {
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
pub fn check(output: &Output, what: &str) {
    assert!(
        output.status.success(),
        "{what} failed ({})\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
