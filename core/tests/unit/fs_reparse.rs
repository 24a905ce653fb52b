//! Unit tests of `src/fs/sys/windows/reparse.rs`, which includes this file by `#[path]`: where
//! a Windows link leads, decided from its text, on every platform (Wine makes no links).

use std::collections::HashMap;

use super::*;

fn wide(text: &str) -> Wide {
    text.encode_utf16().collect()
}

fn elements(text: &[&str]) -> Vec<Wide> {
    text.iter().map(|e| wide(e)).collect()
}

const ROOT: &str = r"\\?\C:\repo";

fn junction(target: &str) -> Link {
    Link::Junction {
        target: wide(target),
    }
}

fn symlink(target: &str, relative: bool) -> Link {
    Link::Symlink {
        target: wide(target),
        relative,
    }
}

fn inside(below: &[&str]) -> Leads {
    Leads::Inside(elements(below))
}

#[test]
fn a_link_to_a_share_escapes_unless_the_root_is_on_that_share() {
    for target in [
        r"\??\UNC\host\share\x.md",
        r"\\?\UNC\host\share\x.md",
        r"\\host\share\x.md",
        r"\??\unc\host\share",
    ] {
        for link in [symlink(target, false), junction(target)] {
            assert_eq!(resolve(&wide(ROOT), &[], &link), Leads::Escapes, "{target}");
        }
    }
    let on_the_share = wide(r"\\?\UNC\host\share\repo");
    for target in [
        r"\??\UNC\HOST\share\repo\a\x.md",
        r"\\host\share\repo\a\x.md",
    ] {
        let link = symlink(target, false);
        assert_eq!(
            resolve(&on_the_share, &[], &link),
            inside(&["a", "x.md"]),
            "{target}"
        );
    }
    let other_share = symlink(r"\\host\other\repo\x.md", false);
    assert_eq!(resolve(&on_the_share, &[], &other_share), Leads::Escapes);
}

#[test]
fn a_link_to_a_device_a_pipe_a_volume_or_another_namespace_escapes() {
    for target in [
        r"\\.\pipe\agents",
        r"\\.\C:\repo\x.md",
        r"\??\pipe\agents",
        r"\??\NUL",
        r"\??\Volume{0b1d2c3e-0000-0000-0000-100000000000}\repo\x.md",
        r"\GLOBAL??\C:\repo\x.md",
        r"\Device\HarddiskVolume1\repo\x.md",
        r"\DosDevices\C:\repo\x.md",
    ] {
        for link in [symlink(target, false), junction(target)] {
            assert_eq!(resolve(&wide(ROOT), &[], &link), Leads::Escapes, "{target}");
        }
    }
}

