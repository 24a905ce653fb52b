//! `agentsmd`, the command-line tool: the core's chain and rendering for people at a shell and
//! for scripts; `agentsmd --help` is its manual. Nothing here panics on a closed stream
//! ([`print()`], [`say`]), so `agentsmd 2>&1 | head` ends quietly.

mod args;
mod check;
mod json;
mod structure;

use std::ffi::OsString;
use std::fs;
use std::io::{self, ErrorKind, Write};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use agentsmd_core::ffi_support::{self, path_to_bytes};
use agentsmd_core::{Chain, Options, Preset, Reason, Session};
use args::{Args, Exit};

/// Why a run ends without success.
enum Failure {
    /// An error, said as `agentsmd: error: MESSAGE`; exit status 1.
    Error(Vec<u8>),
    /// A usage error; exit status 2.
    Usage(String),
    /// stdout's reader went away (`| head` is done): exit status 1, and nothing said on a stderr
    /// that is often the same pipe.
    Closed,
}

impl From<agentsmd_core::Error> for Failure {
    fn from(error: agentsmd_core::Error) -> Self {
        Failure::Error(error.message().to_vec())
    }
}

fn main() -> ExitCode {
    let mut argv = std::env::args_os().skip(1).peekable();
    // `structure` and `check` are subcommands only as the first argument (SPEC.md §6.4, §12).
    let parsed = if argv.next_if_eq(&OsString::from("structure")).is_some() {
        structure::parse(argv).map(|args| structure::run(&args))
    } else if argv.next_if_eq(&OsString::from("check")).is_some() {
        check::parse(argv).map(|args| check::run(&args))
    } else {
        args::parse(argv).map(|args| run(&args))
    };
    let outcome = match parsed {
        Ok(outcome) => outcome,
        Err(Exit::Help) => print(args::HELP.as_bytes()),
        Err(Exit::Version) => print(format!("agentsmd {}\n", env!("CARGO_PKG_VERSION")).as_bytes()),
        Err(Exit::Usage(message)) => Err(Failure::Usage(message)),
        Err(Exit::Presets) => {
            let lines =
                Preset::ALL.map(|preset| format!("{}\t{}\n", preset.as_str(), preset.product()));
            print(lines.concat().as_bytes())
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Error(message)) => {
            say(&[b"error: ", &message]);
            ExitCode::from(1)
        }
        Err(Failure::Usage(message)) => {
            say(&[format!("usage error: {message} (see agentsmd --help)").as_bytes()]);
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

/// Writes `agentsmd: ` and the concatenated `parts` as one line on stderr ([`line`]). A
/// failure to write is ignored: stderr is where it would be reported.
fn say(parts: &[&[u8]]) {
    let _ = io::stderr().write_all(line(parts).as_bytes());
}

/// `agentsmd: ` and the concatenated `parts` as one line, each control and each byte that is
/// not UTF-8 escaped (SPEC §7), and `\` too but on Windows, where no name holds it: a path
/// cannot add a line of its own or drive the terminal.
fn line(parts: &[&[u8]]) -> String {
    let mut line = String::from("agentsmd: ");
    for chunk in parts.concat().utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' if !cfg!(windows) => line.push_str("\\\\"),
                '\n' => line.push_str("\\n"),
                '\r' => line.push_str("\\r"),
                '\t' => line.push_str("\\t"),
                c if c.is_ascii_control() => line += &format!("\\x{:02x}", u32::from(c)),
                c if c.is_control() => line += &format!("\\u{{{:04x}}}", u32::from(c)),
                c => line.push(c),
            }
        }
        for byte in chunk.invalid() {
            line += &format!("\\x{byte:02x}");
        }
    }
    line.push('\n');
    line
}

