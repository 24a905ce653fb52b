//! What every test of the command line needs: the binary run in a directory, files written, and
//! output read as text.

// Each test file uses the helpers it needs; the rest would be dead code there.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `agentsmd` this package builds, run in `dir` with `args`.
pub fn command(dir: &Path, args: &[impl AsRef<OsStr>]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_agentsmd"));
    command.args(args).current_dir(dir);
    command
}

/// The run of `agentsmd` in `dir` with `args`, its output collected.
pub fn agentsmd(dir: &Path, args: &[impl AsRef<OsStr>]) -> Output {
    // Under Wine, a process now and then fails to start under load: its DLLs' initialisation
    // fails (STATUS_DLL_INIT_FAILED) before any of agentsmd ran, or Wine cannot create it at all
    // (ERROR_INTERNAL_ERROR). Such a run is made again.
    const DLL_INIT_FAILED: i32 = 0xC000_0142_u32 as i32;
    const INTERNAL_ERROR: i32 = 1359;
    let not_started = |out: &std::io::Result<Output>| {
        cfg!(windows)
            && match out {
                Ok(out) => out.status.code() == Some(DLL_INIT_FAILED),
                Err(error) => error.raw_os_error() == Some(INTERNAL_ERROR),
            }
    };
    let run = || command(dir, args).output();
    let mut out = run();
    for _ in 0..3 {
        if !not_started(&out) {
            break;
        }
        out = run();
    }
    out.expect("agentsmd runs")
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

/// How the command writes the OS path `path`: its elements joined by the OS's separator, `\` on
/// Windows (SPEC.md §8.2), where a test's `dir.join("a/b")` keeps the `/` it was given.
pub fn os_path(path: &Path) -> String {
    let path: PathBuf = path.components().collect();
    path.to_str().expect("a test's path is UTF-8").to_owned()
}

/// [`os_path`] as it stands inside a JSON string: a `\` escaped (no test's path holds a `"` or a
/// control character).
#[allow(dead_code)] // `structure`'s JSON holds no path
pub fn json_path(path: &Path) -> String {
    os_path(path).replace('\\', "\\\\")
}

/// Makes `link` a symbolic link to `target` (relative to the link's directory, `/`-separated,
/// or absolute), to a directory if `to_dir`, and fails the test where none is made. Only Unix
/// makes them here: Windows needs a privilege (Developer Mode) and Wine 8, which runs the
/// Windows tests here, says it made one and makes nothing. So on Windows a test of links is
/// ignored with this reason (`cargo test -- --ignored` runs it where links can be made), and the
/// link cases of other tests are left out there (`cfg!(unix)`): none passes with nothing checked.
pub fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>, to_dir: bool) {
    let (target, link) = (target.as_ref(), link.as_ref());
    #[cfg(unix)]
    {
        let _ = to_dir;
        std::os::unix::fs::symlink(target, link).unwrap();
    }
    #[cfg(windows)]
    {
        // A relative target with Windows's separator, which is how Windows resolves one.
        let target: PathBuf = target.components().collect();
        let made = match to_dir {
            true => std::os::windows::fs::symlink_dir(target, link),
            false => std::os::windows::fs::symlink_file(target, link),
        };
        made.unwrap_or_else(|e| panic!("symbolic link {}: {e}", link.display()));
        assert!(
            link.symlink_metadata()
                .is_ok_and(|metadata| metadata.file_type().is_symlink()),
            "no symbolic link was made at {}",
            link.display()
        );
    }
}
