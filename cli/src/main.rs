//! `agentsmd`, the command-line tool: the core's chain and rendering for people at a shell and
//! for scripts. `agentsmd --help` (in `args.rs`) is its manual.
//!
//! Nothing here can panic on a closed stream: stdout is written through [`print`], which turns a
//! closed reader into [`Failure::Closed`], and stderr through [`say`], which ignores a failure
//! (there is nowhere left to report it), so `agentsmd 2>&1 | head` ends quietly.

mod args;
mod json;
mod structure;

use std::ffi::OsString;
use std::fs;
use std::io::{self, ErrorKind, Write};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use agentsmd_core::ffi_support;
use agentsmd_core::{Chain, Options, Reason};
use args::{Args, Exit};

/// Why a run ends without success.
enum Failure {
    /// An error, said as `agentsmd: error: MESSAGE`; exit status 1.
    Error(Vec<u8>),
    /// A usage error; exit status 2.
    Usage(String),
    /// stdout's reader went away (`| head` is done): nothing is left to tell it, and saying so
    /// on stderr, often the same pipe, would be noise. Exit status 1, with no message.
    Closed,
}

impl From<agentsmd_core::Error> for Failure {
    fn from(error: agentsmd_core::Error) -> Self {
        Failure::Error(error.message().to_vec())
    }
}

fn main() -> ExitCode {
    let mut argv = std::env::args_os().skip(1).peekable();
    // `structure` is a subcommand only as the first argument (SPEC.md §6.4).
    let parsed = match argv.next_if_eq(&OsString::from("structure")) {
        Some(_) => structure::parse(argv).map(|args| structure::run(&args)),
        None => args::parse(argv).map(|args| run(&args)),
    };
    let outcome = match parsed {
        Ok(outcome) => outcome,
        Err(Exit::Help) => print(args::HELP.as_bytes()),
        Err(Exit::Version) => print(format!("agentsmd {}\n", env!("CARGO_PKG_VERSION")).as_bytes()),
        Err(Exit::Usage(message)) => Err(Failure::Usage(message)),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Error(message)) => {
            say(&[b"error: ", &message[..]].concat());
            ExitCode::from(1)
        }
        Err(Failure::Usage(message)) => {
            say(format!("usage error: {message} (see agentsmd --help)").as_bytes());
            ExitCode::from(2)
        }
        Err(Failure::Closed) => ExitCode::from(1),
    }
}

/// Writes `text` to stdout, all of it.
fn print(text: &[u8]) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(text)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            ErrorKind::BrokenPipe => Failure::Closed,
            _ => Failure::Error(format!("write stdout: {e}").into_bytes()),
        })
}

/// Writes `agentsmd: ` and `message` as one line on stderr, with [`escaped`] control bytes, so
/// that a path cannot add a line of its own or drive the terminal. A failure to write is
/// ignored: stderr is where it would be reported.
fn say(message: &[u8]) {
    let mut line = b"agentsmd: ".to_vec();
    escaped(message, &mut line);
    line.push(b'\n');
    let _ = io::stderr().write_all(&line);
}

/// Appends `bytes` to `out` with what could break a line or reach a terminal as a command
/// spelled out: `\n`, `\r`, `\t`, `\xHH` for the other ASCII control bytes and for a byte that
/// is not UTF-8, `\u{HHHH}` for a C1 control character, and `\\` for a backslash, so that the
/// escapes cannot be confused with the bytes they stand for. The rest is written as it is. On
/// Windows a backslash is a path's separator, which no name can hold, and is written as it is
/// (SPEC.md §8.2).
fn escaped(bytes: &[u8], out: &mut Vec<u8>) {
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' if !cfg!(windows) => out.extend_from_slice(b"\\\\"),
                '\n' => out.extend_from_slice(b"\\n"),
                '\r' => out.extend_from_slice(b"\\r"),
                '\t' => out.extend_from_slice(b"\\t"),
                c if c.is_ascii_control() => {
                    out.extend_from_slice(format!("\\x{:02x}", u32::from(c)).as_bytes())
                }
                c if c.is_control() => {
                    out.extend_from_slice(format!("\\u{{{:04x}}}", u32::from(c)).as_bytes())
                }
                c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            }
        }
        for byte in chunk.invalid() {
            out.extend_from_slice(format!("\\x{byte:02x}").as_bytes());
        }
    }
}

fn run(args: &Args) -> Result<(), Failure> {
    let path = ffi_support::absolute(args.path.as_deref().unwrap_or(Path::new(".")))?;
    let mut options = args.options.clone();
    let root = root_of(&path, &options)?;
    options.root = Some(root.clone());
    let chain = agentsmd_core::chain(&path, &options)?;
    report_skipped(&options.extra, &chain)?;
    if args.json {
        return print(json::object(&chain, options.imports, options.report).as_bytes());
    }
    report_omitted(&chain);
    if options.report {
        report_probes(&chain);
    }
    if chain.files.is_empty() && chain.omitted.is_empty() {
        let names = if options.names.is_empty() {
            agentsmd_core::DEFAULT_NAME.as_bytes().to_vec()
        } else {
            options.names.join(&b", "[..])
        };
        say(&[
            &b"no instruction file applies: looked for "[..],
            &names,
            b" from ",
            root.as_os_str().as_encoded_bytes(),
            b" down to ",
            path.as_os_str().as_encoded_bytes(),
        ]
        .concat());
    }
    print(&agentsmd_core::render(&chain.files))
}