/// Prints the chain at `args.path`, or with `--touch` the deltas of a session that touches it
/// and then each path given (SPEC §10); and on stderr each `--extra` skipped for not existing,
/// each file omitted and, with `--explain`, each place looked at (SPEC §5.8).
fn run(args: &Args) -> Result<(), Failure> {
    let path = ffi_support::absolute(args.path.as_deref().unwrap_or(Path::new(".")))?;
    let mut options = args.options.clone();
    if let Some(preset) = options.preset.filter(|_| args.touches.is_none()) {
        // A product finds its own root, unless `--root` says it.
        let chain = agentsmd_core::chain(&path, &options)?;
        for line in said(&chain, &options, &[], args.json, None)? {
            let _ = io::stderr().write_all(line.as_bytes());
        }
        let cwd = preset.working_dir(&path, &options)?;
        return match args.json {
            true => print(json::object(&chain, &options).as_bytes()),
            false => print(&preset.render(&chain, &cwd)),
        };
    }
    let root = match options.preset {
        // A session of a preset: the product's own walk, from the path's root unless given.
        Some(_) => match &options.root {
            Some(root) => ffi_support::absolute(root)?,
            None => path.ancestors().last().unwrap_or(&path).to_path_buf(),
        },
        None => root_of(&path, &mut options)?,
    };
    let Some(touches) = &args.touches else {
        let chain = agentsmd_core::chain(&path, &options)?;
        let none = (chain.files.is_empty() && chain.omitted.is_empty()).then_some((&*root, &*path));
        for line in said(&chain, &options, &options.extra, args.json, none)? {
            let _ = io::stderr().write_all(line.as_bytes());
        }
        return match args.json {
            true => print(json::object(&chain, &options).as_bytes()),
            false => print(&agentsmd_core::render(&chain.files)),
        };
    };
    let session = Session::new(options.clone())?;
    // Where a product reproduced from its source starts, which its first touch's piece names.
    let start = match options.preset.filter(|preset| !preset.is_documented()) {
        Some(preset) => Some((preset, preset.working_dir(&path, &options)?)),
        None => None,
    };
    let mut deltas = Vec::new();
    for touched in std::iter::once(&path).chain(touches) {
        let touched = ffi_support::absolute(touched)?;
        let delta = session.touch(&touched)?;
        deltas.push((touched, delta));
    }
    // Said only once every touch has succeeded: a failing one prints its error alone.
    let mut lines = Vec::new();
    let mut rendered = Vec::new();
    let mut extras = &options.extra[..];
    for (index, (touched, delta)) in deltas.iter().enumerate() {
        // The extras are given by the first touch inside root, which says the missing ones.
        let first_inside = !extras.is_empty() && ffi_support::is_within_root(touched, &root);
        let these = if first_inside { extras } else { &[] };
        lines.extend(said(delta, &options, these, args.json, None)?);
        if first_inside {
            extras = &[];
        }
        if args.json {
            continue;
        }
        match &start {
            // The product's start, then what it adds to its tool's result at each read.
            Some((preset, cwd)) if index == 0 => rendered.extend(preset.render(delta, cwd)),
            Some((preset, _)) => rendered.extend(preset.render_touch(&delta.files)),
            None if delta.files.is_empty() => {}
            None => {
                if !rendered.is_empty() {
                    rendered.push(b'\n');
                }
                rendered.extend(agentsmd_core::render(&delta.files));
            }
        }
    }
    for line in lines {
        let _ = io::stderr().write_all(line.as_bytes());
    }
    match args.json {
        true => {
            let deltas = deltas.iter().map(|(touched, delta)| (&**touched, delta));
            print(json::touches(deltas, &options).as_bytes())
        }
        false => print(&rendered),
    }
}

