//! The repository as `check` walks it (SPEC §12): its files as git sees them, and the rule
//! problems they show.

use super::*;

/// The regular files of the tree at `root`, walked as git would (what `.gitignore`, the
/// repository's `info/exclude` and the global excludes ignore is left out, hidden files are
/// not, `.git` is not entered, no link is followed), in byte order of path. What cannot be
/// walked (a directory that may not be read) is a [`Kind::Error`] problem, and the walk goes on.
pub(super) fn walk(root: &Path, problems: &mut Problems) -> Vec<PathBuf> {
    let mut walker = ignore::WalkBuilder::new(root);
    walker
        .hidden(false)
        .ignore(false)
        .parents(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|entry| entry.file_name() != ".git");
    let mut files = Vec::new();
    for entry in walker.build() {
        match entry {
            Ok(entry) if entry.file_type().is_some_and(|kind| kind.is_file()) => {
                files.push(entry.into_path());
            }
            Ok(_) => {}
            Err(e) => problems.add(Kind::Error, None, format!("walk: {e}"), "walk"),
        }
    }
    files.sort();
    files
}

/// Rule problems: a chain with the six dialects' rule directories at the root is run at each
/// file of `tree`; each warning it gives is a [`Kind::FrontMatter`] problem, and a rule that
/// some file's chain found not matching and none included is a [`Kind::UnmatchedGlob`] one.
pub(super) fn rules(root: &Path, tree: &[PathBuf], problems: &mut Problems) {
    let mut options = Options::new().root(root).report(true);
    options.rules = RULE_DIRS
        .iter()
        .map(|&(dialect, dir)| RuleDir::new(dialect, dir))
        .collect();
    let mut warnings: Vec<String> = Vec::new();
    let mut rule_files: BTreeSet<PathBuf> = BTreeSet::new();
    let mut unmatched: Vec<PathBuf> = Vec::new();
    let mut matched: HashSet<PathBuf> = HashSet::new();
    for file in tree {
        let chain = match agentsmd_core::chain(file, &options) {
            Ok(chain) => chain,
            Err(error) => {
                // One error is enough: every later file's chain would meet it again.
                let message = String::from_utf8_lossy(error.message()).into_owned();
                let path = error.path().map(Path::to_path_buf);
                problems.add(Kind::Error, path, format!("rules: {message}"), "rules");
                break;
            }
        };
        for probe in chain.probes.iter().filter(|p| p.source == Source::Rule) {
            match probe.outcome {
                Outcome::Included => {
                    matched.insert(probe.path.clone());
                }
                Outcome::NotMatched if !unmatched.contains(&probe.path) => {
                    unmatched.push(probe.path.clone());
                }
                _ => {}
            }
            rule_files.insert(probe.path.clone());
        }
        for warning in chain.warnings {
            if !warnings.contains(&warning) {
                warnings.push(warning);
            }
        }
    }
    for warning in warnings {
        // Each warning is `PATH: MESSAGE`, PATH the rule file's.
        let file = rule_files.iter().rev().find(|file| {
            let shown = String::from_utf8_lossy(path_to_bytes(file));
            warning.starts_with(&format!("{shown}: "))
        });
        let (path, message) = match file {
            Some(file) => {
                let shown = String::from_utf8_lossy(path_to_bytes(file)).len();
                (Some(file.clone()), warning[shown + 2..].to_string())
            }
            None => (None, warning.clone()),
        };
        let dialect = path.as_deref().map_or("rules", dialect_of);
        problems.add(Kind::FrontMatter, path, message, dialect);
    }
    for file in unmatched.into_iter().filter(|file| !matched.contains(file)) {
        let message = "its globs match no file of the tree".to_string();
        let dialect = dialect_of(&file);
        problems.add(Kind::UnmatchedGlob, Some(file), message, dialect);
    }
}

/// The name of the dialect whose rule directory holds `file`.
fn dialect_of(file: &Path) -> &'static str {
    let shown = String::from_utf8_lossy(path_to_bytes(file)).replace('\\', "/");
    let found = RULE_DIRS
        .iter()
        .find(|(_, dir)| shown.contains(&format!("/{dir}/")));
    found.map_or("rules", |(dialect, _)| dialect.as_str())
}
