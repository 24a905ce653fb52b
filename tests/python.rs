//! The Python package, `python/` (the PyPI distribution `agentsmd-loader`, import name
//! `agentsmd`; docs/python.md): its pytest suite, `python/tests`, run against the extension this
//! `cargo test` builds, laid out as pip installs a wheel — the package directory with the
//! extension inside it and the distribution's metadata beside it, in a directory of its own,
//! never the source tree — and the README's Python example held to `python/examples/readme.py`,
//! and docs/python.md's session example to `python/examples/session.py`, which the suite runs.
//!
//! It needs python3 (3.9 or newer) with pytest on PATH; a missing pytest fails the test, naming
//! what to install. The wheels themselves, built by maturin, are tested by
//! tests/install/python, which `pip install`s one into a fresh venv.

mod cbuild;
mod docs;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use cbuild::{cli_binary, repo, succeeded};

/// The target directory of this `cargo test`, where the extension's build goes too.
fn target_dir() -> &'static Path {
    Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap()
}

/// Builds the extension (`cargo build -p agentsmd-python`, the debug profile) and returns the
/// shared library.
fn build_extension() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    succeeded(
        Command::new(cargo)
            .args(["build", "--quiet", "-p", "agentsmd-python", "--target-dir"])
            .arg(target_dir())
            .current_dir(repo()),
        "cargo build -p agentsmd-python",
    );
    let name = if cfg!(target_os = "macos") {
        "lib_agentsmd.dylib"
    } else if cfg!(windows) {
        "_agentsmd.dll"
    } else {
        "lib_agentsmd.so"
    };
    target_dir().join("debug").join(name)
}

/// `site/` in `dir` as pip leaves it: `agentsmd/` with the package's files and the extension as
/// `_agentsmd.abi3.so` (`_agentsmd.pyd` on Windows), and the distribution's metadata.
fn install(dir: &Path) -> PathBuf {
    let site = dir.join("site");
    let package = site.join("agentsmd");
    fs::create_dir_all(&package).unwrap();
    for entry in fs::read_dir(repo().join("python/agentsmd")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            fs::copy(&path, package.join(path.file_name().unwrap())).unwrap();
        }
    }
    let extension = if cfg!(windows) {
        "_agentsmd.pyd"
    } else {
        "_agentsmd.abi3.so"
    };
    fs::copy(build_extension(), package.join(extension)).unwrap();
    let info = site.join("agentsmd_loader-0.1.0.dist-info");
    fs::create_dir_all(&info).unwrap();
    fs::write(
        info.join("METADATA"),
        "Metadata-Version: 2.1\nName: agentsmd-loader\nVersion: 0.1.0\n",
    )
    .unwrap();
    site
}

/// `site` before the caller's PYTHONPATH, which may be where pytest is (as .ci/as-user gives it).
fn python_path(site: &Path) -> std::ffi::OsString {
    let inherited = std::env::var_os("PYTHONPATH").unwrap_or_default();
    let paths = std::iter::once(site.to_path_buf()).chain(std::env::split_paths(&inherited));
    std::env::join_paths(paths).unwrap()
}

/// Copies the directory `from` to `to`, files and directories only.
fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            if path.file_name().unwrap() != "__pycache__" {
                copy_dir(&path, &target);
            }
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn python_package_passes_its_tests() {
    let has_pytest = Command::new("python3")
        .args(["-c", "import pytest"])
        .output()
        .is_ok_and(|out| out.status.success());
    assert!(
        has_pytest,
        "python3 with pytest is needed for the Python package's tests: `pip install pytest`"
    );
    let temp = tempfile::tempdir().unwrap();
    let site = install(temp.path());
    // The suite and the examples it runs, out of the checkout, as tests/install/python lays them.
    let suite = temp.path().join("suite");
    copy_dir(&repo().join("python/tests"), &suite.join("tests"));
    copy_dir(&repo().join("python/examples"), &suite.join("examples"));
    let out = succeeded(
        Command::new("python3")
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"])
            .current_dir(&suite)
            .env("PYTHONPATH", python_path(&site))
            .env("PYTHONDONTWRITEBYTECODE", "1")
            // The command line this `cargo test` built, for the suite's comparisons with it.
            .env("AGENTSMD_CLI", cli_binary()),
        "pytest python/tests against the extension built here",
    );
    let summary = String::from_utf8_lossy(&out.stdout);
    println!("{summary}");
    assert!(summary.contains(" passed"), "{summary}");
}

#[test]
fn readme_python_example_is_the_packages_example() {
    let example = fs::read_to_string(repo().join("python/examples/readme.py")).unwrap();
    assert_eq!(docs::example("README.md", "Python", "python"), example);
    assert_eq!(
        docs::example("README.md", "Python", "sh").trim(),
        "pip install agentsmd-loader"
    );
}

#[test]
fn docs_python_session_example_is_the_packages_example() {
    // python/tests/test_sessions.py runs the file; docs/python.md shows it word for word.
    shows_example("session.py");
}

#[test]
fn docs_python_rules_example_is_the_packages_example() {
    // python/tests/test_rules.py runs the file; docs/python.md shows it word for word.
    shows_example("rules.py");
}

/// Asserts that docs/python.md shows `python/examples/NAME` word for word.
fn shows_example(name: &str) {
    let example = fs::read_to_string(repo().join("python/examples").join(name)).unwrap();
    assert!(
        docs::blocks("docs/python.md", "python").contains(&example),
        "docs/python.md shows python/examples/{name} word for word"
    );
}
