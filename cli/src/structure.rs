//! `agentsmd structure FILE …` (SPEC.md §6, §7): FILE parsed, its skills resolved beside it,
//! and its bounded block printed, exactly those bytes, or `--json`'s one object.

use std::ffi::OsString;
use std::path::PathBuf;

use agentsmd_core::ffi_support;
use agentsmd_core::structure::{self, Block, BlockOptions, SkillOptions, Skills, Warning};
use agentsmd_core::Options;
use serde_json::{json, Value};

use crate::args::{self, classify, Arg, Exit};
use crate::{json, print, root_of, say, Failure};

/// What `agentsmd structure` is asked.
#[derive(Debug)]
pub struct Args {
    file: PathBuf,
    /// `None` (0 too): the default cap.
    cap: Option<u64>,
    /// `--skill`s, or an empty list for `--no-skills`; `None`: the front matter's.
    skills: Option<Vec<Vec<u8>>>,
    heading: Option<Vec<u8>>,
    preamble: Vec<u8>,
    location: Option<Vec<u8>>,
    max_bytes: Option<u64>,
    root: Option<PathBuf>,
    confine: bool,
    json: bool,
}

/// Parses the arguments after `structure`.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Args, Exit> {
    let mut file = None;
    let (mut cap, mut max_bytes, mut json) = (None, None, false);
    let (mut root, mut confine) = (None, false);
    let (mut heading, mut preamble, mut location) = (None, Vec::new(), None);
    let (mut skills, mut no_skills) = (Vec::new(), false);
    let mut args = args.into_iter().map(OsString::into_encoded_bytes);
    let mut only_files = false;
    while let Some(arg) = args.next() {
        let (flag, inline) = match classify(arg, only_files) {
            Arg::Operand(operand) => {
                if file.replace(operand).is_some() {
                    return Err(Exit::Usage("structure takes one FILE".into()));
                }
                continue;
            }
            Arg::Flag(flag, inline) => (flag, inline),
        };
        let takes_value = !matches!(
            flag.as_str(),
            "--" | "-h" | "--help" | "--no-skills" | "--json" | "--confine"
        );
        if inline.is_some() && !takes_value {
            return Err(Exit::Usage(format!("{flag} takes no value")));
        }
        let mut value = || args::value(&flag, inline.clone(), &mut args);
        match flag.as_str() {
            "--" => only_files = true,
            "-h" | "--help" => return Err(Exit::Help),
            "--json" => json = true,
            "--confine" => confine = true,
            "--root" => root = Some(args::directory(&flag, value()?)?),
            "--no-skills" => no_skills = true,
            "--skill" => skills.push(value()?),
            "--cap" => cap = args::bytes("--cap", &value()?)?,
            "--heading" => heading = Some(value()?),
            "--preamble" => preamble = value()?,
            "--where" => location = Some(value()?),
            "--max-bytes" => max_bytes = args::bytes("--max-bytes", &value()?)?,
            _ => return Err(Exit::Usage(format!("unknown option {flag} for structure"))),
        }
    }
    if no_skills && !skills.is_empty() {
        return Err(Exit::Usage(
            "--skill and --no-skills exclude each other".into(),
        ));
    }
    let file = file.ok_or_else(|| Exit::Usage("structure needs a FILE".into()))?;
    Ok(Args {
        file: args::path(file),
        cap,
        skills: (no_skills || !skills.is_empty()).then_some(skills),
        heading,
        preamble,
        location,
        max_bytes,
        root,
        confine,
        json,
    })
}

/// Prints the block of `args.file`, each warning and unknown skill a line on stderr; or, with
/// `--json`, the one object that holds them all.
pub fn run(args: &Args) -> Result<(), Failure> {
    let file = ffi_support::absolute(&args.file)?;
    let mut options = Options::new().confine(args.confine);
    options.root = args.root.clone();
    options.max_bytes = args.max_bytes;
    let root = root_of(&file, &options)?;
    if !ffi_support::is_within_root(&file, &root) {
        let message = [
            &b"structure "[..],
            file.as_os_str().as_encoded_bytes(),
            b" is outside root ",
            root.as_os_str().as_encoded_bytes(),
        ];
        return Err(Failure::Error(message.concat()));
    }
    options.root = Some(root);
    let document = structure::read(&file, &options)?;
    let mut skill_options = SkillOptions::default();
    skill_options.requested = args.skills.clone();
    let skills = document.resolve_skills(&skill_options, &options)?;
    let mut options = BlockOptions::default();
    options.cap = args
        .cap
        .map(|cap| usize::try_from(cap).unwrap_or(usize::MAX));
    if let Some(heading) = &args.heading {
        options.heading.clone_from(heading);
    }
    options.preamble.clone_from(&args.preamble);
    options.location.clone_from(&args.location);
    let block = structure::block(&document, &skills, &options)?;
    if args.json {
        return print(object(&document.warnings, &skills, &block).as_bytes());
    }
    for warning in document.warnings.iter().chain(&skills.warnings) {
        say(format!("warning: {warning}").as_bytes());
    }
    for name in &skills.unknown {
        say(&[
            &b"unknown skill \""[..],
            name,
            b"\" (no section or skills/NAME.md defines it)",
        ]
        .concat());
    }
    print(&block.text)
}

/// `--json`'s object (SPEC.md §7), on one line ending in a newline.
fn object(warnings: &[Warning], skills: &Skills, block: &Block) -> String {
    let names =
        |names: &[Vec<u8>]| -> Vec<Value> { names.iter().map(|n| json::bytes(n)).collect() };
    let resolved: Vec<Value> = skills
        .resolved
        .iter()
        .map(|skill| {
            let source = skill.source.as_str();
            json!({ "name": json::bytes(&skill.name), "source": source })
        })
        .collect();
    let dropped: Vec<Value> = block
        .dropped
        .iter()
        .map(|dropped| json!({ "title": json::bytes(&dropped.title), "bytes": dropped.bytes }))
        .collect();
    let warnings: Vec<String> = warnings
        .iter()
        .chain(&skills.warnings)
        .map(Warning::to_string)
        .collect();
    let object = json!({
        "block": json::bytes(&block.text),
        "requested": names(&skills.requested),
        "skills": resolved,
        "unknown": names(&skills.unknown),
        "dropped": dropped,
        "warnings": warnings,
    });
    format!("{object}\n")
}
