//! The library's one entry for a path: what a product loads with a preset (SPEC §12), else the
//! chain of SPEC §1 and §5.

use std::path::Path;

use crate::chain::{self, Chain};
use crate::error::Error;
use crate::options::Options;

/// Returns the instruction files that apply at `path`: `options.extra` first, then the first of
/// `options.names` that each directory from `options.root` down to the start directory lists,
/// within the bounds (SPEC §1), and what the composition options of SPEC §5 add, each opt-in.
/// With [`Options::fs`], `path` and `root` are names in that file system. With
/// [`Options::preset`], what that product loads (SPEC §12).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("AGENTS.md"), "@docs/style.md\n")?;
/// std::fs::create_dir_all(dir.path().join("docs"))?;
/// std::fs::write(dir.path().join("docs/style.md"), "Use tabs.\n")?;
/// let options = agentsmd_core::Options::new().root(dir.path()).imports(true);
/// let chain = agentsmd_core::chain(dir.path().join("main.rs"), &options)?;
/// assert_eq!(chain.files[0].content, b"Use tabs.\n");
/// assert_eq!(chain.imports.get(0).map(|import| import.line), Some(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("AGENTS.md"), "root rules\n")?;
/// std::fs::create_dir(dir.path().join("src"))?;
/// let mut options = agentsmd_core::Options::default();
/// options.root = Some(dir.path().to_path_buf());
/// let chain = agentsmd_core::chain(dir.path().join("src/main.rs"), &options)?;
/// assert_eq!(chain.files.len(), 1);
/// assert_eq!(chain.files[0].content, b"root rules\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn chain(path: impl AsRef<Path>, options: &Options) -> Result<Chain, Error> {
    match options.preset {
        Some(preset) => preset.chain(path.as_ref(), options),
        None => chain::of(path.as_ref(), options),
    }
}
