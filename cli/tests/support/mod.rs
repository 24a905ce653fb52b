//! What every test of the command line needs: the binary run in a directory, files written, and
//! output read as text.

use std::ffi::OsStr;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

/// The `agentsmd` this package builds, run in `dir` with `args`.
pub fn command(dir: &Path, args: &[impl AsRef<OsStr>]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_agentsmd"));
    command.args(args).current_dir(dir);
    command
}

pub fn agentsmd(dir: &Path, args: &[impl AsRef<OsStr>]) -> Output {
    command(dir, args).output().expect("agentsmd runs")
}

/// Writes `content` at `path`, making its directories.
pub fn write(path: &Path, content: impl AsRef<[u8]>) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that `out`, the run of `what`, is a usage error (SPEC.md §7): exit status 2, one line
/// on stderr that says so, nothing on stdout.
pub fn assert_usage_error(out: &Output, what: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
    assert!(
        stderr.starts_with("agentsmd: usage error: "),
        "{what}: {stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
    assert!(out.stdout.is_empty(), "{what}");
}

/// Standard base64 with padding, written out here so that the tests do not trust the encoder
/// they check.
pub fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, &b| n << 8 | u32::from(b)) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            out.push(if i <= chunk.len() {
                char::from(DIGITS[(n >> (18 - 6 * i) & 63) as usize])
            } else {
                '='
            });
        }
    }
    out
}
