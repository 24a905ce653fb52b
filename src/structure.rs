//! Structure (SPEC.md §6): `agentsmd_parse` and the `agentsmd_document` it hands out, and
//! `agentsmd_document_block` and its `agentsmd_block`.

use agentsmd_core::structure::{
    self, Block, BlockOptions, Document, Dropped, Origin, Skill, SkillOptions, SkillSource, Skills,
    Unit, Warning,
};
use agentsmd_core::{Error, Options};

use crate::boundary::{self, entry, export, handle};
use crate::error::agentsmd_error;
use crate::options::{agentsmd_options, options_or_default};
use crate::types::{agentsmd_bytes, agentsmd_status};

/// One parsed instruction file (SPEC.md §6.1) and its requested skills, resolved (§6.2).
/// Created by `agentsmd_parse`, freed by `agentsmd_document_free`.
pub struct agentsmd_document {
    _private: [u8; 0],
}

handle!(agentsmd_document => Parsed, "document", 0x6167_6d64_646f_6301);

/// What an `agentsmd_document` stands for, with one list of warnings for C.
pub(crate) struct Parsed {
    document: Document,
    skills: Skills,
}

/// What `agentsmd_document_block` rendered (SPEC.md §6.3): the bytes, the cap in force, and the
/// units left out. Freed by `agentsmd_block_free`.
pub struct agentsmd_block {
    _private: [u8; 0],
}

handle!(agentsmd_block => Block, "block", 0x6167_6d64_626c_6b01);

/// Something in the text that was not what it looked like, said rather than failed on.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_warning {
    /// The line of the file it is about, 1-based; 0 for a skill file's.
    pub line: usize,
    /// What is wrong, and what was done instead (UTF-8).
    pub message: agentsmd_bytes,
}

/// A requested skill that resolved.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_skill {
    /// Its name, as requested.
    pub name: agentsmd_bytes,
    /// Its text: blank lines around it removed, ending in one `\n` (empty when blank).
    pub text: agentsmd_bytes,
    /// The file `skills/NAME.md` it was read from (an OS path, or a name in the custom file
    /// system); NULL (length 0) for an inline `## Skill: NAME` section.
    pub path: agentsmd_bytes,
}

/// A body unit: the preamble, or a section at a level-1 or level-2 heading.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_unit {
    /// The heading's title; NULL (length 0) for the preamble.
    pub title: agentsmd_bytes,
    /// Its lines, blank lines around them removed, ending in one `\n`; never empty.
    pub text: agentsmd_bytes,
}

/// A unit `agentsmd_document_block` left out, for the product's log.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_dropped {
    /// A section's title, `(preamble)`, or `skill: NAME`.
    pub title: agentsmd_bytes,
    /// Its rendered length (a skill's `### NAME\n\n` and text, never `## Requested Skills`).
    pub bytes: usize,
}

/// What goes around the units of `agentsmd_document_block`, and how many bytes they may take
/// (SPEC.md §6.3). A byte string whose `ptr` is NULL takes the default; one that is not NULL is
/// used as given, an empty heading included.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct agentsmd_block_options {
    /// The most bytes of the block, its warning line aside; 0 means `AGENTSMD_DEFAULT_CAP`, and
    /// a value under `AGENTSMD_MIN_CAP` is raised to it.
    pub cap: usize,
    /// The first line of the block; default `AGENTSMD_DEFAULT_HEADING`.
    pub heading: agentsmd_bytes,
    /// A paragraph after the heading; default (and empty): none.
    pub preamble: agentsmd_bytes,
    /// The file's name in the warning; default the base name of the document's path, else
    /// `AGENTS.md`.
    pub name: agentsmd_bytes,
    /// Where the full file is, in the warning; default the document's path, else the name.
    pub r#where: agentsmd_bytes,
}

/// Parses `text` as an instruction file (SPEC.md §6.1) and resolves its requested skills
/// (§6.2): what is malformed is a warning, never a failure. `path` is where the text was read
/// from, checked as `agentsmd_chain` checks its path, beside which `skills/NAME.md` is read
/// through the file system of `options` (NULL for the defaults); NULL or empty, no skill file
/// is read. `skills` NULL requests the front matter's names, else the `skills_len` given ones.
/// Fails only on a bad argument (a bad `path`; `options` that confine to the root `/`) or on a
/// skill file too large or failing other than with "no such file".
#[no_mangle]
pub unsafe extern "C" fn agentsmd_parse(
    text: *const u8,
    text_len: usize,
    path: *const u8,
    path_len: usize,
    options: *const agentsmd_options,
    skills: *const agentsmd_bytes,
    skills_len: usize,
    document_out: *mut *mut agentsmd_document,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let document_out = boundary::out(document_out, "document_out")?;
        let text = boundary::slice_of(text, text_len, "text")?;
        let options = options_or_default(options)?;
        let skills = requested(skills, skills_len)?;
        let mut document = structure::parse(text);
        if !path.is_null() && path_len != 0 {
            let path = boundary::path_of(path, path_len, "path")?;
            document.origin = Some(Origin::new(path, &options)?);
        }
        *document_out = resolved(document, &skills, &options)?;
        Ok(())
    })
}

