//! `parse`, `parseText`, `parseNearest` and `block` (SPEC.md §6).
//!
//! A `Document` is a plain object with the fields of the command line's `structure --json`
//! (§7): `requested`, `skills` (`name`, `source`), `unknown` and `warnings` (those of the text
//! and those of resolving its skills). What `block` renders — the body's units and the skills'
//! texts — stays in Rust, in an `External` that index.js keeps on the object under a symbol,
//! where it neither shows nor serializes.

use std::path::PathBuf;

use agentsmd_core::structure::{self, BlockOptions, Document, SkillOptions, Skills};
use napi::bindgen_prelude::{External, FromNapiRef, Unknown};
use napi::{Env, JsValue};
use napi_derive::napi;

use crate::boundary;
use crate::callback::Calls;
use crate::error::Failure;
use crate::input::{self, MAX_BYTES};
use crate::options::{self, CallOptions};
use crate::text::Text;
use crate::work;

/// A parsed file with its skills resolved: what `block` renders.
pub struct Parsed {
    document: Document,
    skills: Skills,
}

impl Parsed {
    /// `document` with its skills resolved as `options` say (SPEC.md §6.2).
    fn new(document: Document, options: &CallOptions) -> Result<Self, Failure> {
        let mut requested = SkillOptions::default();
        requested.requested.clone_from(&options.skills);
        let skills = document.resolve_skills(&requested, &options.core)?;
        Ok(Self { document, skills })
    }
}

/// The file at `path` parsed (SPEC.md §6.1) and its requested skills resolved (§6.2): each to
/// its inline `## Skill: NAME` section, else to `skills/NAME.md` beside it. Both are read
/// through the options' file system (`fs`, else the OS, beneath `root` when `confine` is on), at
/// most `maxBytes` each. `path` must be a regular file.
// Off the main thread, as `chain` (and `abortable` as its); index.js's `parse` wraps it.
#[napi(
    catch_unwind,
    ts_args_type = "path: string, options?: ParseOptions",
    ts_return_type = "Promise<Document>"
)]
pub fn parse<'e>(
    env: &'e Env,
    path: Unknown<'e>,
    options: Option<Unknown<'e>>,
    abortable: Option<Unknown<'e>>,
) -> napi::Result<Unknown<'e>> {
    let work = |path: PathBuf, options: CallOptions| {
        Parsed::new(structure::read(&path, &options.core)?, &options)
    };
    work::at_path(env, path, options, abortable, work, JsDocument::from)
}

/// The document of the nearest file of the chain at `path` (SPEC.md §6.5): `chain` with
/// `nearest` on and `extra` ignored, then `parse` of its last file of source `chain`, its
/// skills resolved beside it. `null` when no directory of the walk has a file, or the nearest
/// one is over a budget.
#[napi(
    js_name = "parseNearest",
    catch_unwind,
    ts_args_type = "path: string, options?: ParseOptions",
    ts_return_type = "Promise<Document | null>"
)]
pub fn parse_nearest<'e>(
    env: &'e Env,
    path: Unknown<'e>,
    options: Option<Unknown<'e>>,
    abortable: Option<Unknown<'e>>,
) -> napi::Result<Unknown<'e>> {
    let work =
        |path: PathBuf, options: CallOptions| match structure::parse_nearest(&path, &options.core)?
        {
            Some(document) => Parsed::new(document, &options).map(Some),
            None => Ok(None),
        };
    work::at_path(
        env,
        path,
        options,
        abortable,
        work,
        |parsed: Option<Parsed>| parsed.map(JsDocument::from),
    )
}

/// `text` parsed (SPEC.md §6.1): text of no file, so only inline skills resolve. Malformed
/// front matter is a warning, never an error.
#[napi(
    js_name = "parseText",
    catch_unwind,
    ts_args_type = "text: Buffer | string, options?: ParseOptions",
    ts_return_type = "Document"
)]
pub fn parse_text<'e>(
    env: &'e Env,
    text: Unknown<'e>,
    options: Option<Unknown<'e>>,
) -> napi::Result<Unknown<'e>> {
    boundary::sync(env, || {
        let text = input::bytes(text, "text")?;
        let options = options::read(options, Calls::Direct)?;
        let parsed = Parsed::new(structure::parse(&text), &options)?;
        boundary::js(env, JsDocument::from(parsed))
    })
}

