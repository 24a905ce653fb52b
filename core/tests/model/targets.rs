//! The checks of the fuzz targets: each takes any byte string, decodes it into an input, runs
//! the library and panics when the library and SPEC.md disagree.

use std::path::Path;
use std::sync::Arc;

use agentsmd_core::structure::{self as library, BlockOptions, SkillOptions, DEFAULT_HEADING};
use agentsmd_core::ErrorKind;

use super::input::{self, Input};
use super::memory::{os_path, Asked, MemoryFs, Node};
use super::rendering::{as_rendered, parse, rendered_len};
use super::spec::{self, is_fs_name, is_within, Config};
use super::structure::{self, Rendered};

/// `render` (SPEC.md §2): its length is the template's, paths never break out of their
/// attribute, and a rendering whose contents forge no closing tag parses back to the same files
/// (each content as rendered: with the newline added when it was missing).
pub fn render(data: &[u8]) {
    let mut input = Input::new(data);
    let mut files: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    for _ in 0..input.below(5) {
        let path = match input.below(4) {
            0 => input::piece_name(&mut input),
            _ => input::element_name(&mut input, 3),
        };
        files.push((path, input::content(&mut input)));
    }
    // What is left is one more file's path, any bytes at all.
    let rest = input.rest();
    if !rest.is_empty() {
        files.push((rest.to_vec(), b"rest\n".to_vec()));
    }
    let pairs: Vec<(&[u8], &[u8])> = files
        .iter()
        .map(|(path, content)| (path.as_slice(), content.as_slice()))
        .collect();
    let out = agentsmd_core::render(&pairs);
    assert_eq!(
        out,
        super::rendering::render(&pairs),
        "the template filled in, for {files:?}"
    );

    let lens: Vec<(&[u8], u128, bool)> = files
        .iter()
        .map(|(p, c)| (p.as_slice(), c.len() as u128, c.ends_with(b"\n")))
        .collect();
    assert_eq!(
        out.len() as u128,
        rendered_len(&lens),
        "length of {files:?}"
    );
    if files.is_empty() {
        assert!(out.is_empty());
        return;
    }
    assert!(out.ends_with(b"</project_instructions>\n</project_context>"));
    let forged = files.iter().any(|(_, content)| {
        content
            .windows(b"</project_instructions>".len())
            .any(|w| w == b"</project_instructions>")
    });
    let parsed = parse(&out);
    if forged {
        // Content is verbatim: it may close its own element. The first path is still intact,
        // because a path cannot close its attribute.
        let first = parsed.map(|files| files[0].0.clone());
        if let Ok(first) = first {
            assert_eq!(first, files[0].0);
        }
        return;
    }
    let parsed = parsed.unwrap_or_else(|why| {
        panic!(
            "{why}: rendering of {files:?}:\n{}",
            String::from_utf8_lossy(&out)
        )
    });
    let rendered: Vec<(Vec<u8>, Vec<u8>)> = files
        .iter()
        .map(|(path, content)| (path.clone(), as_rendered(content)))
        .collect();
    assert_eq!(parsed, rendered);
}

/// FS-name validation (SPEC.md §1 Paths and Names): names, path and root made of pieces that are
/// often invalid, on a small fixed tree. The library refuses exactly what the model of
/// `fs.ValidPath` and of one path element refuses, before any I/O, and asks the file system only
/// valid names within the root.
pub fn fs_name(data: &[u8]) {
    let mut input = Input::new(data);
    let mut names = Vec::new();
    for _ in 0..input.below(3) {
        names.push(input::piece_name(&mut input));
    }
    let root = match input.below(3) {
        0 => Vec::new(),
        1 => b"a".to_vec(),
        _ => input::piece_name(&mut input),
    };
    let path = input::piece_name(&mut input);
    let mut fs = MemoryFs::new();
    for name in ["AGENTS.md", "a/AGENTS.md", "a/a/AGENTS.md", "a/b/AGENTS.md"] {
        fs.insert(
            name.as_bytes().to_vec(),
            Node::File {
                content: name.as_bytes().to_vec(),
                size: name.len() as u64,
            },
        );
    }
    let config = Config {
        names,
        root,
        path,
        ..Config::default()
    };
    let valid = config.names.iter().all(|name| spec::is_name(name))
        && is_fs_name(&config.path)
        && is_fs_name(root_of(&config))
        && is_within(&config.path, root_of(&config));
    let refused = check_chain(fs, &config) == Some(ErrorKind::InvalidArgument);
    assert_eq!(refused, !valid, "{config:?}");
}

/// `chain` (SPEC.md §1) over an arbitrary in-memory tree, with arbitrary options and faults,
/// against the model.
pub fn chain(data: &[u8]) {
    let mut input = Input::new(data);
    let config = input::config(&mut input);
    let fs = input::tree(&mut input);
    check_chain(fs, &config);
}

/// A path's bytes, as the model names files.
fn bytes(path: &Path) -> Vec<u8> {
    path.as_os_str().as_encoded_bytes().to_vec()
}

fn root_of(config: &Config) -> &[u8] {
    if config.root.is_empty() {
        b"."
    } else {
        &config.root
    }
}

