//! Confinement on Windows decided from a link's text (SPEC §8.2): a target beneath the root is
//! walked again from the root's handle, and anything else escapes before it is opened, so that
//! no share or device is opened to learn where a link leads. No I/O, so that every rule is
//! tested on every platform (Wine makes no links).

use std::collections::VecDeque;
use std::io;

/// A path or one element of it, in UTF-16 as Windows holds it.
pub(crate) type Wide = Vec<u16>;

// Windows's errors for a path through a file, and one that reparses too often (a loop).
pub(crate) const ERROR_DIRECTORY: i32 = 267;
pub(crate) const ERROR_CANT_RESOLVE_FILENAME: i32 = 1921;
/// The most links one walk follows: Windows's own limit on the reparse points of one path.
pub(crate) const MAX_LINKS: usize = 63;

const TAG_SYMLINK: u32 = 0xA000_000C; // IO_REPARSE_TAG_SYMLINK
const TAG_MOUNT_POINT: u32 = 0xA000_0003; // IO_REPARSE_TAG_MOUNT_POINT: a junction
const NAME_SURROGATE: u32 = 0x2000_0000; // the tag's bit of IsReparseTagNameSurrogate
const SYMLINK_RELATIVE: u32 = 1; // SYMLINK_FLAG_RELATIVE

/// A link as its reparse point holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Link {
    /// A symbolic link to `target`, relative to the link's directory where `relative`.
    Symlink { target: Wide, relative: bool },
    /// A junction: an absolute NT path (`\??\C:\x`).
    Junction { target: Wide },
    /// Another reparse point that names a file, which this library cannot read: it escapes.
    Unknown,
}

/// Whether a reparse point with `tag` names another file (a link), rather than holding data the
/// file's own driver reads (deduplicated or cloud files).
pub(crate) fn is_link(tag: u32) -> bool {
    tag & NAME_SURROGATE != 0
}

/// The link the reparse point `data` holds (MS-FSCC 2.1.2: its substitute name Windows follows).
pub(crate) fn link_of(data: &[u8]) -> Link {
    let u16_at = |at: usize| Some(u16::from_le_bytes(*data.get(at..)?.first_chunk()?));
    let u32_at = |at: usize| Some(u32::from_le_bytes(*data.get(at..)?.first_chunk()?));
    let read = || -> Option<Link> {
        let tag = u32_at(0)?;
        // The names follow the fields of the link's kind: 8 bytes of the header, 8 of the two
        // names' offsets and lengths, and a symbolic link's 4 bytes of flags.
        let names = match tag {
            TAG_SYMLINK => 20,
            TAG_MOUNT_POINT => 16,
            _ => return None,
        };
        let (offset, len) = (usize::from(u16_at(8)?), usize::from(u16_at(10)?));
        let target = units(data.get(names + offset..names + offset + len)?);
        Some(match tag {
            TAG_SYMLINK => Link::Symlink {
                target,
                relative: u32_at(16)? & SYMLINK_RELATIVE != 0,
            },
            _ => Link::Junction { target },
        })
    };
    read().unwrap_or(Link::Unknown)
}

/// The UTF-16 units of `bytes`, little-endian as Windows stores them.
pub(crate) fn units(bytes: &[u8]) -> Wide {
    bytes
        .chunks_exact(2)
        .map(|unit| u16::from_le_bytes([unit[0], unit[1]]))
        .collect()
}

/// Where a link leads: to these elements below the root (none: the root), or anywhere else.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Leads {
    Inside(Vec<Wide>),
    Escapes,
}

/// Where `link`, in the directory `dir` below the root whose final path is `root`, leads, from
/// its text alone (SPEC §8.2): inside where it names a place beneath the root, lexically and
/// ignoring ASCII case; anywhere else (`\x`, `C:x`, `\\.\`, a volume's GUID, `.`, `..`) escapes.
pub(crate) fn resolve(root: &[u16], dir: &[Wide], link: &Link) -> Leads {
    let inside = match link {
        Link::Symlink { target, relative } if *relative => relative_to(dir, target),
        Link::Symlink { target, .. } | Link::Junction { target } => absolute(root, target),
        Link::Unknown => None,
    };
    inside.map_or(Leads::Escapes, Leads::Inside)
}

/// Whether `path` is `root` or lies beneath it, on whole elements and unit for unit (both final
/// paths of open handles). The walk's second guard: where the OS opened a link as if it were
/// what it leads to (Wine does, with a Unix link), the handle still says where it is.
pub(crate) fn is_beneath(path: &[u16], root: &[u16]) -> bool {
    let sep = u16::from(b'\\');
    let root = root.strip_suffix(&[sep]).unwrap_or(root);
    let rest = path.strip_prefix(root);
    rest.is_some_and(|rest| rest.first().is_none_or(|&unit| unit == sep))
}

/// The elements below the root of `target`, relative to the directory `dir` below it.
fn relative_to(dir: &[Wide], target: &[u16]) -> Option<Vec<Wide>> {
    let rooted = target.first() == Some(&u16::from(b'\\'));
    let on_a_drive = target.get(1) == Some(&u16::from(b':'));
    if target.is_empty() || rooted || on_a_drive {
        return None;
    }
    let mut at = dir.to_vec();
    for element in elements(target) {
        match element {
            e if e.is_empty() || is(e, ".") => {}
            e if is(e, "..") => {
                at.pop()?;
            }
            e => at.push(e.to_vec()),
        }
    }
    Some(at)
}