/// The bounded rendering of `doc` (SPEC.md §6.3): its body's sections, then its skills, kept
/// whole while they fit `cap`, with one warning line saying what was dropped and where the full
/// file is. `doc` must come from `parse`, `parseText` or `parseNearest`. A heading and preamble
/// longer than the cap are an `InvalidArgument` error.
// The addon's own takes the document's `External`, which index.js's `block` takes out of `doc`.
#[napi(
    catch_unwind,
    ts_args_type = "doc: Document, options?: BlockOptions",
    ts_return_type = "Block"
)]
pub fn block<'e>(
    env: &'e Env,
    parsed: Unknown<'e>,
    options: Option<Unknown<'e>>,
) -> napi::Result<Unknown<'e>> {
    boundary::sync(env, || {
        let parsed = unsafe { External::<Parsed>::from_napi_ref(env.raw(), parsed.raw()) }
            .map_err(|_| {
                Failure::invalid(
                    "doc: not a Document that parse, parseText or parseNearest returned",
                )
            })?;
        let options = block_options(options)?;
        let block = structure::block(&parsed.document, &parsed.skills, &options)?;
        boundary::js(
            env,
            JsBlock {
                block: Text(block.text),
                dropped: block
                    .dropped
                    .into_iter()
                    .map(|dropped| JsDropped {
                        title: Text(dropped.title),
                        bytes: dropped.bytes as f64,
                    })
                    .collect(),
            },
        )
    })
}

/// `BlockOptions`: `cap`, `heading`, `preamble`, `name`, `where`. As everywhere, `0` and `''`
/// are the defaults, but for `heading`, whose empty string is kept as given (§6.4).
fn block_options(value: Option<Unknown>) -> Result<BlockOptions, Failure> {
    let mut options = BlockOptions::default();
    let Some(object) = value
        .map(|v| input::object(v, "options"))
        .transpose()?
        .flatten()
    else {
        return Ok(options);
    };
    let text = |name: &str| -> Result<Option<Vec<u8>>, Failure> {
        let value = input::field(&object, name, "options")?;
        let what = format!("options.{name}");
        match input::absent(&value, &what)? {
            true => Ok(None),
            false => input::string(value, &what).map(Some),
        }
    };
    let cap = input::number(
        input::field(&object, "cap", "options")?,
        "options.cap",
        MAX_BYTES,
    )?;
    options.cap = usize::try_from(cap).ok().filter(|&cap| cap != 0);
    if let Some(heading) = text("heading")? {
        options.heading = heading;
    }
    options.preamble = text("preamble")?.unwrap_or_default();
    options.name = text("name")?.filter(|name| !name.is_empty());
    options.location = text("where")?.filter(|location| !location.is_empty());
    Ok(options)
}

/// One parsed instruction file (SPEC.md §6): the fields of `agentsmd structure --json`. It also
/// holds, out of sight, what `block` renders: only the Document these functions return renders.
#[napi(object, object_from_js = false, js_name = "Document")]
pub struct JsDocument {
    /// The skill names requested (the options' `skills`, else the front matter's), repeats removed.
    #[napi(ts_type = "string[]")]
    pub requested: Vec<Text>,
    /// The requested skills that resolved, in request order.
    #[napi(ts_type = "Skill[]")]
    pub skills: Vec<JsSkill>,
    /// The requested names that nothing defines: reported, not an error.
    #[napi(ts_type = "string[]")]
    pub unknown: Vec<Text>,
    /// What was not what it looked like, said rather than failed on (`line N: …`): the text's,
    /// then those of resolving its skills.
    pub warnings: Vec<String>,
    // What `block` renders: index.js moves it under a symbol, out of the published type.
    #[napi(skip_typescript)]
    pub parsed: External<Parsed>,
}

/// A requested skill that resolved.
#[napi(object, object_from_js = false, js_name = "Skill")]
pub struct JsSkill {
    /// Its name, as requested.
    #[napi(ts_type = "string")]
    pub name: Text,
    /// Where it was found.
    #[napi(ts_type = "SkillSource")]
    pub source: &'static str,
}

/// A bounded rendering.
#[napi(object, object_from_js = false, js_name = "Block")]
pub struct JsBlock {
    /// The text to put in the prompt; `''` when the document has no section and resolved no skill.
    #[napi(ts_type = "string")]
    pub block: Text,
    /// The units left out, in order.
    #[napi(ts_type = "Dropped[]")]
    pub dropped: Vec<JsDropped>,
}

/// A unit `block` left out.
#[napi(object, object_from_js = false, js_name = "Dropped")]
pub struct JsDropped {
    /// A section's title, `(preamble)` or `skill: NAME`.
    #[napi(ts_type = "string")]
    pub title: Text,
    /// Its rendered length.
    pub bytes: f64,
}

impl From<Parsed> for JsDocument {
    fn from(parsed: Parsed) -> Self {
        let texts = |names: &[Vec<u8>]| names.iter().map(|name| Text::of(name)).collect();
        let skills = &parsed.skills;
        Self {
            requested: texts(&skills.requested),
            skills: skills
                .resolved
                .iter()
                .map(|skill| JsSkill {
                    name: Text::of(&skill.name),
                    source: skill.source.as_str(),
                })
                .collect(),
            unknown: texts(&skills.unknown),
            warnings: parsed
                .document
                .warnings
                .iter()
                .chain(&skills.warnings)
                .map(ToString::to_string)
                .collect(),
            parsed: External::new(parsed),
        }
    }
}
