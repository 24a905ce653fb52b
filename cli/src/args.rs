//! The command line: what `agentsmd --help` documents, parsed from `OsString`s so that paths
//! that are not UTF-8 pass through untouched.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::str::FromStr;
use std::vec;

use agentsmd_core::ffi_support::{self, check_fragment, check_name};
use agentsmd_core::{Error, Options, Preset, RuleDir, Transform};

/// What `agentsmd --help` prints: the options, the output and the exit statuses.
pub const HELP: &str = include_str!("../help.txt");

/// What the command line asks for: the chain's options (`--root` as given, to be checked or
/// discovered), and `--json`.
#[derive(Debug, Default)]
pub struct Args {
    pub path: Option<PathBuf>,
    pub options: Options,
    pub json: bool,
    /// With `--touch`, the paths touched after PATH, in order (SPEC §10).
    pub touches: Option<Vec<PathBuf>>,
}

/// What to do instead of a chain.
pub enum Exit {
    Help,
    Version,
    /// `--as list`: the presets' names, one a line.
    Presets,
    Usage(String),
}

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Args, Exit> {
    let mut parsed = Args::default();
    let options = &mut parsed.options;
    // The interpolator's values, `Some` as soon as one `--env` is given.
    let mut env = None;
    let mut args = Parser::new(args, "more than one PATH given");
    while let Some(flag) = args.next()? {
        match flag.as_str() {
            "-h" | "--help" => return Err(Exit::Help),
            "-V" | "--version" => return Err(Exit::Version),
            "--json" => parsed.json = args.switch()?,
            "--confine" => options.confine = args.switch()?,
            "--imports" => options.imports = args.switch()?,
            "--nearest" => options.nearest = args.switch()?,
            "--all-names" => options.all_names = args.switch()?,
            "--explain" => options.report = args.switch()?,
            // Every operand after it is touched too: `--touch a.rs b.rs`.
            "--touch" => {
                let touched = args.value()?;
                args.after.get_or_insert_with(Vec::new).push(touched);
            }
            "--root" => options.root = Some(args.directory()?),
            "--as" => match args.value()?.as_slice() {
                b"list" => return Err(Exit::Presets),
                name => options.preset = Some(preset(name)?),
            },
            "--home" => options.home = Some(args.directory()?),
            "--name" => options.names.push(args.checked(check_name)?),
            "--extra" => options.extra.push(path(args.value()?)),
            "--fragments" => options.fragments.push(args.checked(check_fragment)?),
            "--rules" => {
                let rules = RuleDir::parse(&args.value()?);
                options
                    .rules
                    .push(rules.map_err(|e| Exit::Usage(format!("--rules: {e}")))?);
            }
            "--overlay" => options.overlays.push(args.directory()?),
            "--env" => set_env(env.get_or_insert_with(HashMap::new), args.value()?)?,
            "--max-bytes" => options.max_bytes = args.bytes()?,
            "--budget" => options.budget = args.bytes()?,
            "--rendered-budget" => options.rendered_budget = args.bytes()?,
            "--import-depth" => options.import_depth = args.number("a count")?,
            "--max-imports" => options.max_imports = args.number("a count")?,
            _ => return Err(Exit::Usage(format!("unknown option {flag}"))),
        }
    }
    options.transform = env.map(Transform::interpolator);
    parsed.path = args.operand.map(path);
    parsed.touches = args
        .after
        .map(|touched| touched.into_iter().map(path).collect());
    if parsed.touches.is_some() && options.nearest {
        let why = "--nearest with --touch: a session gives each file as it newly applies";
        return Err(Exit::Usage(why.into()));
    }
    Ok(parsed)
}

/// The arguments of a command line (the chain's or `structure`'s), read one flag at a time.
#[derive(Default)]
pub struct Parser {
    rest: vec::IntoIter<Vec<u8>>,
    /// The one PATH or FILE: what does not start with `-`, `-` itself, and all after `--`.
    pub operand: Option<Vec<u8>>,
    /// Once set, where every later operand goes instead (the paths of `--touch`).
    pub after: Option<Vec<Vec<u8>>>,
    /// The usage error of a second operand.
    two_operands: &'static str,
    /// Once `--` is read, everything is an operand.
    operands_only: bool,
    /// The flag last read, and the value written after its `=` (`--cap=4096`), if any.
    flag: String,
    inline: Option<Vec<u8>>,
}

impl Parser {
    pub fn new(args: impl IntoIterator<Item = OsString>, two_operands: &'static str) -> Self {
        let rest: Vec<_> = args.into_iter().map(OsString::into_encoded_bytes).collect();
        Self {
            rest: rest.into_iter(),
            two_operands,
            ..Self::default()
        }
    }