/// The elements below the root (whose final path is `root`) of the absolute `target`.
fn absolute(root: &[u16], target: &[u16]) -> Option<Vec<Wide>> {
    let (root_unc, root_volume, root_rest) = volume(root)?;
    let (unc, volume, rest) = volume(target)?;
    let same = |a: &[u16], b: &[u16]| {
        a.len() == b.len() && a.iter().zip(b).all(|(&a, &b)| fold(a) == fold(b))
    };
    if unc != root_unc || !same(volume, root_volume) {
        return None;
    }
    let mut below = elements(rest).filter(|e| !e.is_empty());
    for root_element in elements(root_rest).filter(|e| !e.is_empty()) {
        if !same(below.next()?, root_element) {
            return None;
        }
    }
    let below: Vec<Wide> = below.map(<[u16]>::to_vec).collect();
    let dots = below.iter().any(|e| is(e, ".") || is(e, ".."));
    (!dots).then_some(below)
}

/// The volume of the absolute `path`, a share's (`server\share`; `true`) or a drive's (`C:`),
/// with its NT or Win32 prefix taken off, and the rest of the path.
fn volume(path: &[u16]) -> Option<(bool, &[u16], &[u16])> {
    let sep = u16::from(b'\\');
    let (unc, after) = match strip(path, "\\??\\").or_else(|| strip(path, "\\\\?\\")) {
        Some(rest) => strip(rest, "UNC\\").map_or((false, rest), |after| (true, after)),
        // `\\.\`: a device, not a server.
        None if strip(path, "\\\\.").is_some() => return None,
        None => strip(path, "\\\\").map_or((false, path), |after| (true, after)),
    };
    let len = match unc {
        true => {
            let mut parts = after.splitn(3, |&u| u == sep);
            let (server, share) = (parts.next()?, parts.next()?);
            (!server.is_empty() && !share.is_empty()).then_some(server.len() + 1 + share.len())?
        }
        false => {
            let letter = after.first().and_then(|&u| u8::try_from(u).ok());
            let drive = letter.is_some_and(|b| b.is_ascii_alphabetic())
                && after.get(1) == Some(&u16::from(b':'))
                && after.get(2).is_none_or(|&u| u == sep);
            drive.then_some(2)?
        }
    };
    Some((unc, &after[..len], &after[len..]))
}

/// The elements of `path` separated by `\` (Windows's NT paths and link targets know no `/`).
fn elements(path: &[u16]) -> impl Iterator<Item = &[u16]> {
    path.split(|&u| u == u16::from(b'\\'))
}

/// `path` without the ASCII `prefix`, ignoring ASCII case.
fn strip<'a>(path: &'a [u16], prefix: &str) -> Option<&'a [u16]> {
    let (head, rest) = path.split_at_checked(prefix.len())?;
    let mut units = head.iter().zip(prefix.bytes());
    units
        .all(|(&u, b)| fold(u) == fold(u16::from(b)))
        .then_some(rest)
}

fn is(element: &[u16], text: &str) -> bool {
    element.iter().copied().eq(text.encode_utf16())
}

/// `unit` with ASCII case folded, as Windows compares volume and element names here.
fn fold(unit: u16) -> u16 {
    u8::try_from(unit).map_or(unit, |byte| u16::from(byte.to_ascii_lowercase()))
}

/// What one element, opened beneath its directory with the reparse point itself opened, is.
pub(crate) enum Node<H> {
    Link(Link),
    Dir(H),
    Other(H),
}

/// Where a confined walk ended: at what was opened last (`None`: the root itself), or at a link
/// out of the root, nothing it leads to opened.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Walked<H> {
    At(Option<H>),
    Escapes,
}

/// Walks `name`, each element opened by `open(dir, element, last)` beneath its directory's
/// handle (`None`: the root's), and each link [`resolve`] finds inside again from the root.
pub(crate) fn walk<H>(
    root: &[u16],
    name: Vec<Wide>,
    mut open: impl FnMut(Option<&H>, &[u16], bool) -> io::Result<Node<H>>,
) -> io::Result<Walked<H>> {
    let mut rest = VecDeque::from(name);
    let mut dir: Option<H> = None;
    let mut at: Vec<Wide> = Vec::new();
    let mut links = 0;
    while let Some(element) = rest.pop_front() {
        let last = rest.is_empty();
        match open(dir.as_ref(), &element, last)? {
            Node::Link(link) => {
                links += 1;
                if links > MAX_LINKS {
                    return Err(io::Error::from_raw_os_error(ERROR_CANT_RESOLVE_FILENAME));
                }
                let Leads::Inside(target) = resolve(root, &at, &link) else {
                    return Ok(Walked::Escapes);
                };
                rest = target.into_iter().chain(rest).collect();
                dir = None;
                at.clear();
            }
            Node::Dir(handle) => {
                at.push(element);
                dir = Some(handle);
            }
            Node::Other(handle) if last => dir = Some(handle),
            Node::Other(_) => return Err(io::Error::from_raw_os_error(ERROR_DIRECTORY)),
        }
    }
    Ok(Walked::At(dir))
}

#[cfg(test)]
#[path = "../../../../tests/unit/fs_reparse.rs"]
mod tests;
