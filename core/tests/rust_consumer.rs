//! A Rust program that depends on the core builds no C library and runs no cbindgen (issue 10):
//! the core's dependency graph, as cargo resolves it for a dependent, holds neither the C-ABI
//! package nor a build-time code generator, and the core has no build script.

use std::path::Path;
use std::process::Command;

#[test]
fn depending_on_the_core_builds_no_c_library() {
    assert!(
        !Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("build.rs")
            .exists(),
        "the core has a build script"
    );
    // Built on Unix for Windows and run under Wine, the cargo that built this test is a Unix
    // program: Wine starts it, but gives no handle to wait on or read its output from.
    if cfg!(windows) && env!("CARGO").starts_with('/') {
        return eprintln!("skipped: cargo ({}) is a Unix program", env!("CARGO"));
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let output = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--edges",
            "normal,build",
            "--prefix",
            "none",
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .args(["--package", "agentsmd-core", "--format", "{p}"])
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tree = String::from_utf8(output.stdout).expect("cargo tree prints text");
    let packages: Vec<&str> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(packages.contains(&"agentsmd-core"), "{tree}");
    for unwanted in ["agentsmd", "cbindgen", "cc"] {
        assert!(
            !packages.contains(&unwanted),
            "{unwanted} is in the core's graph:\n{tree}"
        );
    }
}