    /// The next flag but `--`; `--` and the operand are read here.
    pub fn next(&mut self) -> Result<Option<String>, Exit> {
        while let Some(arg) = self.rest.next() {
            if self.operands_only || !arg.starts_with(b"-") || arg == b"-" {
                if let Some(after) = &mut self.after {
                    after.push(arg);
                } else if self.operand.replace(arg).is_some() {
                    return Err(Exit::Usage(self.two_operands.into()));
                }
                continue;
            }
            let (flag, inline) = match arg.iter().position(|&b| b == b'=') {
                Some(eq) if arg.starts_with(b"--") => (&arg[..eq], Some(arg[eq + 1..].to_vec())),
                _ => (&arg[..], None),
            };
            self.flag = String::from_utf8_lossy(flag).into_owned();
            self.inline = inline;
            match self.flag.as_str() {
                "--" => self.operands_only = self.switch()?,
                _ => return Ok(Some(self.flag.clone())),
            }
        }
        Ok(None)
    }

    /// `true` for the flag that takes no value, which `--flag=VALUE` gives it: a usage error.
    pub fn switch(&self) -> Result<bool, Exit> {
        match self.inline {
            Some(_) => Err(Exit::Usage(format!("{} takes no value", self.flag))),
            None => Ok(true),
        }
    }

    /// The flag's value: the one written after its `=`, else the next argument.
    pub fn value(&mut self) -> Result<Vec<u8>, Exit> {
        self.inline
            .take()
            .or_else(|| self.rest.next())
            .ok_or_else(|| Exit::Usage(format!("{} needs a value", self.flag)))
    }

    /// A `--root` or `--overlay` value: an empty one would mean `/` (a root) or the current
    /// directory (an overlay) to the core, never what a user typing `--root ""` (an unset
    /// variable, say) meant.
    pub fn directory(&mut self) -> Result<PathBuf, Exit> {
        let value = self.value()?;
        if value.is_empty() {
            let why = format!("{} needs a directory, not an empty value", self.flag);
            return Err(Exit::Usage(why));
        }
        Ok(path(value))
    }

    /// A `--name` or `--fragments` value that `check` takes; a bad one is a usage error.
    fn checked(&mut self, check: fn(&[u8]) -> Result<(), Error>) -> Result<Vec<u8>, Exit> {
        let value = self.value()?;
        check(&value).map_err(|e| Exit::Usage(e.to_string()))?;
        Ok(value)
    }

    /// A number of bytes; 0 is the default (the C API's and Go's zero value).
    pub fn bytes(&mut self) -> Result<Option<u64>, Exit> {
        let n = self.number("a number of bytes")?;
        Ok((n != 0).then_some(n))
    }

    /// A number, `what` to the user (for a count, 0 is the default: SPEC §5.4).
    fn number<T: FromStr>(&mut self, what: &str) -> Result<T, Exit> {
        let value = self.value()?;
        std::str::from_utf8(&value)
            .ok()
            .filter(|text| text.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|text| text.parse().ok())
            .ok_or_else(|| {
                let value = String::from_utf8_lossy(&value);
                Exit::Usage(format!("{} needs {what}, not {value:?}", self.flag))
            })
    }
}

/// The preset named `name`; another name is a usage error that lists them.
fn preset(name: &[u8]) -> Result<Preset, Exit> {
    let found = std::str::from_utf8(name).ok().and_then(Preset::from_name);
    found.ok_or_else(|| {
        let names = Preset::ALL.map(Preset::as_str).join(", ");
        let name = String::from_utf8_lossy(name);
        Exit::Usage(format!(
            "--as {name:?}: no such preset; the presets are {names} (--as list)"
        ))
    })
}

/// The path of an argument's bytes, or of a part of them split at an ASCII `=`.
pub fn path(value: Vec<u8>) -> PathBuf {
    ffi_support::path_from_bytes(value, "argument").expect("an OS string split at ASCII '='")
}

/// An `--env NAME=VALUE` or `--env NAME` value; `--env NAME` takes NAME's value from the
/// process environment, if it has one, as the interpolator never reads it (SPEC §5.5). A later
/// value of a NAME replaces an earlier one.
fn set_env(values: &mut HashMap<String, Vec<u8>>, value: Vec<u8>) -> Result<(), Exit> {
    let (name, value) = match value.iter().position(|&b| b == b'=') {
        Some(eq) => (&value[..eq], Some(value[eq + 1..].to_vec())),
        None => (&value[..], None),
    };
    // ASCII once checked.
    let name = String::from_utf8_lossy(name).into_owned();
    if !ffi_support::is_env_name(name.as_bytes()) {
        return Err(Exit::Usage(format!(
            "--env needs NAME=VALUE or NAME, NAME matching [A-Za-z_][A-Za-z0-9_]*, not {name:?}"
        )));
    }
    let value = value.or_else(|| std::env::var_os(&name).map(OsString::into_encoded_bytes));
    if let Some(value) = value {
        values.insert(name, value);
    }
    Ok(())
}
