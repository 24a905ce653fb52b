//! `agentsmd`, the command-line tool: the library's chain and rendering for people at a shell
//! and for scripts. `agentsmd --help` (in `args.rs`) is its manual.

mod args;
mod json;

use std::ffi::OsStr;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::ExitCode;

use agentsmd::{Chain, Options, Reason};
use args::{Args, Exit};

fn main() -> ExitCode {
    match args::parse(std::env::args_os().skip(1)) {
        Ok(args) => match run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("agentsmd: error: {message}");
                ExitCode::from(1)
            }
        },
        Err(Exit::Help) => print(args::HELP.as_bytes()),
        Err(Exit::Version) => print(format!("agentsmd {}\n", env!("CARGO_PKG_VERSION")).as_bytes()),
        Err(Exit::Usage(message)) => {
            eprintln!("agentsmd: usage error: {message} (see agentsmd --help)");
            ExitCode::from(2)
        }
    }
}

fn print(text: &[u8]) -> ExitCode {
    match io::stdout().write_all(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}

fn run(args: &Args) -> Result<(), String> {
    let path = args.path.clone().unwrap_or_else(|| b".".to_vec());
    let root = match &args.root {
        Some(root) => root.clone(),
        None => repository_root(&path)?,
    };
    let options = Options {
        names: args.names.clone(),
        root,
        extra: args.extra.clone(),
        max_bytes: args.max_bytes,
        budget: args.budget,
        rendered_budget: args.rendered_budget,
        fs: None,
        confine: args.confine,
    };
    let chain = agentsmd::chain(&path, &options).map_err(|e| e.to_string())?;
    let stdout = if args.json {
        json::object(&chain).into_bytes()
    } else {
        report_omitted(&chain);
        agentsmd::render(&chain.files)
    };
    let mut out = io::stdout().lock();
    out.write_all(&stdout)
        .and_then(|()| out.flush())
        .map_err(|e| format!("write stdout: {e}"))
}

/// The nearest ancestor of `path` (itself included) holding `.git`, a directory or a file (as
/// in a worktree or a submodule); `/` when there is none.
fn repository_root(path: &[u8]) -> Result<Vec<u8>, String> {
    let path = agentsmd::absolute(path).map_err(|e| e.to_string())?;
    let found = Path::new(OsStr::from_bytes(&path))
        .ancestors()
        .find(|dir| dir.join(".git").symlink_metadata().is_ok());
    Ok(found.map_or_else(|| b"/".to_vec(), |dir| dir.as_os_str().as_bytes().to_vec()))
}

/// One line on stderr per file found and left out. Paths are written as the bytes they are.
fn report_omitted(chain: &Chain) {
    let mut err = io::stderr().lock();
    for omitted in &chain.omitted {
        let mut line = b"agentsmd: omitted ".to_vec();
        line.extend_from_slice(&omitted.path);
        line.extend_from_slice(format!(" ({} bytes): ", omitted.size).as_bytes());
        match omitted.reason {
            Reason::OverBudget => line.extend_from_slice(b"over budget"),
            Reason::Shadowed => {
                line.extend_from_slice(b"shadowed by ");
                line.extend_from_slice(&omitted.by);
            }
            Reason::Escapes => line.extend_from_slice(b"escapes root"),
        }
        line.push(b'\n');
        // Nothing useful is left to do if stderr is gone.
        let _ = err.write_all(&line);
    }
}
