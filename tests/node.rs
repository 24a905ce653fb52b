//! The Node package, `node/` (node/README.md; issue 20): its tests, `node --test test/`, against
//! the addon built here with the test hooks and the command line this `cargo test` built, for
//! the byte-for-byte comparisons; and the typed example, `node/examples/typed.ts`, held to the
//! package's types by `tsc --noEmit`, so that the types cannot drift from the API. The types,
//! `index.d.ts`, are napi build's, written from the addon's Rust items (node/src).
//!
//! In `node/`: `npm ci` once (the build tool `@napi-rs/cli`, `typescript` and `@types/node`, as
//! the lock file pins them), then `napi build --features test-hooks` into this `cargo test`'s
//! target directory (the addon lands in `node/`, beside the `binding.js` that loads it), then the
//! two checks. They need Node 20 or newer and npm on PATH, and the npm registry or npm's cache
//! for `npm ci`. A missing Node or npm fails the test, naming what to install: the Node package
//! is tested as root and as a user who is not, as the Go package is.

mod cbuild;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use cbuild::{check, cli_binary, repo};

fn package() -> PathBuf {
    repo().join("node")
}

/// The target directory of this `cargo test`, where the addon's build goes too.
fn target_dir() -> &'static Path {
    Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap()
}

/// Fails `test` where Node or npm is not on PATH, naming what to install.
fn require_node(test: &str) {
    let missing = ["node", "npm"].into_iter().find(|tool| {
        !tool_command(tool)
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success())
    });
    if let Some(tool) = missing {
        panic!("{test}: `{tool}` is not on PATH; the Node package needs Node 20 or newer and npm");
    }
}

/// `tool` (node, npm, npx) run in the package, with npm's cache beside the build where there is
/// no home to keep it in (a CI job may have none).
fn tool_command(tool: &str) -> Command {
    // npm and npx are scripts (npm.cmd on Windows), which Command finds only by their full name.
    let program = if cfg!(windows) && tool != "node" {
        format!("{tool}.cmd")
    } else {
        tool.to_string()
    };
    let mut command = Command::new(program);
    command.current_dir(package());
    let has = |var: &str| std::env::var_os(var).is_some_and(|v| !v.is_empty());
    if !has("HOME") && !has("npm_config_cache") {
        command.env("npm_config_cache", target_dir().join("npm-cache"));
    }
    command
}

/// Runs `tool` with `args` in the package, failing with its output unless it exits with 0.
fn run(tool: &str, args: &[&OsStr]) {
    let mut command = tool_command(tool);
    command.args(args);
    let what = format!(
        "`{tool} {}` in node/",
        args.iter()
            .map(|arg| arg.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let output = command
        .output()
        .unwrap_or_else(|err| panic!("{what} does not run: {err}"));
    check(&output, &what);
}

/// The package's dependencies, once: `npm ci` from the lock file (`npm install` where there is
/// none yet, which writes it); and in node/bench the products the presets are compared with
/// (SPEC §12: `@google/gemini-cli-core` and `@mariozechner/pi-coding-agent` at their pinned
/// versions), which the preset tests import.
fn installed() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let install = match package().join("package-lock.json").is_file() {
            true => "ci",
            false => "install",
        };
        let npm = |args: &[&str]| {
            let flags = ["--no-audit", "--no-fund", "--prefer-offline"];
            let args: Vec<&OsStr> = args.iter().chain(&flags).map(OsStr::new).collect();
            run("npm", &args);
        };
        npm(&[install]);
        // Installed once: the unprivileged run of CI finds root's copy in its checkout, and
        // needs no registry.
        let pinned = |name: &str, version: &str| {
            let manifest = package()
                .join("bench/node_modules")
                .join(name)
                .join("package.json");
            let manifest = std::fs::read_to_string(manifest).unwrap_or_default();
            manifest.contains(&format!("\"version\": \"{version}\""))
        };
        let products = [
            ("@google/gemini-cli-core", "0.61.0"),
            ("@mariozechner/pi-coding-agent", "0.73.1"),
        ];
        if !products
            .iter()
            .all(|&(package, version)| pinned(package, version))
        {
            npm(&["ci", "--prefix", "bench"]);
        }
    });
}

/// The addon, once, built as the package's build script builds it (`napi build --platform --js
/// binding.js --dts index.d.ts`: the loader and the package's types) but in debug,
/// with the test hooks (`__testPanic`) and into this `cargo test`'s target directory:
/// `agentsmd.<platform>.node` in the package, beside `binding.js`, which loads it.
fn built() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        installed();
        let mut args = [
            "napi",
            "build",
            "--platform",
            "--js",
            "binding.js",
            "--dts",
            "index.d.ts",
            "--features",
            "test-hooks",
            "--target-dir",
        ]
        .map(OsStr::new)
        .to_vec();
        args.push(target_dir().as_os_str());
        run("npx", &args);
    });
}

#[test]
fn node_package_tests_pass() {
    require_node("node_package_tests_pass");
    built();
    let mut command = tool_command("node");
    command
        .args(["--test", "test/"])
        .env("AGENTSMD_CLI", cli_binary());
    let output = command
        .output()
        .unwrap_or_else(|err| panic!("`node --test test/` does not run: {err}"));
    check(&output, "`node --test test/` in node/");
}

#[test]
fn typed_example_type_checks() {
    require_node("typed_example_type_checks");
    // index.d.ts is the build's.
    built();
    run(
        "npx",
        &["tsc", "--noEmit", "-p", "examples"].map(OsStr::new),
    );
}
