//! `agentsmd structure FILE …` (SPEC.md §6, §7): FILE parsed, its skills resolved beside it,
//! and its bounded block printed, exactly those bytes, or `--json`'s one object.

use std::ffi::OsString;
use std::path::PathBuf;

use agentsmd_core::ffi_support::{self, path_to_bytes};
use agentsmd_core::structure::{self, Block, BlockOptions, SkillOptions, Skills, Warning};
use agentsmd_core::Options;
use serde_json::json;

use crate::args::{path, Exit, Parser};
use crate::{json, print, root_of, say, Failure};

/// What `agentsmd structure` is asked.
#[derive(Debug)]
pub struct Args {
    file: PathBuf,
    /// `--root` as given, `--confine` and `--max-bytes`.
    options: Options,
    skills: SkillOptions,
    block: BlockOptions,
    json: bool,
}

/// Parses the arguments after `structure`.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Args, Exit> {
    let mut json = false;
    let (mut options, mut block) = (Options::new(), BlockOptions::default());
    let (mut skills, mut no_skills) = (Vec::new(), false);
    let mut args = Parser::new(args, "structure takes one FILE");
    while let Some(flag) = args.next()? {
        match flag.as_str() {
            "-h" | "--help" => return args.switch().and(Err(Exit::Help)),
            "--json" => json = args.switch()?,
            "--confine" => options.confine = args.switch()?,
            "--root" => options.root = Some(args.directory()?),
            "--no-skills" => no_skills = args.switch()?,
            "--skill" => skills.push(args.value()?),
            "--cap" => {
                let cap = args.bytes()?;
                block.cap = cap.map(|cap| usize::try_from(cap).unwrap_or(usize::MAX));
            }
            "--heading" => block.heading = args.value()?,
            "--preamble" => block.preamble = args.value()?,
            "--where" => block.location = Some(args.value()?),
            "--max-bytes" => options.max_bytes = args.bytes()?,
            _ => return Err(Exit::Usage(format!("unknown option {flag} for structure"))),
        }
    }
    if no_skills && !skills.is_empty() {
        let why = "--skill and --no-skills exclude each other";
        return Err(Exit::Usage(why.into()));
    }
    let file = args
        .operand
        .ok_or_else(|| Exit::Usage("structure needs a FILE".into()))?;
    let mut skill_options = SkillOptions::default();
    skill_options.requested = (no_skills || !skills.is_empty()).then_some(skills);
    Ok(Args {
        file: path(file),
        options,
        skills: skill_options,
        block,
        json,
    })
}

/// Prints the block of `args.file`, each warning and unknown skill a line on stderr; or, with
/// `--json`, the one object that holds them all.
pub fn run(args: &Args) -> Result<(), Failure> {
    let file = ffi_support::absolute(&args.file)?;
    let mut options = args.options.clone();
    let root = root_of(&file, &mut options)?;
    if !ffi_support::is_within_root(&file, &root) {
        let (file, root) = (path_to_bytes(&file), path_to_bytes(&root));
        let message = [b"structure ", file, b" is outside root ", root].concat();
        return Err(Failure::Error(message));
    }
    let document = structure::read(&file, &options)?;
    let skills = document.resolve_skills(&args.skills, &options)?;
    let block = structure::block(&document, &skills, &args.block)?;
    if args.json {
        return print(object(&document.warnings, &skills, &block).as_bytes());
    }
    for warning in document.warnings.iter().chain(&skills.warnings) {
        say(&[b"warning: ", warning.to_string().as_bytes()]);
    }
    for name in &skills.unknown {
        let why = b"\" (no section or skills/NAME.md defines it)";
        say(&[b"unknown skill \"", name, why]);
    }
    print(&block.text)
}

/// `--json`'s object (SPEC.md §7), on one line ending in a newline.
fn object(warnings: &[Warning], skills: &Skills, block: &Block) -> String {
    let names = |names: &[Vec<u8>]| json::list(names, |name| json::bytes(name));
    let resolved = json::list(
        &skills.resolved,
        |skill| json!({ "name": json::bytes(&skill.name), "source": skill.source.as_str() }),
    );
    let dropped = json::list(
        &block.dropped,
        |dropped| json!({ "title": json::bytes(&dropped.title), "bytes": dropped.bytes }),
    );
    let warnings = json::list(warnings.iter().chain(&skills.warnings), |warning| {
        warning.to_string().into()
    });
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