/// Runs the library and the model on `fs` and `config` and checks that they agree; returns the
/// kind of the library's error, if it failed.
pub fn check_chain(fs: MemoryFs, config: &Config) -> Option<ErrorKind> {
    let fs = Arc::new(fs);
    let expected = spec::chain(&fs, config);
    let path = os_path(&config.path);
    let mut options = config.options(fs.clone());
    // A run through batches (`AGENTSMD_TEST_BATCHED=1`) asks in batches where the result is
    // the one the single questions give (SPEC.md §3.1): no fault, no budget decided from sizes.
    let unbudgeted = config.budget.is_none() && config.rendered_budget.is_none();
    if through_batches()
        && fs.is_faultless()
        && unbudgeted
        && !leads_through_a_file(&fs, &config.path)
    {
        options = options.fs(Arc::new(Batched::new(fs.clone())));
    }
    let actual = agentsmd_core::chain(path, &options);
    let context = || format!("config {config:?}\nfs {fs:?}");
    let kind = match (&expected, &actual) {
        (Ok(expected), Ok(actual)) => {
            let files: Vec<(Vec<u8>, Vec<u8>)> = actual
                .files
                .iter()
                .map(|f| (bytes(&f.path), f.content.clone()))
                .collect();
            let omitted: Vec<_> = actual
                .omitted
                .iter()
                .map(|o| {
                    let by = o.by.as_deref().map(bytes).unwrap_or_default();
                    (bytes(&o.path), o.size, o.reason, by)
                })
                .collect();
            assert_eq!(files, expected.files, "files\n{}", context());
            assert_eq!(omitted, expected.omitted, "omitted\n{}", context());
            check_bounds(config, actual);
            None
        }
        (Err(failures), Err(error)) => {
            let named = failures.iter().any(|failure| {
                failure.kind == error.kind()
                    && error
                        .to_string()
                        .contains(&*String::from_utf8_lossy(&failure.name))
            });
            assert!(
                named,
                "the library failed with {:?} {:?}; the model allows {failures:?}\n{}",
                error.kind(),
                error.to_string(),
                context()
            );
            Some(error.kind())
        }
        _ => panic!(
            "the library answered {actual:?}; the model {expected:?}\n{}",
            context()
        ),
    };

    let asked = fs.asked();
    if kind == Some(ErrorKind::InvalidArgument) {
        assert!(asked.is_empty(), "asked {asked:?} before refusing");
    }
    check_asked(&asked, root_of(config), config.max_bytes());
    kind
}

/// Whether this is a run through batches (`AGENTSMD_TEST_BATCHED=1`, set by the rerun of
/// `core/tests/support`).
fn through_batches() -> bool {
    std::env::var_os("AGENTSMD_TEST_BATCHED").is_some_and(|v| v == "1")
}

/// The bounds, checked on the result directly rather than through the model.
fn check_bounds(config: &Config, chain: &agentsmd_core::Chain) {
    let spent: u128 = chain.files.iter().map(|f| f.content.len() as u128).sum();
    if let Some(budget) = config.budget {
        assert!(spent <= u128::from(budget));
    }
    let rendering = agentsmd_core::render(&chain.files);
    if let Some(budget) = config.rendered_budget {
        assert!(rendering.len() as u128 <= u128::from(budget));
    }
    for file in &chain.files {
        assert!(file.content.len() as u64 <= config.max_bytes());
    }
}

/// What the spec says a chain with imports ends with.
#[derive(Debug)]
enum ImportsExpected {
    /// Every top-level file, expanded or a duplicate.
    Tops(Vec<super::imports::Top>),
    /// An import's failure.
    Failure(super::imports::Failure),
    /// A top-level file over `max_bytes`, as read or as expanded.
    TooLarge(Vec<u8>),
}

/// The spec's answer for the chain of an import case: its top-level files, found as the walk
/// finds them (SPEC.md §1, one name, no fault on them), each read whole and expanded in turn,
/// so that the first failure is the one met first.
fn imports_expected(case: &input::ImportCase) -> (Vec<Vec<u8>>, ImportsExpected) {
    use super::imports::{expand, Top, Why};
    use super::memory::Stat;

    let limits = case.limits;
    let in_scope = |name: &[u8]| case.scope == b"." || name.starts_with(b"d/");
    let mut tops: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    for &name in input::IMPORT_TOPS.iter().filter(|n| in_scope(n)) {
        if let Ok(Some(Stat::File { .. })) = case.fs.stat_of(name) {
            let content = case.fs.read_of(name, u64::MAX).unwrap().unwrap_or_default();
            tops.push((name.to_vec(), content));
        }
    }
    let names = tops.iter().map(|(name, _)| name.clone()).collect();
    let mut done = Vec::new();
    for (name, content) in &tops {
        // Whether an earlier file imported this one decides before it is read.
        let mut probe = done.clone();
        probe.push((name.clone(), Vec::new()));
        if let Ok(expanded) = expand(&case.fs, &probe, &case.scope, limits) {
            if matches!(expanded.last(), Some(Top::Duplicate { .. })) {
                done.push((name.clone(), content.clone()));
                continue;
            }
        }
        if content.len() as u64 > limits.max_bytes {
            return (names, ImportsExpected::TooLarge(name.clone()));
        }
        done.push((name.clone(), content.clone()));
        match expand(&case.fs, &done, &case.scope, limits) {
            Err(failure) if failure.why == Why::ExpandedTooLarge => {
                return (names, ImportsExpected::TooLarge(failure.by))
            }
            Err(failure) => return (names, ImportsExpected::Failure(failure)),
            Ok(expanded) => match expanded.last() {
                Some(Top::Expanded { content, .. }) if content.len() as u64 > limits.max_bytes => {
                    return (names, ImportsExpected::TooLarge(name.clone()))
                }
                _ => {}
            },
        }
    }
    let expanded = expand(&case.fs, &done, &case.scope, limits).expect("expanded above");
    (names, ImportsExpected::Tops(expanded))
}

