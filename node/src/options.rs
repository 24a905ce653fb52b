//! The `Options` of index.d.ts (SPEC.md §1, §5, §9, §11 and §12, camelCase) and
//! `ParseOptions`' `skills`, read from JavaScript into the core's [`Options`].
//!
//! Every field is optional; `undefined`, `null`, `0`, `''` and `[]` are each the field's zero
//! value, which is its default, as in SPEC.md §1's table and every other binding (`budget: 0`
//! is no budget, `maxBytes: 0` is 1 MiB).

use std::collections::HashMap;
use std::sync::Arc;

use agentsmd_core::ffi_support;
use agentsmd_core::{Dialect, Options, Preset, RuleDir, Transform};
use napi::bindgen_prelude::{Object, Unknown};

use crate::callback::Calls;
use crate::error::Failure;
use crate::fs::{self, JsFs};
use crate::input::{self, MAX_BYTES, MAX_COUNT};
use crate::work::Place;

/// The options of one call, read.
pub(crate) struct CallOptions {
    /// The core's options.
    pub(crate) core: Options,
    /// `ParseOptions.skills`: the caller's list of skill names, or `None` for the front
    /// matter's.
    pub(crate) skills: Option<Vec<Vec<u8>>>,
    /// Where an async call's work runs: on a thread of its own when it calls JavaScript.
    pub(crate) place: Place,
}

/// Reads `value` (`options`, which may be absent), its callbacks to be called as `calls` says.
pub(crate) fn read(value: Option<Unknown>, calls: Calls<'_>) -> Result<CallOptions, Failure> {
    let mut options = CallOptions {
        core: Options::default(),
        skills: None,
        place: Place::Pool,
    };
    let Some(object) = value
        .map(|v| input::object(v, "options"))
        .transpose()?
        .flatten()
    else {
        return Ok(options);
    };
    let get = |name: &str| input::field(&object, name, "options");
    let core = &mut options.core;
    core.names = input::strings(get("names")?, "options.names")?;
    let root = get("root")?;
    if !input::absent(&root, "options.root")? {
        let root = input::string(root, "options.root")?;
        if !root.is_empty() {
            core.root = Some(ffi_support::path_from_bytes(root, "options.root")?);
        }
    }
    core.extra = input::paths(get("extra")?, "options.extra")?;
    core.max_bytes = bytes(get("maxBytes")?, "options.maxBytes")?;
    core.budget = bytes(get("budget")?, "options.budget")?;
    core.rendered_budget = bytes(get("renderedBudget")?, "options.renderedBudget")?;
    core.confine = input::flag(get("confine")?, "options.confine")?;
    if let Some(fs) = input::object(get("fs")?, "options.fs")? {
        core.fs = Some(Arc::new(JsFs::new(&fs, core.max_bytes, calls)?));
    }
    core.fragments = input::strings(get("fragments")?, "options.fragments")?;
    core.rules = rule_dirs(get("rules")?)?;
    core.overlays = input::paths(get("overlays")?, "options.overlays")?;
    // The core would take '' for the current directory: never what an unset variable meant
    // (the command line refuses an empty --overlay too).
    if let Some(i) = core
        .overlays
        .iter()
        .position(|dir| dir.as_os_str().is_empty())
    {
        return Err(Failure::invalid(format!(
            "options.overlays[{i}]: an empty path names no overlay directory"
        )));
    }
    core.imports = input::flag(get("imports")?, "options.imports")?;
    core.import_depth = count(get("importDepth")?, "options.importDepth")?;
    core.max_imports = count(get("maxImports")?, "options.maxImports")?;
    let env = match input::object(get("env")?, "options.env")? {
        Some(env) => interpolator(&env)?,
        None => None,
    };
    let transform = match input::function(get("transform")?, "options.transform")? {
        Some(function) => Some(fs::transform(function, core.max_bytes, calls)?),
        None => None,
    };
    if env.is_some() && transform.is_some() {
        return Err(Failure::invalid(
            "options.env and options.transform are both given: the interpolator is a \
             transform, and a chain has one; give one",
        ));
    }
    let calls_javascript = core.fs.is_some() || transform.is_some();
    core.transform = env.or(transform);
    core.nearest = input::flag(get("nearest")?, "options.nearest")?;
    core.all_names = input::flag(get("allNames")?, "options.allNames")?;
    core.report = input::flag(get("report")?, "options.report")?;
    core.preset = preset(get("preset")?)?;
    let home = get("home")?;
    if !input::absent(&home, "options.home")? {
        let home = input::string(home, "options.home")?;
        if !home.is_empty() {
            core.home = Some(ffi_support::path_from_bytes(home, "options.home")?);
        }
    }
    let skills = get("skills")?;
    if !input::absent(&skills, "options.skills")? {
        options.skills = Some(input::strings(skills, "options.skills")?);
    }
    // A work that calls JavaScript waits for it: not on libuv's pool (src/work.rs).
    if matches!(calls, Calls::Threaded(_)) && calls_javascript {
        options.place = Place::Thread;
    }
    Ok(options)
}

