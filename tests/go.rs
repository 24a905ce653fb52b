//! The Go package, `go/agentsmd`: `gofmt`, `go vet` and `go test -race` against the header and
//! library this `cargo test` built, with the command line it built for the byte-for-byte
//! comparisons, the Go examples of `docs/` held to be the package's example tests, word for word,
//! and the README's Go program built and run against the package.
//!
//! Go must be on PATH. Nothing is fetched: the package imports the standard library alone, and
//! the toolchain on the machine is used whatever `go.mod` names.

mod cbuild;
mod docs;

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::UNIX_EPOCH;

use cbuild::{built_libraries, check, cli_binary, REPO};

fn package() -> PathBuf {
    Path::new(REPO).join("go").join("agentsmd")
}

/// The header and the static library this `cargo test` built (the library beside the test
/// executable, in target/<profile>/deps), as `include/agentsmd.h` and `lib/libagentsmd.a` in one
/// directory, for the package's `agentsmd_system` build to compile and link with. With no
/// libagentsmd.so beside it, `-lagentsmd` links statically, and the test binary needs nothing
/// at run time.
///
/// Go's build cache does not look at a header or library outside the package, only at the flags
/// naming them; the directory is named for both files' sizes and modification times, so that a
/// rebuilt library or header changes the flags and is used afresh, and unchanged ones reuse the
/// cache.
fn c_library() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let library = built_libraries().join("libagentsmd.a");
        let header = Path::new(REPO).join("include").join("agentsmd.h");
        let hooks = Path::new(REPO)
            .join("ffi-tests")
            .join("agentsmd_test_hooks.h");
        let mut key = String::new();
        for file in [&library, &header, &hooks] {
            let metadata = fs::metadata(file)
                .unwrap_or_else(|err| panic!("{}: {err}: `cargo test` builds it", file.display()));
            let modified = metadata
                .modified()
                .unwrap()
                .duration_since(UNIX_EPOCH)
                .unwrap();
            key += &format!("{}-{}-", metadata.len(), modified.as_nanos());
        }
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("go-link")
            .join(key.trim_end_matches('-'));
        for (from, to) in [
            (&header, "include/agentsmd.h"),
            (&hooks, "include/agentsmd_test_hooks.h"),
            (&library, "lib/libagentsmd.a"),
        ] {
            let to = dir.join(to);
            fs::create_dir_all(to.parent().unwrap()).unwrap();
            if let Err(err) = place(from, &to) {
                assert!(
                    err.kind() == ErrorKind::AlreadyExists,
                    "linking {}: {err}",
                    to.display()
                );
            }
        }
        dir
    })
}

/// `to`, a new name, standing for the file `from`: a symbolic link; a copy where links need a
/// privilege (Windows).
fn place(from: &Path, to: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::symlink(from, to);
    #[cfg(not(unix))]
    return fs::copy(from, to).map(drop);
}

/// `go` with `args`, run in the package with cgo pointed at this build's header and library
/// (for a build with `-tags agentsmd_system`; the default build ignores them).
fn go(args: &[&str]) -> Output {
    go_in(&package(), args)
}

/// `go` with `args`, run in `dir` as [`go`] runs it in the package.
fn go_in(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new("go");
    command
        .args(args)
        .current_dir(dir)
        .env("CGO_ENABLED", "1")
        .env(
            "CGO_CFLAGS",
            format!("-g -O2 -I{}", c_library().join("include").display()),
        )
        .env(
            "CGO_LDFLAGS",
            format!("-L{}", c_library().join("lib").display()),
        )
        .env("AGENTSMD_CLI", cli_binary())
        // No download of a toolchain or a module, ever.
        .env("GOTOOLCHAIN", "local")
        .env("GOPROXY", "off");
    // Go keeps its build cache under $HOME; a CI job may have none.
    let has = |var: &str| std::env::var_os(var).is_some_and(|v| !v.is_empty());
    if !has("HOME") && !has("GOCACHE") && !has("XDG_CACHE_HOME") {
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
        command
            .env("GOCACHE", tmp.join("go-cache"))
            .env("GOPATH", tmp.join("go-path"));
    }
    match command.output() {
        Ok(output) => output,
        Err(err) if err.kind() == ErrorKind::NotFound => panic!(
            "`go` is not on PATH: the Go tests need Go 1.21 or newer (https://go.dev/dl/) and a C \
             compiler for cgo"
        ),
        Err(err) => panic!("`go {}` does not run: {err}", args.join(" ")),
    }
}