/// Imports (SPEC.md §5.4, §5.8): the public `chain` with `imports` on, over an in-memory tree,
/// agrees with the model — the content, the provenance, which files are duplicates — and when
/// the model fails, the library fails the same way: the kind, `PATH:LINE: `, the target and why.
pub fn imports(data: &[u8]) {
    use super::imports::{Top, Why};

    let mut input = Input::new(data);
    let case = input::import_case(&mut input);
    let limits = case.limits;
    let (tops, expected) = imports_expected(&case);
    let fs = Arc::new(case.fs);
    let options = agentsmd_core::Options::new()
        .fs(fs.clone())
        .root(os_path(&case.scope))
        .imports(true)
        .import_depth(limits.import_depth)
        .max_imports(limits.max_imports)
        .max_bytes(limits.max_bytes);
    let actual = agentsmd_core::chain("d/e", &options);
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    match (expected, actual) {
        (ImportsExpected::Tops(expected), Ok(chain)) => {
            let mut files = Vec::new();
            let mut duplicates = Vec::new();
            let mut imports = Vec::new();
            for (top, name) in expected.into_iter().zip(&tops) {
                match top {
                    Top::Duplicate { by } => duplicates.push((name.clone(), by)),
                    Top::Expanded {
                        content,
                        imports: met,
                    } => {
                        files.push((name.clone(), content));
                        imports.extend(met);
                    }
                }
            }
            let actual_files: Vec<_> = chain
                .files
                .iter()
                .map(|f| (bytes(&f.path), f.content.clone()))
                .collect();
            assert_eq!(actual_files, files, "{tops:?} {limits:?}");
            let actual_duplicates: Vec<_> = chain
                .omitted
                .iter()
                .map(|o| {
                    assert_eq!(o.reason, agentsmd_core::Reason::Duplicate);
                    (bytes(&o.path), bytes(o.by.as_deref().unwrap()))
                })
                .collect();
            assert_eq!(actual_duplicates, duplicates, "{tops:?} {limits:?}");
            let actual_imports: Vec<_> = chain
                .imports
                .iter()
                .map(|i| {
                    (
                        bytes(&i.path),
                        bytes(&i.by),
                        i.line,
                        i.depth,
                        i.size,
                        i.duplicate,
                    )
                })
                .collect();
            assert_eq!(actual_imports, imports, "{tops:?} {limits:?}");
        }
        (ImportsExpected::TooLarge(top), Err(error)) => {
            assert_eq!(error.kind(), ErrorKind::TooLarge, "{error}");
            assert!(error.to_string().contains(&text(&top)), "{error}");
            assert!(!error.to_string().contains(": import "), "{error}");
        }
        (ImportsExpected::Failure(failure), Err(error)) => {
            let message = error.to_string();
            assert_eq!(error.kind(), failure.kind(), "{message} for {failure:?}");
            let prefix = format!("{}:{}: ", text(&failure.by), failure.line);
            assert!(message.starts_with(&prefix), "{message} for {failure:?}");
            assert!(message.contains(&text(&failure.target)), "{message}");
            let why: &[String] = &match &failure.why {
                Why::Invalid => vec!["invalid".into()],
                Why::OutsideScope => vec!["outside".into()],
                Why::Depth => vec!["depth".into()],
                Why::Cycle(files) => files.iter().map(|f| text(f)).collect(),
                Why::NotFound => vec!["not found".into()],
                Why::NotAFile => vec!["not a regular file".into()],
                Why::Count => {
                    let max = if limits.max_imports == 0 {
                        64
                    } else {
                        limits.max_imports
                    };
                    vec![max.to_string()]
                }
                Why::TooLarge => vec!["exceeds".into()],
                Why::Failed => vec!["injected failure".into()],
                Why::ExpandedTooLarge => unreachable!("the model's TooLarge, {failure:?}"),
            };
            // In order, after the prefix: a cycle's files as the chain of expansion met them.
            let mut rest = &message[prefix.len()..];
            for word in why {
                let at = rest
                    .find(word.as_str())
                    .unwrap_or_else(|| panic!("{message} lacks {word:?} for {failure:?}"));
                rest = &rest[at + word.len()..];
            }
        }
        (expected, actual) => {
            panic!("model {expected:?}, library {actual:?}, for {tops:?} {limits:?}")
        }
    }
}

