//! The C boundary, checked on the source (SECURITY.md): every function the library exports to
//! C runs its whole body inside `boundary::status` or `boundary::value`, which catch panics, so
//! no export can let a panic unwind into C. (That the catching works is shown at run time by
//! `agentsmd_test_panic` in ffi-tests/errors.c and by the panic injection of ffi-tests/faults.c.)
//!
//! The check reads `src/` with a small lexer (comments, strings and character literals cannot
//! fool it), finds every `extern "C" fn` with a name, and requires its body to be exactly one
//! call: `boundary::status(…)`, `boundary::value(…)`, or a call to a function of the same file
//! whose body is in turn exactly such a call (the options setters share one). Every function
//! the header declares must be one of the exports found, so none escapes the check by being
//! written in a way the lexer does not see.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use crate::cbuild::REPO;

/// `source` with comments removed and the contents of string and character literals blanked
/// (their quotes kept), so that braces and parentheses can be counted.
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('#') || next == Some('"')) && !ident_before(&chars, i) {
            // A raw string: r"…" or r#"…"#, with as many # as it opened with.
            let mut hashes = 0;
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: String = std::iter::once('"')
                .chain((0..hashes).map(|_| '#'))
                .collect();
            let rest: String = chars[j + 1..].iter().collect();
            let end = rest.find(&close).expect("a closed raw string");
            out.push_str("\"\"");
            i = j + 1 + rest[..end].chars().count() + close.chars().count();
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{7f}') or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// The text between the `open` at `at` and its matching close, exclusive.
fn balanced(code: &str, at: usize, open: char, close: char) -> &str {
    let mut depth = 0;
    for (offset, c) in code[at..].char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return &code[at + 1..at + offset];
            }
        }
    }
    panic!("unbalanced {open} at byte {at}");
}

/// Every named function of `code` (an `fn NAME` with a body): its name, whether it is
/// `extern "C"`, and its body.
fn functions(code: &str) -> Vec<(String, bool, String)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("fn ").map(|at| at + from) {
        from = at + 3;
        if at > 0 && code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let name: String = code[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue; // a function pointer type: `extern "C" fn(…)`
        }
        let signature_start = at + 3 + name.len();
        let params = code[signature_start..].find('(').unwrap() + signature_start;
        let after_params = params + balanced(code, params, '(', ')').len() + 2;
        let Some(open) = code[after_params..]
            .find(['{', ';'])
            .map(|i| i + after_params)
        else {
            continue;
        };
        if &code[open..=open] == ";" {
            continue; // a declaration without a body
        }
        let prefix = code[..at].trim_end();
        let is_extern_c = prefix.ends_with("extern \"\"");
        found.push((
            name,
            is_extern_c,
            balanced(code, open, '{', '}').to_string(),
        ));
    }
    found
}

/// The callee, if `body` is exactly one call `CALLEE(…)` (and perhaps a `;`).
fn sole_call(body: &str) -> Option<&str> {
    let body = body.trim();
    let open = body.find('(')?;
    let callee = body[..open].trim();
    if !callee
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
    {
        return None;
    }
    let args = balanced(body, open, '(', ')');
    let rest = body[open + args.len() + 2..].trim();
    (rest.is_empty() || rest == ";").then_some(callee)
}

/// The bodies of the functions of `functions` that are not `extern "C"`, by name: the helpers
/// an export may call.
fn helpers(functions: &[(String, bool, String)]) -> BTreeMap<String, String> {
    functions
        .iter()
        .filter(|(_, is_extern_c, _)| !is_extern_c)
        .map(|(name, _, body)| (name.clone(), body.clone()))
        .collect()
}

/// Whether `body` runs inside the boundary: it is one call of `boundary::status` or
/// `boundary::value`, or of a function of `local` whose body is.
fn inside_boundary(body: &str, local: &BTreeMap<String, String>, depth: usize) -> bool {
    match sole_call(body) {
        Some("boundary::status" | "boundary::value") => true,
        Some(callee) if depth < 4 => local
            .get(callee)
            .is_some_and(|body| inside_boundary(body, local, depth + 1)),
        _ => false,
    }
}