/// The stderr lines of `chain` (SPEC §7): each of `extras` skipped for not existing; without
/// `json`, each file omitted, each place looked at, and, with `none` (the root and path), that
/// no file applies.
fn said(
    chain: &Chain,
    options: &Options,
    extras: &[PathBuf],
    json: bool,
    none: Option<(&Path, &Path)>,
) -> Result<Vec<String>, Failure> {
    let mut lines = Vec::new();
    for extra in extras {
        // One that exists is in the chain, or omitted, or the chain's error.
        let extra = ffi_support::absolute(extra)?;
        let met = chain.files.iter().any(|file| file.path == extra)
            || chain.omitted.iter().any(|omitted| omitted.path == extra);
        if !met {
            lines.push(line(&[b"skipped ", path_to_bytes(&extra), b": not found"]));
        }
    }
    if json {
        return Ok(lines);
    }
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
        let file = path_to_bytes(&omitted.path);
        let size = format!(" ({} bytes): {why}", omitted.size);
        // `by` is there for the reasons that name it (SPEC §1 "Omitted"), and only for them.
        let by = omitted.by.as_deref().map_or(&b""[..], path_to_bytes);
        lines.push(line(&[b"omitted ", file, size.as_bytes(), by]));
    }
    for warning in &chain.warnings {
        lines.push(line(&[b"warning: ", warning.as_bytes()]));
    }
    for available in &chain.available {
        let name = format!(" ({})", available.name);
        let description = match available.description.as_str() {
            "" => String::new(),
            description => format!(": {description}"),
        };
        let (name, description) = (name.as_bytes(), description.as_bytes());
        lines.push(line(&[
            b"available ",
            path_to_bytes(&available.path),
            name,
            description,
        ]));
    }
    for probe in &chain.probes {
        let (source, outcome) = (probe.source.as_str(), probe.outcome.as_str());
        let how = format!(" ({source}): {outcome}");
        lines.push(line(&[
            b"probe ",
            path_to_bytes(&probe.path),
            how.as_bytes(),
        ]));
    }
    if let Some((root, path)) = none {
        let names = match options.names.is_empty() {
            true => agentsmd_core::DEFAULT_NAME.as_bytes().to_vec(),
            false => options.names.join(&b", "[..]),
        };
        lines.push(line(&[
            b"no instruction file applies: looked for ",
            &names,
            b" from ",
            path_to_bytes(root),
            b" down to ",
            path_to_bytes(path),
        ]));
    }
    Ok(lines)
}

/// The root of a run at `path` (absolute and clean), set as `options.root`: the explicit
/// `--root`, else the [`repository_root`]; `--confine` with the root `/` is a usage error.
fn root_of(path: &Path, options: &mut Options) -> Result<PathBuf, Failure> {
    let root = match &options.root {
        None => repository_root(path),
        Some(root) => {
            let root = ffi_support::absolute(root)?;
            ffi_support::check_path_length(path_to_bytes(&root), "root")?;
            // A mistyped root would otherwise walk nothing and print nothing, with success. Any
            // other failure (a permission denied) is the chain's to report, naming the path.
            let refused = match fs::metadata(&root) {
                Ok(metadata) if !metadata.is_dir() => Some("not a directory"),
                Err(e) if e.kind() == ErrorKind::NotFound => Some("not found"),
                _ => None,
            };
            if let Some(why) = refused {
                let message = [b"root ", path_to_bytes(&root), b": ", why.as_bytes()];
                return Err(Failure::Error(message.concat()));
            }
            root
        }
    };
    if options.confine && root.parent().is_none() {
        return Err(Failure::Usage(format!(
            "--confine with the root {} confines nothing (no .git above PATH?): pass --root DIR",
            root.display()
        )));
    }
    options.root = Some(root.clone());
    Ok(root)
}

/// The default root (SPEC §7): the deepest directory on the way to `path` (absolute and clean;
/// itself included) that holds `.git`, else the path's root. A link is followed only to look
/// below it (a linked home, macOS's `/tmp`), never picked, and a link below a `.git` ends the
/// search, so that `--confine` stats nothing outside the root it gets.
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
            match found.is_none().then(|| fs::canonicalize(&physical)) {
                Some(Ok(target)) => physical = target,
                _ => break,
            }
        } else if holds_git(&physical) {
            found = Some(lexical.clone());
        }
    }
    found.unwrap_or(root)
}
