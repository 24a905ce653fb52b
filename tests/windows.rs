//! Windows, built here and run under Wine (docs/platforms.md; SPEC.md §8.2). For
//! x86_64-pc-windows-gnu, `cargo build` links the C library (`agentsmd.dll`, its import library
//! `libagentsmd.dll.a`, and `libagentsmd.a`) and the CLI with Debian's mingw-w64, and these tests
//! compile C test programs of `ffi-tests/` against `libagentsmd.a` with mingw and run them under
//! Wine, in the prefix `tools/wine/setup` makes; the CLI's and the core's own tests run under
//! Wine through `cargo test --target x86_64-pc-windows-gnu` (`.ci/run`).
//!
//! They need the Rust target (`rustup target add x86_64-pc-windows-gnu`), mingw-w64
//! (`gcc-mingw-w64-x86-64`) and Wine (`wine`). Where one is missing, each test says which on
//! stderr and passes; where `CI` is set, as when CI runs `.ci/run`, which installs them all, a
//! missing one fails the test instead.

mod cbuild;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use cbuild::{declared_functions, repo, succeeded, text, STRICT_C};

const TARGET: &str = "x86_64-pc-windows-gnu";
const CC: &str = "x86_64-w64-mingw32-gcc";

/// What the Rust standard library needs on Windows (`rustc --print native-static-libs`).
const NATIVE_LIBS: [&str; 5] = [
    "-lkernel32",
    "-lntdll",
    "-luserenv",
    "-lws2_32",
    "-ldbghelp",
];

/// What is missing for the Windows builds and runs, if anything.
fn missing() -> Option<String> {
    let libdir = Command::new(rustc())
        .args(["--print", "target-libdir", "--target", TARGET])
        .output()
        .ok()
        .map(|out| PathBuf::from(text(&out.stdout).trim()));
    if !libdir.is_some_and(|dir| dir.read_dir().is_ok_and(|mut d| d.next().is_some())) {
        return Some(format!("rustup target add {TARGET}"));
    }
    for (tool, package) in [(CC, "gcc-mingw-w64-x86-64"), ("wine", "wine")] {
        if Command::new(tool).arg("--version").output().is_err() {
            return Some(format!("{tool} (apt-get install {package})"));
        }
    }
    None
}

/// Whether `test` can run here: it fails under `CI` where something is missing, and is
/// skipped with a line on stderr elsewhere.
fn available(test: &str) -> bool {
    let Some(reason) = missing() else {
        return true;
    };
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: missing {reason}, which .ci/run installs"
    );
    let _ = writeln!(std::io::stderr(), "skipped {test}: missing {reason}");
    false
}

/// The rustc of the toolchain running this test: beside the `cargo` that runs it.
fn rustc() -> PathBuf {
    std::env::var_os("CARGO")
        .map(|cargo| Path::new(&cargo).with_file_name("rustc"))
        .filter(|rustc| rustc.is_file())
        .unwrap_or_else(|| "rustc".into())
}

/// The target directory of this `cargo test`, where the Windows build goes too.
fn target_dir() -> &'static Path {
    Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap()
}

/// The Windows build, once: the library with the test hooks, and the CLI; and the Wine prefix.
/// Returns `target/x86_64-pc-windows-gnu/debug`.
fn built() -> PathBuf {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        // Two builds: the test hooks are the library's alone.
        for package in [
            &["-p", "agentsmd", "--features", "test-hooks"][..],
            &["-p", "agentsmd-cli"],
        ] {
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let output = Command::new(cargo)
                .current_dir(repo())
                .arg("build")
                .args(package)
                .args(["--target", TARGET, "--target-dir"])
                .arg(target_dir())
                .output()
                .map_err(|err| format!("cargo: {err}"))?;
            if !output.status.success() {
                return Err(format!(
                    "cargo build {} --target {TARGET} failed ({}):\n{}",
                    package.join(" "),
                    output.status,
                    text(&output.stderr)
                ));
            }
        }
        succeeded(
            &mut Command::new(repo().join("tools/wine/setup")),
            "tools/wine/setup",
        );
        Ok(())
    });
    if let Err(err) = built {
        panic!("{err}");
    }
    target_dir().join(TARGET).join("debug")
}

/// mingw's C compiler with the flags of every C program here, the headers of `include` and
/// `ffi-tests` and the test hooks declared, compiling `ffi-tests/<name>.c` into `exe`; the
/// libraries to link follow.
fn mingw(name: &str, include: &Path, exe: &Path) -> Command {
    let mut command = Command::new(CC);
    command
        .args(STRICT_C)
        .arg("-I")
        .arg(include)
        .arg("-I")
        .arg(repo().join("ffi-tests"))
        .arg("-DAGENTSMD_TEST_HOOKS")
        .arg(repo().join("ffi-tests").join(format!("{name}.c")))
        .arg("-o")
        .arg(exe);
    command
}

/// Compiles `ffi-tests/<name>.c` for Windows with mingw, linked with the static library, into
/// `dir`.
fn compile(name: &str, dir: &Path) -> PathBuf {
    let exe = dir.join(format!("{name}.exe"));
    succeeded(
        mingw(name, &repo().join("include"), &exe)
            .arg(built().join("libagentsmd.a"))
            .args(NATIVE_LIBS)
            // winpthreads for the tests that start threads, linked in: no DLL to find.
            .args(["-static", "-lpthread"]),
        &format!("compiling ffi-tests/{name}.c for Windows"),
    );
    exe
}

/// Runs `exe` under Wine with `args`, failing unless it exits with status 0.
fn wine(exe: &Path, args: &[&Path]) -> std::process::Output {
    succeeded(
        Command::new(repo().join("tools/wine/run"))
            .arg(exe)
            .args(args),
        &format!("running {} under Wine", exe.display()),
    )
}

