//! Fragment directories (SPEC §5.2, [`Options::fragments`](crate::Options::fragments)).

use std::collections::{BTreeSet, HashMap};

use super::rule_dir::{ReadRule, RuleFiles};
use crate::error::Error;
use crate::fs::{Files, Kind};
use crate::path::{self, FsName};
use crate::rules::Dialect;

/// What is at a fragment directory's name.
#[derive(Clone)]
pub(super) enum FragmentDir {
    /// A directory: each `.md` name it lists not beginning with `.`, in byte order; whether each
    /// is a regular file is still to be asked.
    Listed(Vec<FsName>),
    /// A link leading out of a confined root: nothing in it is listed.
    Escapes,
    NotADir,
    NotFound,
}

/// What a session's earlier touches found of fragment and rule directories and their files
/// (SPEC §10: each looked up once), or what one chain found of rule files.
#[derive(Default)]
pub(crate) struct Known {
    pub(super) dirs: HashMap<FsName, FragmentDir>,
    pub(super) files: HashMap<FsName, Option<Kind>>,
    pub(super) rule_dirs: HashMap<(FsName, Dialect), RuleFiles>,
    pub(super) rules: HashMap<(FsName, Dialect), ReadRule>,
}

impl FragmentDir {
    pub(super) fn of(files: &Files, dir: &FsName) -> Result<Self, Error> {
        let listed = match files.find_entry(dir)? {
            Some(Kind::Dir) => files.list(dir)?,
            Some(Kind::Escapes) => return Ok(Self::Escapes),
            Some(_) => return Ok(Self::NotADir),
            None => None,
        };
        let Some(listed) = listed else {
            return Ok(Self::NotFound);
        };
        let names: BTreeSet<FsName> = listed
            .iter()
            .map(|name| name.as_encoded_bytes())
            .filter(|name| {
                name.ends_with(b".md") && !name.starts_with(b".") && path::is_element(name)
            })
            .map(|name| dir.join(name))
            .collect();
        Ok(Self::Listed(names.into_iter().collect()))
    }
}
