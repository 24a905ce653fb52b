//! A chain's arguments, checked before any I/O and in the order their errors are reported
//! (SPEC §1 "Names", "Paths"; §5.2, §5.3, §11).

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::options::Options;
use crate::path::{self, Syntax, NAMES};

/// What a chain is asked, checked.
pub(super) struct Request {
    /// The names looked for, without repeats.
    pub(super) names: Vec<Vec<u8>>,
    /// The root and the path: absolute and clean OS paths, or a custom file system's names.
    pub(super) root: Vec<u8>,
    pub(super) path: Vec<u8>,
    /// The extra files and overlay directories, absolute and clean.
    pub(super) extras: Vec<PathBuf>,
    pub(super) overlays: Vec<PathBuf>,
}

impl Request {
    pub(super) fn new(path: &Path, options: &Options) -> Result<Self, Error> {
        let request = Self::touching(path, options, false)?;
        request.ok_or_else(|| Error::invalid_argument("path is outside root"))
    }

    /// The request of a touch (SPEC §10): `None` for a path outside root when `outside_is_none`,
    /// which is an error for a chain.
    pub(super) fn touching(
        path: &Path,
        options: &Options,
        outside_is_none: bool,
    ) -> Result<Option<Self>, Error> {
        let names = options.effective_names();
        for name in &names {
            path::check_name(name)?;
        }
        for fragment in &options.fragments {
            path::check_fragment(fragment)?;
        }
        for rules in &options.rules {
            path::check_rule_dir(&rules.dir)?;
        }
        let (root, path, syntax) = match &options.fs {
            None => {
                // An explicit root is checked first, as a default one needs the path.
                let explicit = match options.root {
                    Some(_) => Some(options.os_root(b"")?),
                    None => None,
                };
                let path = path::absolute_bytes(path)?;
                let root = explicit.map_or_else(|| options.os_root(&path), Ok)?;
                path::check_path_length(&path, "path")?;
                // Compared ignoring case on Windows, the root is spelled as the path spells it
                // (SPEC §8.2), so that every directory of the walk is.
                match path::is_within(Syntax::OS, &path, &root) {
                    true => (path[..root.len()].to_vec(), path, Syntax::OS),
                    false => (root, path, Syntax::OS),
                }
            }
            Some(_) => {
                // The names as given, their length checked before their elements.
                let root = match &options.root {
                    Some(root) => fs_name(path::bytes(root), "root")?,
                    None => b".".to_vec(),
                };
                (root, fs_name(path::bytes(path), "path")?, NAMES)
            }
        };
        if !path::is_within(syntax, &path, &root) {
            if outside_is_none {
                return Ok(None);
            }
            let message = [&b"path "[..], &path, b" is outside root ", &root];
            return Err(Error::invalid_argument(message.concat()));
        }
        // Every extra is checked before the first is read, so that a bad one fails the same way
        // wherever it is in the list.
        let absolute_all = |paths: &[PathBuf]| -> Result<Vec<PathBuf>, Error> {
            paths.iter().map(path::absolute).collect()
        };
        Ok(Some(Self {
            names,
            root,
            path,
            extras: absolute_all(&options.extra)?,
            overlays: absolute_all(&options.overlays)?,
        }))
    }
}

/// The custom file system's name `name`, the chain's `what`, checked.
fn fs_name(name: &[u8], what: &str) -> Result<Vec<u8>, Error> {
    path::check_path_length(name, what)?;
    path::check_fs_name(name).map_err(|e| Error::invalid_argument(format!("{what} {e}")))?;
    Ok(name.to_vec())
}