/// `options.rules` (SPEC.md §11): each element `{ dialect, dir }`, a rule directory. An unknown
/// dialect and a `dir` that is not one or more path elements are refused here, so that a
/// `Session` refuses them when it is made, not at its first touch.
fn rule_dirs(value: Unknown) -> Result<Vec<RuleDir>, Failure> {
    input::array(value, "options.rules", |element, what| {
        let Some(rule) = input::object(element, what)? else {
            return Err(Failure::invalid(format!(
                "{what}: expected an object {{ dialect, dir }}, not undefined or null"
            )));
        };
        let field = |name: &str| input::field(&rule, name, what);
        let dialect = input::string(field("dialect")?, &format!("{what}.dialect"))?;
        let Some(dialect) = std::str::from_utf8(&dialect)
            .ok()
            .and_then(Dialect::from_name)
        else {
            let names = Dialect::ALL.map(Dialect::as_str).join(", ");
            return Err(Failure::invalid(format!(
                "{what}.dialect: {:?} is none of {names}",
                String::from_utf8_lossy(&dialect)
            )));
        };
        let dir = input::string(field("dir")?, &format!("{what}.dir"))?;
        ffi_support::check_rule_dir(&dir)?;
        Ok(RuleDir::new(dialect, dir))
    })
}

/// `options.preset` (SPEC.md §12): a preset's name, `None` when absent or `''`; an unknown name
/// is refused, naming the presets.
fn preset(value: Unknown) -> Result<Option<Preset>, Failure> {
    if input::absent(&value, "options.preset")? {
        return Ok(None);
    }
    let name = input::string(value, "options.preset")?;
    if name.is_empty() {
        return Ok(None);
    }
    let found = std::str::from_utf8(&name).ok().and_then(Preset::from_name);
    found.map(Some).ok_or_else(|| {
        let names = Preset::ALL.map(Preset::as_str).join(", ");
        Failure::invalid(format!(
            "options.preset: {:?} is none of {names}",
            String::from_utf8_lossy(&name)
        ))
    })
}

/// A number of bytes; 0 is none given.
fn bytes(value: Unknown, what: &str) -> Result<Option<u64>, Failure> {
    Ok(Some(input::number(value, what, MAX_BYTES)?).filter(|&n| n != 0))
}

/// A count; 0 is the default, as the core takes it.
fn count(value: Unknown, what: &str) -> Result<u32, Failure> {
    // At most u32::MAX: `number` checked.
    Ok(input::number(value, what, MAX_COUNT)? as u32)
}

/// The interpolator of `options.env` (SPEC.md §5.5), `None` when it has no entry: each own
/// key a NAME, each value a string.
fn interpolator(env: &Object) -> Result<Option<Transform>, Failure> {
    let names = Object::keys(env).map_err(|_| {
        Failure::invalid("options.env: reading its keys threw (see the error's cause)")
    })?;
    let mut values = HashMap::with_capacity(names.len());
    for name in names {
        let what = format!("options.env.{name}");
        if !ffi_support::is_env_name(name.as_bytes()) {
            return Err(Failure::invalid(format!(
                "{what}: a NAME must match [A-Za-z_][A-Za-z0-9_]*"
            )));
        }
        let value = input::string(input::field(env, &name, "options.env")?, &what)?;
        values.insert(name, value);
    }
    Ok((!values.is_empty()).then(|| Transform::interpolator(values)))
}