/// `structure` (SPEC.md §6): any text built of the lines §6 reads, any cap, heading, preamble and
/// caller's list. The block keeps exactly the units the cap lets through, each whole and in
/// order; the warning names exactly the units missing, with their count and bytes; and the block
/// less its warning line never exceeds the cap.
pub fn structure(data: &[u8]) {
    let mut input = Input::new(data);
    let mut options = BlockOptions::default();
    options.cap = match input.below(5) {
        0 => None,
        1 => Some(0),
        2 => Some(input.below(256) * 16),
        3 => Some(2048 + input.below(256) * 8),
        _ => Some(2048 + input.below(256) * 64),
    };
    options.heading = input.pick(&[DEFAULT_HEADING, b"", b"# H"]).to_vec();
    options.preamble = input.pick(&[b"".as_slice(), b"Read first."]).to_vec();
    let mut skill_options = SkillOptions::default();
    if input.chance(64) {
        let count = input.below(4);
        let names = (0..count).map(|_| input.pick(input::SKILL_NAMES).to_vec());
        skill_options.requested = Some(names.collect());
    }
    let text = input::structured_text(&mut input);

    let document = library::parse(&text);
    for unit in &document.units {
        assert!(unit.text.ends_with(b"\n"), "{unit:?}");
        let first_line = unit.text.split(|&b| b == b'\n').next().unwrap();
        assert!(first_line.iter().any(|b| !b" \t\r".contains(b)), "{unit:?}");
    }
    // The document has no path: only inline skills resolve, and no file system is asked.
    let skills = document
        .resolve_skills(&skill_options, &agentsmd_core::Options::default())
        .unwrap();
    let block = library::block(&document, &skills, &options).unwrap();

    let cap = match options.cap {
        None | Some(0) => 8192,
        Some(cap) => cap.max(2048),
    };
    assert_eq!(block.cap, cap);
    let mut units: Vec<Rendered> = document
        .units
        .iter()
        .map(|unit| Rendered {
            title: unit.title.as_deref().unwrap_or(b"(preamble)").to_vec(),
            text: unit.text.clone(),
            skill: false,
        })
        .collect();
    units.extend(skills.resolved.iter().map(|skill| Rendered {
        title: [b"skill: ".as_slice(), &skill.name].concat(),
        text: [b"### ".as_slice(), &skill.name, b"\n\n", &skill.text].concat(),
        skill: true,
    }));
    if units.is_empty() {
        assert!(block.text.is_empty());
        return;
    }
    let mut fixed = [options.heading.as_slice(), b"\n\n"].concat();
    if !options.preamble.is_empty() {
        fixed.extend_from_slice(&[options.preamble.as_slice(), b"\n\n"].concat());
    }
    let kept = structure::kept(&units, cap.saturating_sub(fixed.len()));
    let missing: Vec<&Rendered> = units
        .iter()
        .zip(&kept)
        .filter(|(_, &k)| !k)
        .map(|(u, _)| u)
        .collect();
    let dropped: Vec<(Vec<u8>, usize)> = block
        .dropped
        .iter()
        .map(|d| (d.title.clone(), d.bytes))
        .collect();
    let expected: Vec<(Vec<u8>, usize)> = missing
        .iter()
        .map(|u| (u.title.clone(), u.text.len()))
        .collect();
    assert_eq!(dropped, expected);

    let rest = block
        .text
        .strip_prefix(fixed.as_slice())
        .expect("the block starts with its fixed part");
    let (warning, body) = match rest.strip_prefix("> ⚠️ AGENTS.md exceeded ".as_bytes()) {
        Some(_) => {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .expect("the warning line ends");
            (&rest[..=end], &rest[end + 1..])
        }
        None => (&rest[..0], rest),
    };
    assert_eq!(
        warning.is_empty(),
        missing.is_empty(),
        "a warning exactly when a unit is missing"
    );
    if fixed.len() <= cap {
        assert!(
            block.text.len() - warning.len() <= cap,
            "{} > {cap}",
            block.text.len() - warning.len()
        );
    }
    if missing.is_empty() {
        assert_eq!(body, structure::joined(&units, &kept));
        return;
    }
    let bytes: usize = missing.iter().map(|u| u.text.len()).sum();
    let head = format!("> ⚠️ AGENTS.md exceeded {cap} bytes; ");
    if missing.len() == units.len() {
        let whole = format!(
            "{head}the whole file was omitted ({bytes} bytes) — read AGENTS.md for the full \
             instructions before you start.\n"
        );
        assert_eq!(warning, whole.as_bytes());
        assert!(body.is_empty());
        return;
    }
    let count = format!(
        "{head}{} section(s) omitted ({bytes} bytes): ",
        missing.len()
    );
    assert!(
        warning.starts_with(count.as_bytes()),
        "{}",
        String::from_utf8_lossy(warning)
    );
    let titles: Vec<Vec<u8>> = missing
        .iter()
        .take(structure::LISTED)
        .map(|u| structure::listed_title(&u.title))
        .collect();
    let more = missing.len().saturating_sub(structure::LISTED);
    assert_eq!(structure::listed_titles(warning), Some((titles, more)));
    assert!(warning
        .ends_with(b" \xe2\x80\x94 read AGENTS.md for the full instructions before you start.\n"));
    assert_eq!(
        body,
        [b"\n".as_slice(), &structure::joined(&units, &kept)].concat()
    );
}

