//! The command line: what `agentsmd --help` documents, parsed from `OsString`s so that paths
//! that are not UTF-8 pass through untouched.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::str::FromStr;

use agentsmd_core::ffi_support::{self, check_fragment, check_name};
use agentsmd_core::{Error, Options, Transform};

/// What `agentsmd --help` prints: the options, the output and the exit statuses, kept as plain
/// text beside the crate.
pub const HELP: &str = include_str!("../help.txt");

/// What the command line asks for: the chain's options as the core takes them (`--root` as
/// given, to be checked or discovered), and what only the command line has.
#[derive(Debug, Default)]
pub struct Args {
    pub path: Option<PathBuf>,
    pub options: Options,
    pub json: bool,
}

/// What to do instead of a chain.
pub enum Exit {
    Help,
    Version,
    Usage(String),
}

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Args, Exit> {
    let mut parsed = Args::default();
    let options = &mut parsed.options;
    // The interpolator's values, `Some` as soon as one `--env` is given.
    let mut env = None;
    let mut args = args.into_iter().map(OsString::into_encoded_bytes);
    let mut only_paths = false;
    while let Some(arg) = args.next() {
        let (flag, inline) = match classify(arg, only_paths) {
            Arg::Operand(operand) => {
                if parsed.path.replace(path(operand)).is_some() {
                    return Err(Exit::Usage("more than one PATH given".into()));
                }
                continue;
            }
            Arg::Flag(flag, inline) => (flag, inline),
        };
        let mut value = || value(&flag, inline.clone(), &mut args);
        match flag.as_str() {
            "-h" | "--help" => return Err(Exit::Help),
            "-V" | "--version" => return Err(Exit::Version),
            "--" | "--json" | "--confine" | "--imports" | "--nearest" | "--explain"
                if inline.is_some() =>
            {
                return Err(Exit::Usage(format!("{flag} takes no value")))
            }
            "--" => only_paths = true,
            "--json" => parsed.json = true,
            "--confine" => options.confine = true,
            "--imports" => options.imports = true,
            "--nearest" => options.nearest = true,
            "--explain" => options.report = true,
            "--root" => options.root = Some(directory(&flag, value()?)?),
            "--name" => options.names.push(checked(value()?, check_name)?),
            "--extra" => options.extra.push(path(value()?)),
            "--fragments" => options.fragments.push(checked(value()?, check_fragment)?),
            "--overlay" => options.overlays.push(directory(&flag, value()?)?),
            "--env" => set_env(env.get_or_insert_with(HashMap::new), value()?)?,
            "--max-bytes" => options.max_bytes = bytes(&flag, &value()?)?,
            "--budget" => options.budget = bytes(&flag, &value()?)?,
            "--rendered-budget" => options.rendered_budget = bytes(&flag, &value()?)?,
            "--import-depth" => options.import_depth = count(&flag, &value()?)?,
            "--max-imports" => options.max_imports = count(&flag, &value()?)?,
            _ => return Err(Exit::Usage(format!("unknown option {flag}"))),
        }
    }
    options.transform = env.map(Transform::interpolator);
    Ok(parsed)
}

/// An argument as both command lines (the chain's and `structure`'s) read it.
pub enum Arg {
    /// A PATH or FILE: what does not start with `-`, `-` itself, and everything after `--`.
    Operand(Vec<u8>),
    /// A flag, and the value written after its `=` (`--cap=4096`), if any.
    Flag(String, Option<Vec<u8>>),
}

/// What `arg` is; `operands_only` once `--` was read.
pub fn classify(arg: Vec<u8>, operands_only: bool) -> Arg {
    if operands_only || !arg.starts_with(b"-") || arg == b"-" {
        return Arg::Operand(arg);
    }
    let (flag, inline) = match arg.iter().position(|&b| b == b'=') {
        Some(eq) if arg.starts_with(b"--") => (arg[..eq].to_vec(), Some(arg[eq + 1..].to_vec())),
        _ => (arg, None),
    };
    Arg::Flag(String::from_utf8_lossy(&flag).into_owned(), inline)
}

/// The value of `flag`: the one written after its `=` (`inline`), else the next argument.
pub fn value(
    flag: &str,
    inline: Option<Vec<u8>>,
    rest: &mut impl Iterator<Item = Vec<u8>>,
) -> Result<Vec<u8>, Exit> {
    inline
        .or_else(|| rest.next())
        .ok_or_else(|| Exit::Usage(format!("{flag} needs a value")))
}

/// The path of an argument's bytes: an argument's own, or a part of one split at an ASCII `=`,
/// so always an OS string.
pub fn path(value: Vec<u8>) -> PathBuf {
    ffi_support::path_from_bytes(value, "argument").expect("an OS string split at ASCII '='")
}

/// A `--root` or `--overlay` value: an empty one would mean `/` (a root) or the current
/// directory (an overlay) to the core, which is never what a user typing `--root ""` (an unset
/// variable, say) meant.
pub fn directory(flag: &str, value: Vec<u8>) -> Result<PathBuf, Exit> {
    if value.is_empty() {
        return Err(Exit::Usage(format!(
            "{flag} needs a directory, not an empty value"
        )));
    }
    Ok(path(value))
}

/// A `--name` or `--fragments` value, refused here if `check`, the library's own, refuses it: it
/// is a bad value, a usage error, not a failure of the walk.
fn checked(value: Vec<u8>, check: fn(&[u8]) -> Result<(), Error>) -> Result<Vec<u8>, Exit> {
    check(&value).map_err(|e| Exit::Usage(e.to_string()))?;
    Ok(value)
}

/// An `--env NAME=VALUE` or `--env NAME` value. `--env NAME` takes NAME's value from the
/// process environment, that one name only, and sets nothing when the environment lacks it:
/// the interpolator never reads the environment itself (SPEC.md §5.5). A later value of a
/// NAME replaces an earlier one.
fn set_env(values: &mut HashMap<String, Vec<u8>>, value: Vec<u8>) -> Result<(), Exit> {
    let (name, value) = match value.iter().position(|&b| b == b'=') {
        Some(eq) => (&value[..eq], Some(value[eq + 1..].to_vec())),
        None => (&value[..], None),
    };
    if !ffi_support::is_env_name(name) {
        return Err(Exit::Usage(format!(
            "--env needs NAME=VALUE or NAME, NAME matching [A-Za-z_][A-Za-z0-9_]*, not {:?}",
            String::from_utf8_lossy(name)
        )));
    }
    // Checked ASCII just now.
    let name = String::from_utf8_lossy(name).into_owned();
    let value = value.or_else(|| std::env::var_os(&name).map(OsString::into_encoded_bytes));
    if let Some(value) = value {
        values.insert(name, value);
    }
    Ok(())
}

/// A number of bytes; 0 is the default (the C API's and Go's zero value), as it always was here.
pub fn bytes(flag: &str, value: &[u8]) -> Result<Option<u64>, Exit> {
    number(flag, value, "a number of bytes").map(|n| (n != 0).then_some(n))
}

/// A count of `--import-depth` or `--max-imports`; 0 is the default (SPEC.md §5.4).
fn count(flag: &str, value: &[u8]) -> Result<u32, Exit> {
    number(flag, value, "a count")
}

fn number<T: FromStr>(flag: &str, value: &[u8], what: &str) -> Result<T, Exit> {
    std::str::from_utf8(value)
        .ok()
        .filter(|text| text.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|text| text.parse().ok())
        .ok_or_else(|| {
            Exit::Usage(format!(
                "{flag} needs {what}, not {:?}",
                String::from_utf8_lossy(value)
            ))
        })
}