/// Compiles `ffi-tests/<name>.c` for Windows and runs it under Wine with the repository and a
/// fresh directory as arguments, as tests/ffi.rs runs it on Linux.
fn c_test(name: &str) {
    if !available(name) {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let exe = compile(name, temp.path());
    run_in(&exe, temp.path());
}

/// Runs the C test program `exe` under Wine with the repository and a fresh directory in `temp`
/// as arguments.
fn run_in(exe: &Path, temp: &Path) {
    let work = temp.join("work");
    std::fs::create_dir(&work).unwrap();
    wine(exe, &[repo(), &work]);
}

#[test]
fn memory_file_system_callbacks_under_wine() {
    c_test("memfs");
}

#[test]
fn a_file_system_that_answers_in_batches_under_wine() {
    c_test("batch");
}

#[test]
fn every_handle_refuses_every_other_type_under_wine() {
    c_test("handles");
}

#[test]
fn a_file_read_one_byte_per_call_costs_work_linear_in_its_size_under_wine() {
    c_test("pieces");
}

#[test]
fn every_declared_function_links_and_runs_under_wine() {
    c_test("symbols");
}

#[test]
fn many_threads_share_options_and_results_under_wine() {
    c_test("threads");
}

/// The names the DLL at `dll` exports, from its export table (`objdump -p`), and the DLL name
/// the table carries.
fn exports(dll: &Path) -> (String, BTreeSet<String>) {
    let out = succeeded(
        Command::new("x86_64-w64-mingw32-objdump")
            .arg("-p")
            .arg(dll),
        "objdump -p",
    );
    let table = text(&out.stdout);
    let table = &table[table.find("The Export Tables").expect("an export table")..];
    let name = table
        .lines()
        .find_map(|line| line.strip_prefix("Name "))
        .and_then(|line| line.split_whitespace().nth(1))
        .expect("the export table's name")
        .to_string();
    let names = table
        .lines()
        .skip_while(|line| !line.starts_with("[Ordinal/Name Pointer] Table"))
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split(']').nth(1))
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .collect();
    (name, names)
}

#[test]
fn make_install_puts_libagentsmd_dll_its_import_library_and_the_archive_in_place() {
    if !available("make install") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let stage = temp.path().join("stage");
    succeeded(
        Command::new("make")
            .current_dir(repo())
            .arg("install")
            .arg(format!("TARGET={TARGET}"))
            .arg(format!("BUILT={}", built().display()))
            .arg(format!("DESTDIR={}", stage.display()))
            .arg("PREFIX=/mingw64"),
        "make install for Windows",
    );
    let prefix = stage.join("mingw64");
    for file in [
        "bin/libagentsmd.dll",
        "lib/libagentsmd.dll.a",
        "lib/libagentsmd.a",
        "include/agentsmd.h",
        "lib/pkgconfig/agentsmd.pc",
    ] {
        assert!(prefix.join(file).is_file(), "{file} is not installed");
    }
    // The DLL is named libagentsmd.dll inside too, and exports the headers' functions, no more.
    let (name, exported) = exports(&prefix.join("bin/libagentsmd.dll"));
    assert_eq!(name, "libagentsmd.dll");
    let header = |path: &str| std::fs::read_to_string(repo().join(path)).unwrap();
    let headers = header("include/agentsmd.h") + &header("ffi-tests/agentsmd_test_hooks.h");
    let declared: BTreeSet<String> = declared_functions(&headers)
        .into_iter()
        .map(str::to_string)
        .collect();
    assert_eq!(exported, declared);
    // A program linked with the import library (-lagentsmd finds it before the archive) runs
    // with the DLL beside it.
    let exe = temp.path().join("symbols.exe");
    succeeded(
        mingw("symbols", &prefix.join("include"), &exe)
            .arg("-L")
            .arg(prefix.join("lib"))
            .arg("-lagentsmd"),
        "linking symbols.c with libagentsmd.dll.a",
    );
    let imports = succeeded(
        Command::new("x86_64-w64-mingw32-objdump")
            .arg("-p")
            .arg(&exe),
        "objdump -p",
    );
    assert!(text(&imports.stdout).contains("DLL Name: libagentsmd.dll"));
    std::fs::copy(
        prefix.join("bin/libagentsmd.dll"),
        temp.path().join("libagentsmd.dll"),
    )
    .unwrap();
    run_in(&exe, temp.path());
}

#[test]
fn faults_of_callbacks_under_wine() {
    c_test("faults");
}

// tree.c, errors.c, compose.c and structure.c are the OS path suites of Unix: their fixture
// holds a name Windows cannot hold (`c&"d"`), and they make links with symlink(2) and expect
// `/`-joined paths. Their rules run under Wine in the core's spec tests and the CLI's tests
// (`cargo test --target x86_64-pc-windows-gnu`), and the C ABI's Windows paths here:
#[test]
fn the_c_abi_takes_and_gives_windows_paths_under_wine() {
    c_test("windows");
}

#[test]
fn go_tests_pass_under_wine() {
    if !available("go") {
        return;
    }
    if Command::new("go").arg("version").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "go is missing, which .ci/run needs"
        );
        let _ = writeln!(std::io::stderr(), "skipped go: no go on PATH");
        return;
    }
    built();
    succeeded(
        Command::new(repo().join("tools/go-windows"))
            .args([
                "test",
                "-count=1",
                "-tags",
                "agentsmd_system,agentsmd_test_hooks",
                ".",
            ])
            .env("CARGO_TARGET_DIR", target_dir())
            .env("GOTOOLCHAIN", "local")
            .env("GOPROXY", "off"),
        "tools/go-windows test",
    );
}