/// `chain` with the composition options (SPEC.md §5: fragments, imports, the interpolator,
/// nearest, probes) over an arbitrary in-memory tree, and `parse_nearest` (§6.5) on the same
/// tree. No model of every rule here, but what holds for any input: no panic, the bounds, every
/// question a valid name within root, each kept file probed `included`, at most one file of
/// source `chain` with `nearest` (one per name with `all_names`), and `parse_nearest`'s document that file's, parsed.
pub fn compose(data: &[u8]) {
    use agentsmd_core::structure::Origin;
    use agentsmd_core::{FsName, Outcome, Source, Transform};

    let mut input = Input::new(data);
    let config = input::config(&mut input);
    let fragments: Vec<&[u8]> = (0..input.below(3))
        .map(|_| input.pick(&[&b"a"[..], b"b", b"a/b", b"c d"]))
        .collect();
    let (imports, nearest, report) = (input.chance(96), input.chance(96), input.chance(128));
    let interpolate = input.chance(64);
    let fs = Arc::new(input::tree(&mut input));
    let mut options = config
        .options(fs.clone())
        .fragments(fragments)
        .imports(imports)
        .nearest(nearest)
        .report(report);
    if interpolate {
        let values = std::collections::HashMap::from([("X".to_owned(), b"${env:X}!".to_vec())]);
        options = options.transform(Transform::interpolator(values));
    }
    let path = os_path(&config.path);
    let context = || format!("config {config:?} {options:?}\nfs {fs:?}");

    if let Ok(chain) = agentsmd_core::chain(&path, &options) {
        check_bounds(&config, &chain);
        let chain_files = chain.files.iter().filter(|f| f.source == Source::Chain);
        // One directory's files: one, or with `all_names` one per name (SPEC.md §9).
        let most = if config.all_names {
            options.names.len().max(1)
        } else {
            1
        };
        if nearest {
            assert!(chain_files.count() <= most, "{}", context());
        }
        for file in &chain.files {
            let probed = chain
                .probes
                .iter()
                .any(|p| p.path == file.path && p.outcome == Outcome::Included);
            assert_eq!(probed, report, "{file:?}\n{}", context());
        }
        assert!(imports || chain.imports.is_empty());
    }

    let document = library::parse_nearest(&path, &options);
    let nearest_chain = agentsmd_core::chain(&path, &options.clone().nearest(true));
    match (document, nearest_chain) {
        (Ok(document), Ok(chain)) => {
            let last = chain.files.iter().rev().find(|f| f.source == Source::Chain);
            let expected = last.map(|file| {
                let mut parsed = library::parse(&file.content);
                let name = FsName::new(bytes(&file.path)).unwrap();
                parsed.origin = Some(Origin::Fs(name));
                parsed
            });
            assert_eq!(document, expected, "{}", context());
            if let Some(document) = document {
                // Resolving its skills through the same file system fails or not; never panics.
                let _ = document.resolve_skills(&SkillOptions::default(), &options);
            }
        }
        (Err(parse), Err(chain)) => assert_eq!(parse.kind(), chain.kind(), "{}", context()),
        (document, chain) => panic!("parse_nearest {document:?}, chain {chain:?}\n{}", context()),
    }

    let root = root_of(&config);
    for question in fs.asked() {
        assert!(
            is_fs_name(&question.name) && is_within(&question.name, root),
            "asked {question:?} with root {root:?}"
        );
    }
}

/// `chain` with fragments and imports (SPEC.md §5.2, §5.4) over an in-memory tree asked in
/// batches (§3.1), against the same tree asked one question at a time: no panic, the bounds,
/// every read batch asking `max_bytes + 1` bytes of a file at most, and, where no question lies
/// (no fault) and no budget decides from listed sizes, the same result or the same kind of
/// error.
pub fn batched(data: &[u8]) {
    use agentsmd_core::fs::FileSystem;

    let mut input = Input::new(data);
    let config = input::config(&mut input);
    let fragments: Vec<&[u8]> = (0..input.below(3))
        .map(|_| input.pick(&[&b"a"[..], b"b", b"a/b"]))
        .collect();
    let imports = input.chance(160);
    let fs = Arc::new(input::tree(&mut input));
    let options = |fs: Arc<dyn FileSystem>| {
        config
            .options(Arc::new(MemoryFs::new()))
            .fs(fs)
            .fragments(fragments.clone())
            .imports(imports)
    };
    let batched = Arc::new(Batched::new(fs.clone()));
    let path = os_path(&config.path);
    let single = agentsmd_core::chain(&path, &options(fs.clone()));
    let asked = agentsmd_core::chain(&path, &options(batched.clone()));
    let context =
        || format!("config {config:?} fragments {fragments:?} imports {imports}\nfs {fs:?}");
    if let Ok(chain) = &asked {
        check_bounds(&config, chain);
    }
    let limit = config.max_bytes().saturating_add(1);
    for asked_limit in batched.limits() {
        assert!(
            asked_limit <= limit,
            "a read batch of {asked_limit}\n{}",
            context()
        );
    }
    if !fs.is_faultless() || config.budget.is_some() || config.rendered_budget.is_some() {
        return;
    }
    match (single, asked) {
        // A batch answers a name that is no directory as a missing one, where the single
        // listing of it fails (SPEC.md §3.1): the batched chain goes on from there.
        (Err(single), _) if single.path().is_some_and(|p| is_no_directory(&fs, p)) => {}
        (Ok(single), Ok(asked)) => assert_eq!(single, asked, "{}", context()),
        (Err(single), Err(asked)) => assert_eq!(single.kind(), asked.kind(), "{}", context()),
        (single, asked) => panic!(
            "one at a time {single:?}, in batches {asked:?}\n{}",
            context()
        ),
    }
}