fn rust_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The functions the header declares.
fn declared(header: &str) -> Vec<String> {
    let code = code_only(header);
    let mut names = Vec::new();
    for (at, _) in code.match_indices("agentsmd_") {
        let rest = &code[at..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if rest[end..].starts_with('(') && !code[..at].ends_with('_') {
            names.push(rest[..end].to_string());
        }
    }
    names.sort();
    names.dedup();
    names
}

#[test]
fn every_export_runs_its_whole_body_inside_the_panic_boundary() {
    let mut files = Vec::new();
    rust_files(&Path::new(REPO).join("src"), &mut files);
    let mut exports = Vec::new();
    let mut outside = Vec::new();
    for file in &files {
        let code = code_only(&fs::read_to_string(file).unwrap());
        let functions = functions(&code);
        let local = helpers(&functions);
        for (name, is_extern_c, body) in &functions {
            if !is_extern_c {
                continue;
            }
            let relative = file.strip_prefix(REPO).unwrap().display().to_string();
            assert!(
                relative.starts_with("src/ffi/"),
                "{name} in {relative}: exports live in src/ffi/"
            );
            if !inside_boundary(body, &local, 0) {
                outside.push(format!("{name} ({relative})"));
            }
            exports.push(name.clone());
        }
    }
    assert!(
        outside.is_empty(),
        "these exports do not run their whole body inside boundary::status or \
         boundary::value, so a panic in them would unwind into C: {outside:?}"
    );
    exports.sort();
    let header = fs::read_to_string(Path::new(REPO).join("include/agentsmd.h")).unwrap();
    let declared = declared(&header);
    let missed: Vec<_> = declared.iter().filter(|d| !exports.contains(d)).collect();
    assert!(
        missed.is_empty(),
        "the header declares {missed:?}, which this check did not find in src/ (so did not check)"
    );
    assert!(exports.len() >= 26, "found only {exports:?}");
}

#[test]
fn the_source_check_sees_through_comments_strings_and_helpers() {
    // The lexer and the rule on small sources, so that a check that passes vacuously fails.
    let source = r##"
        // extern "C" fn commented_out() {}
        /* extern "C" fn also_commented() { } */
        unsafe fn set(x: u8) -> u8 { boundary::status(ptr, || { let _ = "}{"; Ok(()) }) }
        fn helper() -> u8 { let a = 1; boundary::value(0, || a) }
        pub extern "C" fn good(x: u8) -> u8 { boundary::value(0, || { '{'; r#"}"#; x }) }
        pub unsafe extern "C" fn via_setter(o: *mut u8) -> u8 { set(o, |o| Ok(())) }
        pub extern "C" fn bare() -> u8 { 1 }
        pub extern "C" fn before() -> u8 { let x = 1; boundary::value(0, || x) }
        pub extern "C" fn after() -> u8 { boundary::value(0, || 1); 2 }
        pub extern "C" fn via_bad_helper() -> u8 { helper() }
        type Callback = Option<unsafe extern "C" fn(u8) -> u8>;
    "##;
    let code = code_only(source);
    let functions = functions(&code);
    let local = helpers(&functions);
    let verdicts: Vec<(String, bool)> = functions
        .iter()
        .filter(|(_, is_extern_c, _)| *is_extern_c)
        .map(|(name, _, body)| (name.clone(), inside_boundary(body, &local, 0)))
        .collect();
    let expected = [
        ("good", true),
        ("via_setter", true),
        ("bare", false),
        ("before", false),
        ("after", false),
        ("via_bad_helper", false),
    ];
    let expected: Vec<(String, bool)> = expected
        .iter()
        .map(|(name, ok)| (name.to_string(), *ok))
        .collect();
    assert_eq!(verdicts, expected);
}
