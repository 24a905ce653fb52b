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

/// The file at `path`, parsed, read through the options' file system off the main thread.
#[napi(
    catch_unwind,
    ts_args_type = "path: string, options?: object, abortable?: boolean",
    ts_return_type = "Promise<object> | { promise: Promise<object>; abort: () => void }"
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

/// The document of the nearest file of the chain at `path` (§6.5), or `null`.
#[napi(
    js_name = "parseNearest",
    catch_unwind,
    ts_args_type = "path: string, options?: object, abortable?: boolean",
    ts_return_type = "Promise<object | null> | { promise: Promise<object | null>; abort: () => void }"
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

/// `text` (a `Buffer` or a string), parsed. It is no file, so no skill file is read beside it.
#[napi(
    js_name = "parseText",
    catch_unwind,
    ts_args_type = "text: Buffer | string, options?: object",
    ts_return_type = "object"
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

/// The bounded rendering (§6.3) of the document whose `External` index.js passes as `parsed`.
#[napi(
    catch_unwind,
    ts_args_type = "parsed: unknown, options?: object",
    ts_return_type = "object"
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

/// `Document`, and its `External` for `block` (index.js moves it under a symbol).
#[napi(object, object_from_js = false)]
pub struct JsDocument {
    /// The skill names requested, repeats removed.
    #[napi(ts_type = "Array<string>")]
    pub requested: Vec<Text>,
    /// The requested skills that resolved, in request order.
    pub skills: Vec<JsSkill>,
    /// The requested names nothing defines.
    #[napi(ts_type = "Array<string>")]
    pub unknown: Vec<Text>,
    /// The text's warnings, then those of resolving its skills, each `line N: …`.
    pub warnings: Vec<String>,
    /// What `block` renders.
    #[napi(ts_type = "ExternalObject<unknown>")]
    pub parsed: External<Parsed>,
}

/// `Document.skills[]`: a requested skill that resolved.
#[napi(object, object_from_js = false)]
pub struct JsSkill {
    /// Its name, as requested.
    #[napi(ts_type = "string")]
    pub name: Text,
    /// `inline` or `file`.
    pub source: &'static str,
}

/// `Block`.
#[napi(object, object_from_js = false)]
pub struct JsBlock {
    /// The text to put in the prompt.
    #[napi(ts_type = "string")]
    pub block: Text,
    /// The units left out, in order.
    pub dropped: Vec<JsDropped>,
}

/// `Block.dropped[]`.
#[napi(object, object_from_js = false)]
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