/// Sessions (SPEC.md §10): 1 to 8 touches — of files, directories and files about to be created
/// within the root, of the root, of paths outside it, of invalid ones — over an arbitrary
/// in-memory tree, with fragments, imports, probes, budgets and rule directories (SPEC.md §11:
/// Cursor's in each directory, Claude's at the root, rules always, by glob and on request) now
/// and then, each against a plain `chain` of its path on the same tree. The first touch inside
/// root gives its chain. Where no fault lies: without a budget or imports, each later delta is
/// the chain's files that no earlier delta gave, in chain order, with what no earlier delta
/// reported left out or probed, and the rules offered and warnings said that no earlier delta
/// reported, and a touch fails exactly when its chain does, the same way; with them, each
/// delta's files are its chain's; a failed touch leaves the session as it was (a session of the
/// touches that succeeded gives the same deltas); no touch lists a directory an earlier touch
/// listed in the same role. Always: a path outside root gives an empty delta; no file is given
/// twice, no omitted file, offered rule or warning reported twice; the session keeps within its
/// budgets; every question is a valid name within root. Over a tree with no fault, now and then
/// (always in a run through batches), the session asks in batches.
pub fn session(data: &[u8]) {
    use agentsmd_core::fs::FileSystem;
    use agentsmd_core::{Chain, Outcome, Reason, Session};
    use std::collections::HashSet;

    let mut input = Input::new(data);
    let mut config = input::config(&mut input);
    // Budgets now and then: a session's deltas then depend on what it gave before.
    if !input.chance(64) {
        (config.budget, config.rendered_budget) = (None, None);
    }
    let fragments: Vec<&[u8]> = (0..input.below(3))
        .map(|_| input.pick(&[&b"a"[..], b"b", b"a/b"]))
        .collect();
    let (imports, report) = (input.chance(48), input.chance(64));
    // One tree twice: the chains' and the session's, whose questions are the session's alone.
    let mut again = input.clone();
    let mut tree = input::tree(&mut input);
    let mut asked = input::tree(&mut again);
    let mut paths = vec![config.path.clone()];
    for _ in 0..input.below(8) {
        paths.push(input::touch_path(&mut input, &config));
    }
    // Rules (SPEC.md §11) last, so that the bytes before them read as they did before rules.
    let rules = input::rule_dirs(&mut input);
    let mut again = input.clone();
    input::rule_files(&mut input, &mut tree);
    input::rule_files(&mut again, &mut asked);
    let (fs, asked) = (Arc::new(tree), Arc::new(asked));
    // A fault makes the tree answer a question the session does not ask again otherwise than
    // what it knows (a directory it listed, stat as not found): its walk may then differ.
    let faultless = fs.is_faultless();
    let unbudgeted = config.budget.is_none() && config.rendered_budget.is_none();
    let exact = unbudgeted && !imports && faultless;
    let batched = (through_batches() || input.chance(64))
        && faultless
        && unbudgeted
        && paths.iter().all(|path| !leads_through_a_file(&fs, path));
    let options = config
        .options(fs.clone())
        .fragments(fragments.clone())
        .imports(imports)
        .report(report)
        .rules(rules.clone());
    let over = |fs: &Arc<MemoryFs>| -> Arc<dyn FileSystem> {
        match batched {
            true => Arc::new(Batched::new(fs.clone())),
            false => fs.clone(),
        }
    };
    let session = Session::new(options.clone().fs(over(&asked))).unwrap();
    let root = root_of(&config);
    let context = || {
        format!(
            "touches {paths:?}\nconfig {config:?} fragments {fragments:?} imports {imports} \
             report {report} batched {batched} rules {rules:?}\nfs {fs:?}"
        )
    };

    let mut given = HashSet::new();
    let mut reported = HashSet::new();
    let mut probed = HashSet::new();
    // The rules offered and the warnings said: each by the delta that first read its rule.
    let mut offered = HashSet::new();
    let mut warned = HashSet::new();
    let (mut started, mut failed) = (false, false);
    let mut deltas: Vec<(&[u8], Chain)> = Vec::new();
    let (mut spent, mut rendered) = (0u128, 0u128);
    // Where each touch's questions begin.
    let mut starts = Vec::new();
    for path in &paths {
        starts.push(asked.asked().len());
        let at = os_path(path);
        let chain = agentsmd_core::chain(&at, &options);
        let delta = match session.touch(&at) {
            Ok(delta) => delta,
            Err(error) => {
                if exact {
                    let kind = chain.as_ref().err().map(agentsmd_core::Error::kind);
                    let what = format!("touch {path:?}: {error}, chain {chain:?}");
                    assert_eq!(Some(error.kind()), kind, "{what}\n{}", context());
                }
                failed = true;
                continue;
            }
        };
        deltas.push((path, delta.clone()));
        let what = || format!("touch {path:?}: {delta:?}\nchain {chain:?}\n{}", context());
        if is_fs_name(path) && is_fs_name(root) && !is_within(path, root) {
            assert_eq!(delta, Chain::default(), "outside root: {}", what());
            continue;
        }
        match &chain {
            // The first touch's sets are empty: its delta is its chain (where no fault lies, or
            // no failed touch looked a directory up before).
            Ok(chain) if (!started && (faultless || !failed)) || exact => {
                let mut expected = chain.clone();
                expected.files.retain(|file| !given.contains(&file.path));
                // A file given before is not met again where it would be kept (nor left out as a
                // duplicate of itself); it may still be shadowed in a directory. What an earlier
                // delta reported is not reported again; within one touch, what its chain reports
                // twice (a fragment's file that is also a walk file) is reported twice.
                expected.omitted.retain(|o| {
                    let itself = o.reason == Reason::Duplicate && given.contains(&o.path);
                    !(itself || reported.contains(&o.path))
                });
                expected.probes.retain(|p| {
                    let kept = matches!(p.outcome, Outcome::Included | Outcome::Duplicate);
                    let given_before = kept && given.contains(&p.path);
                    !(given_before || probed.contains(p))
                });
                // An on-request rule is offered, and a rule's warnings said, by the delta whose
                // touch first read it (SPEC.md §11.1).
                expected.available.retain(|a| !offered.contains(&a.path));
                expected.warnings.retain(|w| !warned.contains(w));
                assert_eq!(delta, expected, "started {started}: {}", what());
            }
            Ok(chain) if faultless => {
                for file in &delta.files {
                    let of_chain = chain.files.iter().any(|f| f.path == file.path);
                    assert!(of_chain, "{file:?} is no file of the chain: {}", what());
                }
            }
            Ok(_) => {}
            Err(_) => assert!(!exact, "the chain failed: {}", what()),
        }
        started = true;
        for file in &delta.files {
            assert!(!given.contains(&file.path), "given twice: {}", what());
            spent += file.content.len() as u128;
        }
        for left_out in &delta.omitted {
            assert!(
                !reported.contains(&left_out.path),
                "reported twice: {}",
                what()
            );
        }
        for offer in &delta.available {
            assert!(!offered.contains(&offer.path), "offered twice: {}", what());
        }
        for warning in &delta.warnings {
            assert!(!warned.contains(warning), "warned twice: {}", what());
        }
        offered.extend(delta.available.iter().map(|a| a.path.clone()));
        warned.extend(delta.warnings.iter().cloned());
        let imported = delta.imports.iter().filter(|import| !import.duplicate);
        let imported = imported.map(|import| import.path.clone());
        given.extend(delta.files.iter().map(|f| f.path.clone()).chain(imported));
        reported.extend(delta.omitted.iter().map(|o| o.path.clone()));
        probed.extend(delta.probes.iter().cloned());
        if !delta.files.is_empty() {
            rendered += agentsmd_core::render(&delta.files).len() as u128;
        }
        let within = |budget: Option<u64>, spent| budget.is_none_or(|b| spent <= u128::from(b));
        assert!(within(config.budget, spent), "budget: {}", what());
        assert!(
            within(config.rendered_budget, rendered),
            "rendered: {}",
            what()
        );
    }

    // A failed touch keeps what it looked up, which only a fault makes matter.
    if failed && faultless {
        let replay = Session::new(options.clone().fs(over(&fs))).unwrap();
        for (path, delta) in &deltas {
            let again = replay.touch(os_path(path));
            let what = || format!("touch {path:?}: {again:?}\n{}", context());
            assert_eq!(
                again.as_ref().ok(),
                Some(delta),
                "a failed touch left a trace: {}",
                what()
            );
        }
    }
    let questions = asked.asked();
    check_asked(&questions, root, config.max_bytes());
    if faultless {
        // A directory may have one role of each kind: of the walk, a fragment directory, the
        // directory of a name's first element (SPEC.md §9).
        let multiple = config.names.iter().any(|name| name.contains(&b'/'));
        let roles = 1 + usize::from(!fragments.is_empty()) + usize::from(multiple);
        let mut listed: std::collections::HashMap<&[u8], HashSet<usize>> = Default::default();
        for (i, question) in questions.iter().enumerate() {
            // A listing that fails is not kept.
            if question.op != "list" || asked.list_of(&question.name).is_err() {
                continue;
            }
            let touches = listed.entry(&question.name).or_default();
            touches.insert(starts.partition_point(|&start| start <= i));
            assert!(
                touches.len() <= roles,
                "listed by touches {touches:?}: {question:?} in {questions:?}\n{}",
                context()
            );
        }
    }
}