/// The nearest document at `path` (SPEC.md §6.5): `agentsmd_chain` with nearest on and `extra`
/// ignored, then `agentsmd_parse` of its last file of source `AGENTSMD_SOURCE_CHAIN` (the text
/// the chain read, imports and transform applied). `*document_out` is NULL when there is none
/// (no directory of the walk has a file, or the nearest is over a budget).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_parse_nearest(
    path: *const u8,
    path_len: usize,
    options: *const agentsmd_options,
    skills: *const agentsmd_bytes,
    skills_len: usize,
    document_out: *mut *mut agentsmd_document,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let document_out = boundary::out(document_out, "document_out")?;
        let options = options_or_default(options)?;
        let skills = requested(skills, skills_len)?;
        let path = boundary::path_of(path, path_len, "path")?;
        *document_out = match structure::parse_nearest(path, &options)? {
            Some(document) => resolved(document, &skills, &options)?,
            None => std::ptr::null_mut(),
        };
        Ok(())
    })
}

/// The skills a caller asks for: NULL for the front matter's, else the `len` names at `skills`.
unsafe fn requested(skills: *const agentsmd_bytes, len: usize) -> Result<SkillOptions, Error> {
    let mut options = SkillOptions::default();
    if !skills.is_null() {
        let names = boundary::slice_of(skills, len, "skills")?.iter();
        let names = names.map(|name| Ok(boundary::bytes_of(name, "skills[]")?.to_vec()));
        options.requested = Some(names.collect::<Result<_, Error>>()?);
    }
    Ok(options)
}

/// `document` with its skills resolved through the file system of `options`, handed to C.
fn resolved(
    mut document: Document,
    skills: &SkillOptions,
    options: &Options,
) -> Result<*mut agentsmd_document, Error> {
    let mut skills = document.resolve_skills(skills, options)?;
    document.warnings.append(&mut skills.warnings);
    Ok(boundary::into_raw(Parsed { document, skills }))
}

/// Writes the path of `document` to `*path_out`: the OS path it was parsed at, absolute and
/// clean, or its name in the custom file system; NULL (length 0) for text of no file.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_path(
    document: *const agentsmd_document,
    path_out: *mut agentsmd_bytes,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let document = boundary::borrow(document)?;
        let path_out = boundary::out(path_out, "path_out")?;
        let origin = document.document.origin.as_ref();
        *path_out = origin.map_or(agentsmd_bytes::NONE, |o| agentsmd_bytes::of(o.as_bytes()));
        Ok(())
    })
}

/// The number of warnings of `document`: the text's, in line order, then its skill files'.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_warning_count(
    document: *const agentsmd_document,
) -> usize {
    export!({ boundary::count(document, |d| &d.document.warnings) })
}

/// Writes warning `index` of `document`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_warning(
    document: *const agentsmd_document,
    index: usize,
    warning_out: *mut agentsmd_warning,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, document.document.warnings, index, warning_out)
}

/// The number of names `document` requested (the caller's or the front matter's, no repeats).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_requested_count(
    document: *const agentsmd_document,
) -> usize {
    export!({ boundary::count(document, |d| &d.skills.requested) })
}

/// Writes requested name `index` of `document` (in request order).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_requested(
    document: *const agentsmd_document,
    index: usize,
    name_out: *mut agentsmd_bytes,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, document.skills.requested, index, name_out)
}

/// The number of requested skills of `document` that resolved.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_skill_count(
    document: *const agentsmd_document,
) -> usize {
    export!({ boundary::count(document, |d| &d.skills.resolved) })
}

/// Writes resolved skill `index` of `document` (in request order).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_skill(
    document: *const agentsmd_document,
    index: usize,
    skill_out: *mut agentsmd_skill,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, document.skills.resolved, index, skill_out)
}

/// The number of requested names of `document` that no inline section or file defines.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_unknown_count(
    document: *const agentsmd_document,
) -> usize {
    export!({ boundary::count(document, |d| &d.skills.unknown) })
}