#[test]
fn an_absolute_target_beneath_the_root_is_its_elements_below_the_root() {
    for (target, below) in [
        (r"\??\C:\repo\a\x.md", &["a", "x.md"][..]),
        (r"\\?\C:\repo\a\x.md", &["a", "x.md"]),
        (r"C:\repo\a\x.md", &["a", "x.md"]),
        // Windows compares names ignoring case (SPEC.md §8.2).
        (r"\??\c:\REPO\a", &["a"]),
        (r"\??\C:\repo", &[]),
        (r"\??\C:\repo\", &[]),
    ] {
        for link in [symlink(target, false), junction(target)] {
            assert_eq!(resolve(&wide(ROOT), &[], &link), inside(below), "{target}");
        }
    }
}

#[test]
fn an_absolute_target_elsewhere_on_the_drive_or_on_another_drive_escapes() {
    for target in [
        r"\??\C:\repository\x.md",
        r"\??\C:\rep",
        r"\??\C:\",
        r"\??\C:",
        r"\??\D:\repo\x.md",
        r"\??\C:\other\x.md",
        // Windows stores no `..` in an absolute target; one that has it is not followed.
        r"\??\C:\repo\..\other\x.md",
        r"\??\C:\repo\a\..\x.md",
        r"\??\C:\repo\.\x.md",
    ] {
        assert_eq!(
            resolve(&wide(ROOT), &[], &junction(target)),
            Leads::Escapes,
            "{target}"
        );
    }
}

#[test]
fn a_target_on_a_drive_s_current_directory_or_the_current_drive_escapes() {
    let dir = elements(&["a"]);
    for (target, relative) in [
        ("C:x.md", true),
        ("C:x.md", false),
        ("C:", false),
        (r"\repo\x.md", true),
        (r"\repo\x.md", false),
        ("x.md", false),
        ("", true),
    ] {
        assert_eq!(
            resolve(&wide(ROOT), &dir, &symlink(target, relative)),
            Leads::Escapes,
            "{target} {relative}"
        );
    }
}

#[test]
fn a_relative_target_is_resolved_against_the_link_s_directory_and_escapes_above_the_root() {
    let dir = elements(&["a", "b"]);
    for (target, below) in [
        (r"..\..\shared\..\rules.md", Some(&["rules.md"][..])),
        (r".\x.md", Some(&["a", "b", "x.md"])),
        (r"c\\x.md", Some(&["a", "b", "c", "x.md"])),
        (r"..\..", Some(&[])),
        (r"..\..\..\outside\AGENTS.md", None),
        (r"..\..\a\b\..\..\..\outside\AGENTS.md", None),
    ] {
        let expected = below.map_or(Leads::Escapes, inside);
        assert_eq!(
            resolve(&wide(ROOT), &dir, &symlink(target, true)),
            expected,
            "{target}"
        );
    }
}

#[test]
fn a_reparse_point_that_names_no_file_is_not_a_link_and_an_unknown_link_escapes() {
    assert!(is_link(TAG_SYMLINK) && is_link(TAG_MOUNT_POINT));
    // IO_REPARSE_TAG_DEDUP and IO_REPARSE_TAG_CLOUD_6: data of the file itself.
    assert!(!is_link(0x8000_0013) && !is_link(0x9000_601A));
    assert_eq!(resolve(&wide(ROOT), &[], &Link::Unknown), Leads::Escapes);
}

/// A reparse point's data, as FSCTL_GET_REPARSE_POINT returns it, holding `substitute` (and
/// `print`), with `flags` for a symbolic link.
fn data(tag: u32, substitute: &str, print: &str, flags: Option<u32>) -> Vec<u8> {
    let bytes =
        |text: &str| -> Vec<u8> { text.encode_utf16().flat_map(u16::to_le_bytes).collect() };
    let (substitute, print) = (bytes(substitute), bytes(print));
    let mut fields = Vec::new();
    // Print name first, as Windows often writes them: the offsets must be followed.
    let lens = [print.len() as u16, substitute.len() as u16];
    fields.extend(lens[0].to_le_bytes()); // substitute name offset
    fields.extend(lens[1].to_le_bytes()); // substitute name length
    fields.extend(0u16.to_le_bytes()); // print name offset
    fields.extend(lens[0].to_le_bytes()); // print name length
    if let Some(flags) = flags {
        fields.extend(flags.to_le_bytes());
    }
    fields.extend(print);
    fields.extend(substitute);
    let mut data = Vec::new();
    data.extend(tag.to_le_bytes());
    data.extend((fields.len() as u16).to_le_bytes());
    data.extend(0u16.to_le_bytes());
    data.extend(fields);
    data
}

#[test]
fn a_reparse_point_s_data_gives_the_name_windows_follows() {
    let link = link_of(&data(
        TAG_SYMLINK,
        r"\??\UNC\host\share\x.md",
        r"\\host\share\x.md",
        Some(0),
    ));
    assert_eq!(link, symlink(r"\??\UNC\host\share\x.md", false));
    let link = link_of(&data(TAG_SYMLINK, r"..\x.md", r"..\x.md", Some(1)));
    assert_eq!(link, symlink(r"..\x.md", true));
    let link = link_of(&data(
        TAG_MOUNT_POINT,
        r"\??\C:\repo\b\",
        r"C:\repo\b\",
        None,
    ));
    assert_eq!(link, junction(r"\??\C:\repo\b\"));
    // Cut short, or of another tag: nothing to follow.
    let whole = data(TAG_SYMLINK, r"\??\C:\repo\x.md", "", Some(0));
    assert_eq!(link_of(&whole[..whole.len() - 2]), Link::Unknown);
    assert_eq!(link_of(&whole[..6]), Link::Unknown);
    assert_eq!(link_of(&data(0xA000_0010, "x", "x", None)), Link::Unknown);
}

/// A tree below [`ROOT`] for [`walk`]: each path below the root (`a\b`) is a directory, a file
/// or a link; every open is recorded.
struct Tree {
    nodes: HashMap<String, Option<Link>>,
    files: Vec<String>,
    opened: Vec<String>,
}

impl Tree {
    fn new(dirs: &[&str], files: &[&str], links: &[(&str, Link)]) -> Self {
        let mut nodes: HashMap<String, Option<Link>> = dirs
            .iter()
            .chain(files)
            .map(|p| (p.to_string(), None))
            .collect();
        nodes.extend(links.iter().map(|(p, l)| (p.to_string(), Some(l.clone()))));
        let files = files.iter().map(|f| f.to_string()).collect();
        Self {
            nodes,
            files,
            opened: Vec::new(),
        }
    }

    /// Walks `name` below the root: what was reached (a path below the root, `.` for the root),
    /// or the error.
    fn walk(&mut self, name: &str) -> io::Result<Walked<String>> {
        let name = elements(&name.split('\\').collect::<Vec<_>>());
        walk(&wide(ROOT), name, |dir: Option<&String>, element, _last| {
            let element = String::from_utf16(element).unwrap();
            let path = dir.map_or(element.clone(), |dir| format!(r"{dir}\{element}"));
            self.opened.push(path.clone());
            match self.nodes.get(&path) {
                None => Err(io::ErrorKind::NotFound.into()),
                Some(Some(link)) => Ok(Node::Link(link.clone())),
                Some(None) if self.files.contains(&path) => Ok(Node::Other(path)),
                Some(None) => Ok(Node::Dir(path)),
            }
        })
    }
}

fn at(path: &str) -> Walked<String> {
    Walked::At(Some(path.to_string()))
}

#[test]
fn a_link_to_a_share_is_never_opened_by_the_walk() {
    // The regression: the walk opened the link's target (connecting to the share with the
    // user's credentials) and only then checked where it was.
    let mut tree = Tree::new(
        &[],
        &[],
        &[("AGENTS.md", symlink(r"\??\UNC\host\share\x.md", false))],
    );
    assert_eq!(tree.walk("AGENTS.md").unwrap(), Walked::Escapes);
    assert_eq!(tree.opened, ["AGENTS.md"]);
}

#[test]
fn a_chain_of_junctions_is_resolved_one_at_a_time_from_the_root() {
    let links = [
        ("a", junction(r"\??\C:\repo\b")),
        ("b", junction(r"\??\C:\REPO\c\d")),
        ("c\\d\\l", symlink(r"..\e\x.md", true)),
    ];
    let mut tree = Tree::new(&["c", "c\\d", "c\\e"], &["c\\e\\x.md"], &links);
    assert_eq!(tree.walk("a\\l").unwrap(), at("c\\e\\x.md"));
    assert_eq!(
        tree.opened,
        ["a", "b", "c", "c\\d", "c\\d\\l", "c", "c\\e", "c\\e\\x.md"]
    );
    // A link to the root is the root.
    let mut tree = Tree::new(&[], &[], &[("up", junction(r"\??\C:\repo\"))]);
    assert_eq!(tree.walk("up").unwrap(), Walked::At(None));
}

#[test]
fn a_chain_that_ends_outside_escapes_where_it_leaves_and_opens_nothing_there() {
    let links = [
        ("a", junction(r"\??\C:\repo\b")),
        ("b", junction(r"\??\C:\outside")),
    ];
    let mut tree = Tree::new(&[], &[], &links);
    assert_eq!(tree.walk("a\\AGENTS.md").unwrap(), Walked::Escapes);
    assert_eq!(tree.opened, ["a", "b"]);
}

#[test]
fn a_loop_of_links_leads_nowhere_after_windows_s_limit() {
    let mut tree = Tree::new(&[], &[], &[("a", junction(r"\??\C:\repo\a"))]);
    let error = tree.walk("a\\x.md").unwrap_err();
    assert_eq!(error.raw_os_error(), Some(ERROR_CANT_RESOLVE_FILENAME));
    assert_eq!(tree.opened.len(), MAX_LINKS + 1);
}

#[test]
fn a_walk_through_a_file_is_error_directory_and_a_missing_name_not_found() {
    let mut tree = Tree::new(&[], &["f.md"], &[("l", symlink("f.md", true))]);
    for name in ["f.md\\x", "l\\x"] {
        let error = tree.walk(name).unwrap_err();
        assert_eq!(error.raw_os_error(), Some(ERROR_DIRECTORY), "{name}");
    }
    assert_eq!(tree.walk("l").unwrap(), at("f.md"));
    let error = tree.walk("missing\\x").unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::NotFound);
}

#[test]
fn a_final_path_is_beneath_the_root_on_whole_elements_and_as_spelled() {
    let root = wide(ROOT);
    for (path, beneath) in [
        (r"\\?\C:\repo\AGENTS.md", true),
        (r"\\?\C:\repo", true),
        (r"\\?\C:\repository\x", false),
        (r"\\?\C:\REPO\x", false),
        (r"\\?\C:\", false),
        (r"\\?\UNC\host\share\repo\x", false),
    ] {
        assert_eq!(is_beneath(&wide(path), &root), beneath, "{path}");
    }
    assert!(is_beneath(&wide(r"\\?\C:\x"), &wide(r"\\?\C:\")));
}