/// Every question of `asked` is a valid name within `root`, and no read reaches beyond
/// `max_bytes + 1` bytes.
fn check_asked(asked: &[Asked], root: &[u8], max_bytes: u64) {
    let limit = max_bytes.saturating_add(1);
    for question in asked {
        assert!(
            is_fs_name(&question.name) && is_within(&question.name, root),
            "asked {question:?} with root {root:?}"
        );
        if let Some(reach) = question.limit {
            assert!(reach <= limit, "{question:?} beyond {limit}");
        }
    }
}

/// Whether a directory above `path` (or `path` itself) is in `fs` and no directory: a batch
/// answers it as a missing one, where the single listing of it fails (SPEC.md §3.1).
fn leads_through_a_file(fs: &MemoryFs, path: &[u8]) -> bool {
    let ends = path.iter().enumerate().filter(|(_, &b)| b == b'/');
    let mut dirs = ends.map(|(end, _)| &path[..end]).chain([path]);
    dirs.any(|dir| {
        use super::memory::Stat;
        matches!(fs.stat_of(dir), Ok(Some(Stat::File { .. } | Stat::Other)))
    })
}

/// Whether `name` is in `fs` and no directory.
fn is_no_directory(fs: &MemoryFs, name: &Path) -> bool {
    use super::memory::Stat;
    matches!(
        fs.stat_of(&bytes(name)),
        Ok(Some(Stat::File { .. } | Stat::Other))
    )
}

