//! Rule directories in the walk (SPEC §11 "Files", §11.1 "Rule directories"): what a rule
//! directory holds, and each rule file as read.

use crate::error::Error;
use crate::fs::{Files, Kind};
use crate::path::{self, FsName};
use crate::rules::{Dialect, Rule};

/// How many directory levels below a rule directory its files are looked for.
const LEVELS: usize = 8;

/// What is at a rule directory's name.
#[derive(Clone)]
pub(super) enum RuleFiles {
    /// A directory: the entries below it (up to [`LEVELS`] deep, links to directories not
    /// entered) whose name has one of the dialect's suffixes and does not begin with `.`, in
    /// byte order of their path below it, with what each is after following links (a link to
    /// a directory: [`Kind::Other`]).
    Listed(Vec<(FsName, Kind)>),
    /// A link leading out of a confined root: nothing in it is listed.
    Escapes,
    /// Something that is neither a directory nor a regular file, or a link that leads nowhere.
    NotADir,
    NotFound,
}

/// A rule file as read: the rule, and its content where it may be given (`None` for one on
/// request, or one over `max_bytes`, which is `TooLarge` when it would be given).
pub(super) struct ReadRule {
    pub(super) rule: Rule,
    pub(super) content: Option<Vec<u8>>,
    pub(super) too_large: bool,
}

impl RuleFiles {
    /// What is at `dir`, a rule directory of `dialect`; a regular file there is an error.
    pub(super) fn of(files: &Files, dir: &FsName, dialect: Dialect) -> Result<Self, Error> {
        match files.find_entry(dir)? {
            Some(Kind::Dir) => {}
            Some(Kind::Escapes) => return Ok(Self::Escapes),
            Some(Kind::File { .. }) => {
                let path = files.path_of(dir);
                let message = [&b"rule directory "[..], &path, b": not a directory"].concat();
                return Err(Error::invalid_argument(message));
            }
            Some(Kind::Other) => return Ok(Self::NotADir),
            None => return Ok(Self::NotFound),
        }
        // Level by level, so that a file system asked in batches lists each level in one.
        let mut found = Vec::new();
        let mut level = vec![(dir.clone(), Vec::new())];
        for depth in 0..=LEVELS {
            if files.batches().lists {
                let dirs: Vec<FsName> = level.iter().map(|(dir, _)| dir.clone()).collect();
                files.list_ahead(&dirs)?;
            }
            let mut next = Vec::new();
            for (dir, below) in &level {
                entries(files, dir, below, dialect, &mut found, &mut next)?;
            }
            // The directories below the deepest level are not entered.
            if depth == LEVELS || next.is_empty() {
                break;
            }
            level = next;
        }
        found.sort_unstable_by(|(a, ..), (b, ..)| a.cmp(b));
        Ok(Self::Listed(
            found
                .into_iter()
                .map(|(_, name, kind)| (name, kind))
                .collect(),
        ))
    }
}

/// The entries of `dir`, whose path below the rule directory is `below`: each rule file of
/// `dialect` added to `found` with its path below the rule directory, each directory to `next`.
fn entries(
    files: &Files,
    dir: &FsName,
    below: &[u8],
    dialect: Dialect,
    found: &mut Vec<(Vec<u8>, FsName, Kind)>,
    next: &mut Vec<(FsName, Vec<u8>)>,
) -> Result<(), Error> {
    let Some(listed) = files.list(dir)? else {
        return Ok(());
    };
    for name in &listed {
        let name = name.as_encoded_bytes();
        if !path::is_element(name) {
            continue;
        }
        let entry = dir.join(name);
        let below = path::join(if below.is_empty() { b"." } else { below }, name);
        let is_rule = !name.starts_with(b".")
            && dialect
                .suffixes()
                .iter()
                .any(|suffix| name.ends_with(suffix.as_bytes()));
        // Listed but leading nowhere: a dangling link, no file.
        let kind = match files.find_entry(&entry)?.unwrap_or(Kind::Other) {
            // A link to a directory is not entered: as a rule, it is no file.
            Kind::Dir if files.is_link(&entry)? => Kind::Other,
            Kind::Dir => {
                next.push((entry, below));
                continue;
            }
            kind => kind,
        };
        if is_rule {
            found.push((below, entry, kind));
        }
    }
    Ok(())
}

/// The name a rule of `dialect` at `name` is offered under: its file name without the suffix.
pub(super) fn offered_name(name: &FsName, dialect: Dialect) -> String {
    let file = name
        .as_bytes()
        .rsplit(|&b| b == b'/')
        .next()
        .unwrap_or_default();
    let suffix = dialect
        .suffixes()
        .iter()
        .find(|s| file.ends_with(s.as_bytes()));
    let stem = &file[..file.len() - suffix.map_or(0, |s| s.len())];
    String::from_utf8_lossy(stem).into_owned()
}
