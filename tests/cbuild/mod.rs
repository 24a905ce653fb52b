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

/// The Zig release from PyPI that the Zig sources are written for and that gives the macOS SDK
/// stand-in; `.ci/run` installs it.
pub const ZIG: &str = "0.14.1";

/// The repository.
pub fn repo() -> &'static Path {
    Path::new(REPO)
}

/// `bytes` as text, for a message.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `command`, failing with its output unless it exits with status 0; `what` names it.
pub fn succeeded(command: &mut Command, what: &str) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|err| panic!("{what}: {err}"));
    check(&output, what);
    output
}

/// The flags every C program of the tests is compiled with: C11, and every warning an error.
pub const STRICT_C: [&str; 5] = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];

/// A compiler for this target that writes into `dir`, with the header's directory included and
/// every warning an error: the base of the C and the C++ compilers of the tests.
pub fn build(dir: &Path) -> cc::Build {
    let mut build = cc::Build::new();
    build
        .cargo_metadata(false)
        .cargo_warnings(false)
        .target(env!("AGENTSMD_TARGET"))
        .host(env!("AGENTSMD_TARGET"))
        .opt_level(0)
        .debug(true)
        .out_dir(dir)
        .include(Path::new(REPO).join("include"));
    // Every warning an error, for C and C++ alike; the C standard is the C compiler's.
    for flag in &STRICT_C[1..] {
        build.flag(flag);
    }
    build
}

/// The C compiler, with the flags every C program here is held to, writing into `dir`.
pub fn compiler(dir: &Path) -> cc::Tool {
    build(dir)
        .include(Path::new(REPO).join("ffi-tests"))
        .define("AGENTSMD_TEST_HOOKS", None)
        .flag(STRICT_C[0])
        .get_compiler()
}

/// Compiles and links `ffi-tests/<name>.c` into an executable in `dir`.
pub fn compile(name: &str, dir: &Path) -> PathBuf {
    link(name, &dir.join(name), &[])
}

/// Compiles `ffi-tests/<name>.c` with `flags` and links it with the static library into `exe`.
fn link(name: &str, exe: &Path, flags: &[&str]) -> PathBuf {
    let source = Path::new(REPO).join("ffi-tests").join(format!("{name}.c"));
    let output = compiler(exe.parent().unwrap())
        .to_command()
        .args(flags)
        .arg(&source)
        .arg("-o")
        .arg(exe)
        .arg(built_libraries().join("libagentsmd.a"))
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
    check(
        &output,
        &format!("compiling {} {}", source.display(), flags.join(" ")),
    );
    exe.to_path_buf()
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
            .arg(exe)
            // For what valgrind cannot run (openat2): the program checks it fails as it must.
            .env("AGENTSMD_UNDER_VALGRIND", "1");
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

/// The directory of the libraries this `cargo test` built, with the test hooks: the test
/// executable's own, target/<profile>/deps.
pub fn built_libraries() -> PathBuf {
    let dir = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    for name in ["libagentsmd.a", "libagentsmd.so"] {
        assert!(
            dir.join(name).exists(),
            "{} is missing: `cargo test` builds it",
            dir.join(name).display()
        );
    }
    dir
}

/// The CLI binary, `target/<profile>/agentsmd`: the workspace's `cli` crate builds it beside the
/// libraries' directory in the same `cargo test`, and this package does not build it.
pub fn cli_binary() -> PathBuf {
    let deps = std::env::current_exe().unwrap();
    let cli = deps.parent().unwrap().parent().unwrap().join("agentsmd");
    assert!(
        cli.is_file(),
        "{} is missing: the CLI is the workspace's cli crate; run `cargo test` at the \
         workspace root, which builds it",
        cli.display()
    );
    cli
}

/// Compiles `ffi-tests/<name>.c` into an executable in `dir` linked with `libs` but not with the
/// library: a host that loads the library at run time, so a direct call fails the link.
pub fn compile_host(name: &str, dir: &Path, libs: &[&str]) -> PathBuf {
    let source = Path::new(REPO).join("ffi-tests").join(format!("{name}.c"));
    let exe = dir.join(name);
    let output = compiler(dir)
        .to_command()
        .arg(&source)
        .arg("-o")
        .arg(&exe)
        .args(libs)
        .output()
        .expect("the C compiler runs");
    check(&output, &format!("compiling {}", source.display()));
    exe
}

/// The functions `header` declares: every `agentsmd_…(` outside a comment.
pub fn declared_functions(header: &str) -> Vec<&str> {
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
    names
}

/// Compiles `ffi-tests/<name>.c` with AddressSanitizer on the C side and links it with the
/// static library, into `dir/<name>-asan`. The Rust code is not instrumented, but every
/// allocation goes through the sanitizer's malloc, so C's misuse of what the library hands out
/// (a read past a byte string, a use after free, a double free) and leaks on both sides are
/// caught.
pub fn compile_asan(name: &str, dir: &Path) -> PathBuf {
    link(
        name,
        &dir.join(format!("{name}-asan")),
        &["-fsanitize=address", "-fno-omit-frame-pointer"],
    )
}

/// Runs an executable built by [`compile_asan`] with `args`, leak detection on, and checks that
/// it exits with status 0 (the sanitizer fails it on the first error, and at exit on a leak).
pub fn run_asan(exe: &Path, args: &[&Path]) {
    let output = Command::new(exe)
        .args(args)
        .env(
            "ASAN_OPTIONS",
            "detect_leaks=1:abort_on_error=0:exitcode=98:halt_on_error=1",
        )
        .output()
        .expect("the test program runs");
    check(&output, &format!("running {} under ASan", exe.display()));
}

/// Runs `exe` with `args` under valgrind's helgrind and checks that it exits with status 0: any
/// data race or lock misuse it reports fails the run. Valgrind's default suppressions (glibc's
/// own) apply; the library needs none of its own.
pub fn run_helgrind(exe: &Path, args: &[&Path]) {
    let output = Command::new("valgrind")
        .args(["--tool=helgrind", "--error-exitcode=99", "-q"])
        .arg(exe)
        .args(args)
        .output()
        .expect("valgrind runs (install it: `apt-get install valgrind`)");
    check(
        &output,
        &format!("running {} under helgrind", exe.display()),
    );
}