/// A [`MemoryFs`] that answers in batches, each entry of a listing with what a stat says of
/// it, recording the limit of each read batch.
#[derive(Debug)]
struct Batched {
    fs: Arc<MemoryFs>,
    limits: std::sync::Mutex<Vec<u64>>,
}

impl Batched {
    fn new(fs: Arc<MemoryFs>) -> Self {
        Self {
            fs,
            limits: Default::default(),
        }
    }

    fn limits(&self) -> Vec<u64> {
        self.limits.lock().unwrap().clone()
    }
}

impl agentsmd_core::fs::FileSystem for Batched {
    fn list(&self, dir: &agentsmd_core::FsName) -> std::io::Result<Vec<std::ffi::OsString>> {
        self.fs.list(dir)
    }

    fn stat(&self, name: &agentsmd_core::FsName) -> std::io::Result<agentsmd_core::fs::Entry> {
        self.fs.stat(name)
    }

    fn open(&self, name: &agentsmd_core::FsName) -> std::io::Result<Box<dyn std::io::Read + '_>> {
        self.fs.open(name)
    }

    fn batched(&self) -> Option<&dyn agentsmd_core::fs::BatchFileSystem> {
        Some(self)
    }
}

impl agentsmd_core::fs::BatchFileSystem for Batched {
    fn list_many(
        &self,
        dirs: &[agentsmd_core::FsName],
    ) -> std::io::Result<Vec<Option<Vec<agentsmd_core::fs::Listed>>>> {
        use super::memory::{join, Stat};
        use agentsmd_core::fs::{Entry, Listed};
        let failed = || std::io::Error::other("injected failure");
        let listing = |dir: &agentsmd_core::FsName| {
            let dir = dir.as_bytes();
            if self.fs.stat_of(dir).map_err(|()| failed())? != Some(Stat::Dir) {
                return Ok(None);
            }
            let Some(names) = self.fs.list_of(dir).map_err(|()| failed())? else {
                return Ok(None);
            };
            let listed = names.into_iter().map(|name| {
                let entry = match self.fs.stat_of(&join(dir, &name)) {
                    Ok(Some(Stat::File { size })) => Some(Entry::File { size }),
                    Ok(Some(Stat::Dir)) => Some(Entry::Dir),
                    Ok(Some(Stat::Other)) => Some(Entry::Other),
                    // Not said: the library asks a stat of its own.
                    _ => None,
                };
                Listed {
                    name: os_path(&name).into(),
                    entry,
                }
            });
            Ok(Some(listed.collect()))
        };
        dirs.iter().map(listing).collect()
    }

    fn read_many(
        &self,
        names: &[agentsmd_core::FsName],
        limit: u64,
    ) -> std::io::Result<Vec<Option<Vec<u8>>>> {
        use super::memory::Stat;
        let failed = || std::io::Error::other("injected failure");
        let read = |name: &agentsmd_core::FsName| {
            let name = name.as_bytes();
            let Some(Stat::File { .. }) = self.fs.stat_of(name).map_err(|()| failed())? else {
                return Ok(None);
            };
            self.fs.read_of(name, limit).map_err(|()| failed())
        };
        self.limits.lock().unwrap().push(limit);
        names.iter().map(read).collect()
    }
}