/// The root of a run at `path` (absolute and clean): the explicit `--root` of `options`, else
/// the [`repository_root`]; `--confine` with the root `/` is a usage error.
fn root_of(path: &Path, options: &Options) -> Result<PathBuf, Failure> {
    let root = match &options.root {
        Some(root) => existing_root(root)?,
        None => repository_root(path),
    };
    if options.confine && root.parent().is_none() {
        return Err(Failure::Usage(format!(
            "--confine with the root {} confines nothing (no .git above PATH?): pass --root DIR",
            root.display()
        )));
    }
    Ok(root)
}

/// An explicit `--root`, absolute and clean as the core takes it, refused when it is no
/// directory: a mistyped root would otherwise walk nothing and print nothing, with success.
fn existing_root(root: &Path) -> Result<PathBuf, Failure> {
    let root = ffi_support::absolute(root)?;
    ffi_support::check_path_length(root.as_os_str().as_encoded_bytes(), "root")?;
    let refused = |why: &str| {
        Failure::Error(
            [
                b"root ",
                root.as_os_str().as_encoded_bytes(),
                b": ",
                why.as_bytes(),
            ]
            .concat(),
        )
    };
    match fs::metadata(&root) {
        Ok(metadata) if metadata.is_dir() => Ok(root),
        Ok(_) => Err(refused("not a directory")),
        Err(e) if e.kind() == ErrorKind::NotFound => Err(refused("not found")),
        // Any other failure (a permission denied) is the chain's to report, naming the path.
        Err(_) => Ok(root),
    }
}

/// The default root: the deepest directory on the way to `path` (absolute and clean; itself
/// included) that holds `.git`, a directory or a file (as in a worktree or a submodule); the
/// path's root (`/`, `C:\`) when there is none. The search goes down from that root one name at
/// a time and looks at each name without following it. It never follows a link that is the
/// directory it picks or lies below it (SPEC.md §7): a link is followed only to look below it
/// (a linked home directory, macOS's `/tmp`), never to pick the link itself, however its target
/// holds `.git` (a `vendor -> ../../other` in an unpacked archive); and a link met below a
/// `.git` is a link the repository holds, and ends the search there, so that nothing behind it
/// is looked at and `--confine` stats nothing outside the root it gets.
fn repository_root(path: &Path) -> PathBuf {
    let holds_git = |dir: &Path| dir.join(".git").symlink_metadata().is_ok();
    let is_root = |c: &Component| matches!(c, Component::Prefix(_) | Component::RootDir);
    let root: PathBuf = path.components().take_while(is_root).collect();
    let mut lexical = root.clone();
    let mut physical = root.clone();
    let mut found = holds_git(&physical).then(|| lexical.clone());
    for name in path.components().skip_while(is_root) {
        lexical.push(name);
        physical.push(name);
        let Ok(metadata) = physical.symlink_metadata() else {
            break; // nothing below a name that does not exist
        };
        if metadata.file_type().is_symlink() {
            if found.is_some() {
                break;
            }
            match fs::canonicalize(&physical) {
                Ok(target) => physical = target,
                Err(_) => break,
            }
            continue;
        }
        if holds_git(&physical) {
            found = Some(lexical.clone());
        }
    }
    found.unwrap_or(root)
}

/// One line on stderr per `--extra` file that was skipped because it does not exist: one that
/// exists is in the chain, or omitted, or the chain's error.
fn report_skipped(extra: &[PathBuf], chain: &Chain) -> Result<(), Failure> {
    for extra in extra {
        let extra = ffi_support::absolute(extra)?;
        let met = chain.files.iter().any(|file| file.path == extra)
            || chain.omitted.iter().any(|omitted| omitted.path == extra);
        if !met {
            say(&[
                b"skipped ",
                extra.as_os_str().as_encoded_bytes(),
                b": not found",
            ]
            .concat());
        }
    }
    Ok(())
}

/// One line on stderr per file found and left out (SPEC.md §5.8).
fn report_omitted(chain: &Chain) {
    for omitted in &chain.omitted {
        let why = match omitted.reason {
            Reason::OverBudget => "over budget",
            Reason::Escapes => "escapes root",
            Reason::Shadowed => "shadowed by ",
            Reason::Superseded => "superseded by ",
            Reason::Duplicate => "duplicate, imported by ",
            // A reason the core has gained since is said by its JSON word.
            reason => reason.as_str(),
        };
        // `by` is there for the reasons that name it (SPEC.md §1 "Omitted"), and only for them.
        let by = omitted.by.as_deref().unwrap_or(Path::new(""));
        say(&[
            &b"omitted "[..],
            omitted.path.as_os_str().as_encoded_bytes(),
            format!(" ({} bytes): {why}", omitted.size).as_bytes(),
            by.as_os_str().as_encoded_bytes(),
        ]
        .concat());
    }
}

/// With `--explain`, one line on stderr per place looked at, in the order looked at
/// (SPEC.md §5.8): `probe PATH (SOURCE): OUTCOME`, in the words of the JSON.
fn report_probes(chain: &Chain) {
    for probe in &chain.probes {
        say(&[
            &b"probe "[..],
            probe.path.as_os_str().as_encoded_bytes(),
            b" (",
            probe.source.as_str().as_bytes(),
            b"): ",
            probe.outcome.as_str().as_bytes(),
        ]
        .concat());
    }
}
