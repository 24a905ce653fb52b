//! The closed products (SPEC §12): each documents which files it loads and in which order, and
//! that is what the library's own chain loads with the right options. So a session of one
//! loads as the product does when its agent reads a file (SPEC §10), and its rendering is §2's.

use std::path::PathBuf;

use crate::options::Options;
use crate::rules::{Dialect, RuleDir};

/// What a closed product loads, as its documentation gives it.
pub(super) struct Documented {
    /// The names of each directory of the walk, in order of preference.
    pub names: &'static [&'static str],
    /// Every name a directory has is loaded, rather than the first (SPEC §9).
    pub all_names: bool,
    /// The product expands `@path` mentions (SPEC §5.4).
    pub imports: bool,
    /// The product's rule directory (SPEC §11).
    pub rules: Option<(Dialect, &'static str)>,
    /// The product's files outside the walk, loaded before it in this order: the user's, and
    /// those it reads in one place alone. The missing ones are skipped.
    pub extra: Vec<PathBuf>,
    /// Where the walk stops; `None` is the file system's root.
    pub root: Option<PathBuf>,
}

impl Documented {
    /// The options of the chain that loads what the product loads, with what the caller gave
    /// beside the preset overriding it as [`Preset::options`](crate::Preset::options) says.
    pub fn options(self, given: &Options) -> Options {
        let mut options = given.clone();
        options.preset = None;
        if given.names.is_empty() {
            options.names = self
                .names
                .iter()
                .map(|name| name.as_bytes().to_vec())
                .collect();
            options.all_names |= self.all_names;
        }
        if given.rules.is_empty() {
            let rules = self.rules.map(|(dialect, dir)| RuleDir::new(dialect, dir));
            options.rules = rules.into_iter().collect();
        }
        options.imports |= self.imports;
        options.root = given.root.clone().or(self.root);
        options.extra = self
            .extra
            .into_iter()
            .chain(given.extra.iter().cloned())
            .collect();
        options
    }
}
