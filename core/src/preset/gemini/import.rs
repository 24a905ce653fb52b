use std::io::{self, Read};

use super::lossy;

/// How deep imports nest: the text of a file at this depth is left as it is.
const MAX_DEPTH: usize = 5;

/// `text`, the content of the file at `file`, with its imports expanded.
pub(super) fn process(text: &str, file: &str) -> String {
    if !text.contains('@') {
        return text.to_string();
    }
    let base = dirname(file);
    let root = project_root(&base);
    expand(text, &base, &[], 0, &root)
}

fn expand(text: &str, base: &str, processed: &[String], depth: usize, root: &str) -> String {
    if depth >= MAX_DEPTH {
        return text.to_string();
    }
    let regions = code_regions(text.as_bytes());
    let mut out = String::new();
    let mut last = 0;
    for (start, end) in imports(text.as_bytes()) {
        out.push_str(&text[last..start]);
        last = end;
        let name = &text[start + 1..end];
        if regions
            .iter()
            .any(|&(from, to)| start >= from && start < to)
        {
            out.push('@');
            out.push_str(name);
            continue;
        }
        if !allowed(name, base, root) {
            out.push_str(&format!(
                "<!-- Import failed: {name} - Path traversal attempt -->"
            ));
            continue;
        }
        let full = resolve(base, name);
        if processed.contains(&full) {
            out.push_str(&format!("<!-- File already processed: {name} -->"));
            continue;
        }
        match read(&full) {
            Ok(imported) => {
                let mut processed = processed.to_vec();
                processed.push(full.clone());
                let inner = expand(&imported, &dirname(&full), &processed, depth + 1, root);
                out.push_str(&format!(
                    "<!-- Imported from: {name} -->\n{inner}\n<!-- End of import from: {name} -->"
                ));
            }
            Err(why) => out.push_str(&format!("<!-- Import failed: {name} - {why} -->")),
        }
    }
    out.push_str(&text[last..]);
    out
}

/// `findImports`: the byte ranges of `@path` (the `@` included), each `@` at the start or
/// after white space, its path running to white space and starting with `.`, `/` or an
/// ASCII letter.
fn imports(text: &[u8]) -> Vec<(usize, usize)> {
    let space = |byte: u8| matches!(byte, b' ' | b'\t' | b'\n' | b'\r');
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(at) = memchr::memchr(b'@', &text[i.min(text.len())..]) {
        i += at;
        if i > 0 && !space(text[i - 1]) {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < text.len() && !space(text[j]) {
            j += 1;
        }
        if let Some(&first) = text.get(i + 1).filter(|_| j > i + 1) {
            if first == b'.' || first == b'/' || first.is_ascii_alphabetic() {
                found.push((i, j));
            }
        }
        i = j + 1;
    }
    found
}

/// `findCodeRegions`: the matches of `/(`+)([\s\S]*?)\1/g` — at each run of backticks, the
/// longest opening for which the same number of backticks follows, up to their first
/// occurrence.
fn code_regions(text: &[u8]) -> Vec<(usize, usize)> {
    let mut regions = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i] != b'`' {
            i += 1;
            continue;
        }
        let run = text[i..].iter().take_while(|&&byte| byte == b'`').count();
        let end = (1..=run).rev().find_map(|n| {
            let fence = vec![b'`'; n];
            let after = i + n;
            memchr::memmem::find(&text[after..], &fence).map(|at| after + at + n)
        });
        match end {
            Some(end) => {
                regions.push((i, end));
                i = end;
            }
            None => i += 1,
        }
    }
    regions
}

/// `findProjectRoot`: the nearest ancestor of `start` holding anything named `.git`, else
/// `start`.
fn project_root(start: &str) -> String {
    let start = resolve("/", start);
    let mut dir = start.clone();
    loop {
        if std::fs::metadata(join(&dir, ".git")).is_ok() {
            return dir;
        }
        let parent = dirname(&dir);
        if parent == dir {
            return start;
        }
        dir = parent;
    }
}

/// `validateImportPath`: no URL, and the import, its links resolved, inside the project
/// root, its links resolved.
fn allowed(name: &str, base: &str, root: &str) -> bool {
    if ["file://", "http://", "https://"]
        .iter()
        .any(|scheme| name.starts_with(scheme))
    {
        return false;
    }
    let root = super::js_trim(root);
    if root.is_empty() {
        return false;
    }
    let (Some(target), Some(root)) = (real_path(&resolve(base, name)), real_path(root)) else {
        return false;
    };
    target == root || root == "/" || target.starts_with(&format!("{root}/"))
}

/// `resolveToRealPath`: `path` URI-decoded when it decodes, then made real as far as it
/// exists (`robustRealpath`); `None` where the product throws.
pub(super) fn real_path(path: &str) -> Option<String> {
    if path.contains('\0') {
        return None;
    }
    let decoded = decode_uri_component(path).unwrap_or_else(|| path.to_string());
    robust_real_path(&resolve("/", &decoded), &mut Vec::new())
}

