//! A directory's rule directories in the walk (SPEC §11): the collector's part that finds,
//! reads once and gives or offers their rules.

use super::Collector;
use crate::chain::result::{Outcome, Reason, Source};
use crate::chain::rule_dir::{self, ReadRule, RuleFiles};
use crate::error::Error;
use crate::fs::{read_limit, Files};
use crate::path::{self, FsName};
use crate::rules::{Applies, Available, Dialect, Rule};
use crate::structure::front_matter;

/// The bytes of a rule file read first to find its front matter, doubled while it is not found.
const FIRST_PART: u64 = 4 << 10;

impl Collector<'_> {
    /// The rule directories of `dir`, a directory of the walk (the root when `at_root`), in
    /// the order of [`Options::rules`] (SPEC §11): the rules that apply at `touched`, each rule
    /// on request listed as available. In a directory that does not exist (`missing`), each is
    /// probed as not found, unasked. `scope` bounds the imports of what is read ahead with them.
    pub(in crate::chain) fn rules(
        &mut self,
        files: &Files,
        dir: &FsName,
        at_root: bool,
        missing: bool,
        touched: &FsName,
        scope: &[u8],
    ) -> Result<(), Error> {
        let relative = touched.relative_to(dir);
        let rules = self.rules.iter();
        for rules in rules.filter(|rules| at_root || rules.dialect.in_each_directory()) {
            let (rule_dir, dialect) = (dir.join(&rules.dir), rules.dialect);
            let path = files.path_of(&rule_dir);
            if missing {
                self.probe(&path, Source::Rule, Outcome::NotFound);
                continue;
            }
            let key = (rule_dir, dialect);
            let found = match self.known().rule_dirs.get(&key) {
                Some(found) => found.clone(),
                None => {
                    let planned = self.ahead.as_mut().and_then(|ahead| ahead.rule_dir(&key));
                    let found = planned.unwrap_or_else(|| RuleFiles::of(files, &key.0, dialect))?;
                    self.known().rule_dirs.insert(key, found.clone());
                    found
                }
            };
            let outcome = match found {
                RuleFiles::Listed(_) => Outcome::Listed,
                RuleFiles::Escapes => {
                    self.omit(&path, 0, Reason::Escapes, None, Source::Rule);
                    continue;
                }
                RuleFiles::NotADir => Outcome::NotAFile,
                RuleFiles::NotFound => Outcome::NotFound,
            };
            self.probe(&path, Source::Rule, outcome);
            let RuleFiles::Listed(entries) = found else {
                continue;
            };
            for (name, kind) in entries {
                let path = files.path_of(&name);
                if let Some(size) = self.file_size(&path, kind, Source::Rule) {
                    self.rule(files, (name, dialect), path, size, relative, scope)?;
                }
            }
        }
        Ok(())
    }

    /// The rule file `name` at `path`, of `size`: given when it applies at the path `relative`
    /// to its rule directory's directory, read once (SPEC §11 "When", "On request").
    fn rule(
        &mut self,
        files: &Files,
        key: (FsName, Dialect),
        path: Vec<u8>,
        size: u64,
        relative: Option<&[u8]>,
        scope: &[u8],
    ) -> Result<(), Error> {
        if !self.known().rules.contains_key(&key) {
            self.read_planned(files, &key.0, scope)?;
            let Some(read) = self.read_rule(files, &key.0, &path, size, key.1)? else {
                self.probe(&path, Source::Rule, Outcome::NotFound);
                return Ok(());
            };
            self.known().rules.insert(key.clone(), read);
            self.read_rules.push(key.clone());
        }
        let read = &self.known().rules[&key];
        let given = match &read.rule.applies {
            Applies::OnRequest => Err(Outcome::Available),
            Applies::Globs(globs)
                if !relative.is_some_and(|relative| globs.iter().any(|g| g.matches(relative))) =>
            {
                Err(Outcome::NotMatched)
            }
            _ if read.too_large => return Err(Error::too_large(&path, self.max_bytes)),
            _ => Ok(read.content.clone().unwrap_or_default()),
        };
        let content = match given {
            Ok(content) => content,
            Err(outcome) => {
                self.probe(&path, Source::Rule, outcome);
                return Ok(());
            }
        };
        if self.admits(&path, content.len() as u64, Source::Rule) {
            let imports_from = self.chain.imports.len();
            self.keep(path, content, Source::Rule, imports_from, None);
        }
        Ok(())
    }

    /// Reads the rule file `name` at `path`, of `size`, as `dialect` reads it: its warnings
    /// and, on request, its offer go to the chain; `None` when it turned out not to exist.
    fn read_rule(
        &mut self,
        files: &Files,
        name: &FsName,
        path: &[u8],
        size: u64,
        dialect: Dialect,
    ) -> Result<Option<ReadRule>, Error> {
        let Some(mut file) = files.open(name, size)? else {
            return Ok(None);
        };
        // The front matter first: a rule on request is read no further (SPEC §11).
        let limit = read_limit(self.max_bytes);
        let mut text = Vec::new();
        let mut part = FIRST_PART;
        let mut ended = false;
        while !ended && !front_matter::is_known(&text) && (text.len() as u64) < limit {
            let more = part.min(limit - text.len() as u64);
            ended = files.read_on(&mut *file, name, (more, more), &mut text)? < more;
            part = part.saturating_mul(2);
        }
        let rule = Rule::read(dialect, &text[..text.len().min(self.max_bytes as usize)]);
        if !ended && !matches!(rule.applies, Applies::OnRequest) {
            let more = limit.saturating_sub(text.len() as u64);
            files.read_on(&mut *file, name, (size, more), &mut text)?;
        }
        let too_large = text.len() as u64 > self.max_bytes;
        // Whether it applies cannot be told within `max_bytes`.
        if too_large && rule.unclosed {
            return Err(Error::too_large(path, self.max_bytes));
        }
        let shown = String::from_utf8_lossy(path);
        let warnings = rule.warnings.iter();
        let warnings = warnings.map(|warning| format!("{shown}: {warning}"));
        self.chain.warnings.extend(warnings);
        let content = match rule.applies {
            Applies::OnRequest => {
                self.chain.available.push(Available {
                    path: path::to_path_buf(path),
                    name: rule_dir::offered_name(name, dialect),
                    description: rule.description.clone(),
                });
                None
            }
            _ if too_large => None,
            _ => Some(text[rule.body..].to_vec()),
        };
        Ok(Some(ReadRule {
            rule,
            content,
            too_large,
        }))
    }
}
