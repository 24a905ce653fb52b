//! Gemini CLI's context loaded as its agent works: `loadJitSubdirectoryMemory` of
//! `dist/src/utils/memoryDiscovery.js` (0.61.0), which `discoverJitContext`
//! (`dist/src/tools/jit-context.js`) calls for the path a file tool reads, lists, writes or
//! edits.

use std::path::Path;

use super::{file_id, find_up, gemini_home, js_trim, text, DIR};
use crate::chain::{Reason, Source};
use crate::error::Error;
use crate::fs::Kind;
use crate::options::Options;
use crate::preset::{is_within, project_root, Loaded, Loader};

/// Loads what the product newly loads when its agent reads `target` (absolute and clean): for
/// a path inside the workspace directory, the `GEMINI.md` of each directory from the path's
/// (a file's parent; a path that is not there yet counts as a file) up to the project root (the
/// nearest ancestor of the workspace holding `.git`, else the workspace), root first, that
/// it has not loaded (by file identity); each trimmed, an empty one dropped and still marked
/// loaded. A path outside the workspace loads nothing.
pub(in crate::preset) fn read(
    loader: &mut Loader,
    loaded: &mut Loaded,
    target: &Path,
    options: &Options,
) -> Result<(), Error> {
    let workspace = loaded.cwd.clone();
    // `isSubpath`: lexical, links not resolved.
    if !is_within(target, &workspace) {
        return Ok(());
    }
    let ceiling = project_root(loader, &workspace, options)?.unwrap_or_else(|| workspace.clone());
    let start = match loader.kind(target)? {
        Some(Kind::Dir) => target,
        _ => target.parent().unwrap_or(target),
    };
    let global_dir = gemini_home(options)?.map(|home| home.join(DIR));
    let found = find_up(loader, start, &ceiling, global_dir.as_deref(), options)?;
    for file in found.into_iter().rev() {
        let id = file_id(&file);
        if id.as_ref().is_some_and(|id| loaded.identities.contains(id)) {
            continue;
        }
        let Some(size) = loader.file_size(&file)? else {
            continue;
        };
        let text = text(loader, &file, size)?;
        loaded.identities.extend(id);
        match js_trim(&text) {
            "" => loader.omit(&file, size, Reason::Empty, None),
            trimmed => loader.give(&file, trimmed, Source::Chain),
        }
    }
    Ok(())
}