fn robust_real_path(path: &str, visited: &mut Vec<String>) -> Option<String> {
    if visited.iter().any(|seen| seen == path) {
        return None;
    }
    visited.push(path.to_string());
    let err = match std::fs::canonicalize(path) {
        Ok(real) => return Some(lossy(crate::path::bytes(&real))),
        Err(err) => err,
    };
    if !missing(&err) {
        return None;
    }
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::read_link(path) {
            Ok(target) => {
                let target = resolve(&dirname(path), &lossy(crate::path::bytes(&target)));
                return robust_real_path(&target, visited);
            }
            Err(err) if !missing(&err) => return None,
            Err(_) => {}
        },
        Ok(_) => {}
        Err(err) if !missing(&err) => return None,
        Err(_) => {}
    }
    let parent = dirname(path);
    if parent == path {
        return Some(path.to_string());
    }
    let real_parent = robust_real_path(&parent, visited)?;
    Some(join(&real_parent, basename(path)))
}

/// The errors after which the product resolves what exists of a path: ENOENT, EISDIR,
/// ENAMETOOLONG, ENOTDIR.
fn missing(err: &io::Error) -> bool {
    matches!(
        node_error(err).map(|(code, _)| code),
        Some("ENOENT" | "EISDIR" | "ENAMETOOLONG" | "ENOTDIR")
    )
}

/// `decodeURIComponent`: each `%XX` its byte, `None` (the product keeps the path) when a
/// `%` is not followed by two hex digits or the bytes are not UTF-8.
fn decode_uri_component(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_string());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            if !hex.bytes().all(|byte| byte.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `fs.access` then `fs.readFile(path, 'utf-8')`, or Node's message for the failure.
fn read(path: &str) -> Result<String, String> {
    let fail = |err: io::Error, call: Option<&str>| match (node_error(&err), call) {
        (Some((code, what)), Some(call)) => format!("{code}: {what}, {call} '{path}'"),
        (Some((code, what)), None) => format!("{code}: {what}, read"),
        (None, _) => err.to_string(),
    };
    std::fs::metadata(path).map_err(|err| fail(err, Some("access")))?;
    let mut file = std::fs::File::open(path).map_err(|err| fail(err, Some("open")))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|err| fail(err, None))?;
    Ok(lossy(&bytes))
}

/// The code and text Node (libuv) gives `err`.
fn node_error(err: &io::Error) -> Option<(&'static str, &'static str)> {
    #[cfg(unix)]
    if let Some(errno) = rustix::io::Errno::from_io_error(err) {
        use rustix::io::Errno;
        let named = [
            (Errno::LOOP, "ELOOP", "too many symbolic links encountered"),
            (Errno::NAMETOOLONG, "ENAMETOOLONG", "name too long"),
            (Errno::PERM, "EPERM", "operation not permitted"),
        ];
        if let Some(&(_, code, what)) = named.iter().find(|(known, ..)| *known == errno) {
            return Some((code, what));
        }
    }
    Some(match err.kind() {
        io::ErrorKind::NotFound => ("ENOENT", "no such file or directory"),
        io::ErrorKind::PermissionDenied => ("EACCES", "permission denied"),
        io::ErrorKind::NotADirectory => ("ENOTDIR", "not a directory"),
        io::ErrorKind::IsADirectory => ("EISDIR", "illegal operation on a directory"),
        _ => return None,
    })
}

/// `path.resolve(base, path)` on POSIX: `path` over the absolute `base`, normalized.
fn resolve(base: &str, path: &str) -> String {
    let joined = match path.starts_with('/') {
        true => path.to_string(),
        false => format!("{base}/{path}"),
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    format!("/{}", parts.join("/"))
}

/// `path.join(dir, name)` for a clean absolute `dir` and a plain `name`.
fn join(dir: &str, name: &str) -> String {
    match dir {
        "/" => format!("/{name}"),
        dir => format!("{dir}/{name}"),
    }
}

/// `path.dirname` of a clean absolute path.
fn dirname(path: &str) -> String {
    match path.rfind('/') {
        Some(0) | None => "/".to_string(),
        Some(at) => path[..at].to_string(),
    }
}

/// `path.basename` of a clean absolute path.
fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s12_gemini_finds_imports_as_the_product_does() {
        let text = b"@a.md x@b.md @1 @/c \n@.d\r@";
        let found: Vec<&[u8]> = imports(text).iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(found, [&b"@a.md"[..], b"@/c", b"@.d"]);
    }

    #[test]
    fn s12_gemini_code_regions_as_the_regex_matches() {
        assert_eq!(code_regions(b"``a`"), [(0, 2)]);
        assert_eq!(code_regions(b"x ```a``` `b"), [(2, 9)]);
        assert_eq!(code_regions(b"``a``b`"), [(0, 5)]);
    }
}