/// Writes unknown name `index` of `document` (in request order).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_unknown(
    document: *const agentsmd_document,
    index: usize,
    name_out: *mut agentsmd_bytes,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, document.skills.unknown, index, name_out)
}

/// The number of body units of `document`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_unit_count(document: *const agentsmd_document) -> usize {
    export!({ boundary::count(document, |d| &d.document.units) })
}

/// Writes body unit `index` of `document` (in document order).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_unit(
    document: *const agentsmd_document,
    index: usize,
    unit_out: *mut agentsmd_unit,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, document.document.units, index, unit_out)
}

/// Frees `document`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_free(document: *mut agentsmd_document) {
    export!({ boundary::free(document) })
}

/// Renders `document`'s units, then its resolved skills, within the cap of `options` (NULL for
/// the defaults), as SPEC.md §6.3 says: whole units while they fit, then one warning line.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_document_block(
    document: *const agentsmd_document,
    options: *const agentsmd_block_options,
    block_out: *mut *mut agentsmd_block,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    export!(error_out, {
        let block_out = boundary::out(block_out, "block_out")?;
        let parsed = boundary::borrow(document)?;
        let mut wanted = BlockOptions::default();
        if let Some(options) = options.as_ref() {
            let given = |bytes: &agentsmd_bytes, what| match bytes.ptr.is_null() {
                true => Ok(None),
                false => boundary::bytes_of(bytes, what).map(|bytes| Some(bytes.to_vec())),
            };
            wanted.cap = Some(options.cap);
            wanted.heading = given(&options.heading, "options.heading")?.unwrap_or(wanted.heading);
            wanted.preamble = given(&options.preamble, "options.preamble")?.unwrap_or_default();
            wanted.name = given(&options.name, "options.name")?;
            wanted.location = given(&options.r#where, "options.where")?;
        }
        let block = structure::block(&parsed.document, &parsed.skills, &wanted)?;
        *block_out = boundary::into_raw(block);
        Ok(())
    })
}

/// The first byte of the block, not NUL-terminated: never NULL for a live block, even an empty
/// one; NULL when `block` is NULL or not a live block.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_block_data(block: *const agentsmd_block) -> *const u8 {
    export!({ boundary::borrow(block).map_or(std::ptr::null(), |b| b.text.as_ptr()) })
}

/// The number of bytes of the block.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_block_len(block: *const agentsmd_block) -> usize {
    export!({ boundary::borrow(block).map_or(0, |b| b.text.len()) })
}

/// The cap in force (`agentsmd_block_options.cap`'s); 0 when `block` is NULL or not a live block.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_block_cap(block: *const agentsmd_block) -> usize {
    export!({ boundary::borrow(block).map_or(0, |b| b.cap) })
}

/// The number of units `block` left out.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_block_dropped_count(block: *const agentsmd_block) -> usize {
    export!({ boundary::count(block, |b| &b.dropped) })
}

/// Writes dropped unit `index` of `block` (in order).
#[no_mangle]
pub unsafe extern "C" fn agentsmd_block_dropped(
    block: *const agentsmd_block,
    index: usize,
    dropped_out: *mut agentsmd_dropped,
    error_out: *mut *mut agentsmd_error,
) -> agentsmd_status {
    entry!(error_out, block.dropped, index, dropped_out)
}

/// Frees `block`.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_block_free(block: *mut agentsmd_block) {
    export!({ boundary::free(block) })
}

impl From<&Warning> for agentsmd_warning {
    fn from(warning: &Warning) -> Self {
        Self {
            line: warning.line,
            message: agentsmd_bytes::of(warning.message.as_bytes()),
        }
    }
}

impl From<&Skill> for agentsmd_skill {
    fn from(skill: &Skill) -> Self {
        Self {
            name: agentsmd_bytes::of(&skill.name),
            text: agentsmd_bytes::of(&skill.text),
            path: match &skill.source {
                SkillSource::File(file) => agentsmd_bytes::of(file.as_bytes()),
                _ => agentsmd_bytes::NONE,
            },
        }
    }
}

impl From<&Unit> for agentsmd_unit {
    fn from(unit: &Unit) -> Self {
        let title = unit.title.as_deref();
        Self {
            title: title.map_or(agentsmd_bytes::NONE, agentsmd_bytes::of),
            text: agentsmd_bytes::of(&unit.text),
        }
    }
}

impl From<&Dropped> for agentsmd_dropped {
    fn from(dropped: &Dropped) -> Self {
        Self {
            title: agentsmd_bytes::of(&dropped.title),
            bytes: dropped.bytes,
        }
    }
}