/// Runs `go` with `args` (see [`go`]) and fails with its output unless it exits with status 0.
fn go_ok(args: &[&str]) {
    check(&go(args), &format!("go {}", args.join(" ")));
}

#[test]
fn go_tests_pass_under_the_race_detector() {
    // The default build links target/release, which `cargo test` does not build: the tests link
    // this build's library as an installed one, which has the test hooks that the tests built
    // with `agentsmd_test_hooks` read.
    go_ok(&[
        "test",
        "-tags=agentsmd_system,agentsmd_test_hooks",
        "-race",
        "-count=1",
        "./...",
    ]);
}

#[test]
fn go_vet_is_clean() {
    // Both builds: vet compiles the cgo code, which needs the header alone, not the library.
    go_ok(&["vet", "./..."]);
    go_ok(&["vet", "-tags=agentsmd_system,agentsmd_test_hooks", "./..."]);
}

#[test]
fn gofmt_is_clean() {
    // gofmt ships beside go in GOROOT/bin, which need not be on PATH.
    let goroot = go(&["env", "GOROOT"]);
    check(&goroot, "go env GOROOT");
    let gofmt = Path::new(String::from_utf8_lossy(&goroot.stdout).trim())
        .join("bin")
        .join("gofmt");
    let output = Command::new(&gofmt)
        .args(["-l", "."])
        .current_dir(package())
        .output()
        .unwrap_or_else(|err| panic!("{} does not run: {err}", gofmt.display()));
    check(&output, "gofmt -l .");
    assert!(
        output.stdout.is_empty(),
        "not gofmt-formatted (run `gofmt -w .` in go/agentsmd):\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn docs_go_examples_are_example_tests() {
    let examples: Vec<(String, String)> = docs::pages()
        .into_iter()
        .filter(|page| page != "README.md")
        .flat_map(|page| {
            let blocks = docs::blocks(&page, "go");
            blocks.into_iter().map(move |block| (page.clone(), block))
        })
        .collect();
    assert!(
        examples.len() >= 3,
        "docs/go.md and docs/batching.md have Go examples"
    );
    let tests: Vec<String> = test_files(&package())
        .iter()
        .map(|path| fs::read_to_string(path).unwrap())
        .collect();
    for (page, example) in examples {
        assert!(
            tests.iter().any(|test| test.contains(&example)),
            "this Go example in {page} is not, word for word, in a test file of go/agentsmd \
             or a package below it (whose `go test ./...` runs it):\n{example}"
        );
    }
}

/// The README's Go example, a program of its own module that requires the package (replaced by
/// this checkout's), builds with this build's library and prints what the CLI prints for the
/// directory it runs in with the library's default root (`/`).
#[test]
fn readme_go_example_prints_the_instructions_of_the_current_directory() {
    let temp = tempfile::tempdir().unwrap();
    let module = temp.path().join("app");
    fs::create_dir(&module).unwrap();
    fs::write(
        module.join("go.mod"),
        format!(
            "module example.com/app\n\ngo 1.21\n\n\
             require github.com/agentsmd/agentsmd/go/agentsmd v0.1.0\n\n\
             replace github.com/agentsmd/agentsmd/go/agentsmd => {}\n",
            package().display()
        ),
    )
    .unwrap();
    fs::write(
        module.join("main.go"),
        docs::example("README.md", "Go", "go"),
    )
    .unwrap();
    let exe = module.join("app");
    let exe_arg = exe.to_str().unwrap();
    let built = go_in(
        &module,
        &["build", "-tags=agentsmd_system", "-o", exe_arg, "."],
    );
    check(&built, "go build of the README's Go example");

    let work = temp.path().join("work");
    fs::create_dir(&work).unwrap();
    fs::write(work.join("AGENTS.md"), "Use tabs.\n").unwrap();
    let printed = Command::new(&exe).current_dir(&work).output().unwrap();
    check(&printed, "the README's Go example");
    let cli = Command::new(cli_binary())
        .args([".", "--root", "/"])
        .current_dir(&work)
        .output()
        .unwrap();
    check(&cli, "the CLI");
    assert_eq!(
        String::from_utf8_lossy(&printed.stdout),
        String::from_utf8_lossy(&cli.stdout)
    );
    assert!(String::from_utf8_lossy(&printed.stdout).contains("Use tabs.\n"));
}

/// The `_test.go` files of the package `dir` and of every package below it.
fn test_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(test_files(&path));
        } else if path.to_string_lossy().ends_with("_test.go") {
            files.push(path);
        }
    }
    files
}
