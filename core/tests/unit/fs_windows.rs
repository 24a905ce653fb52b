//! Unit tests of `src/fs/sys/windows/mod.rs`, which includes this file by `#[path]` on Windows;
//! they run under Wine here (`cargo test --target x86_64-pc-windows-gnu -p agentsmd-core --lib`).

use super::*;

/// A file with `content` in a fresh directory, and the directory.
fn file(content: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("AGENTS.md");
    fs::write(&path, content).unwrap();
    (dir, path)
}

#[test]
fn a_file_the_library_reads_can_be_written_renamed_and_deleted_meanwhile() {
    let (dir, path) = file("rules\n");
    let mut file = open_file(path::bytes(&path)).unwrap();
    fs::write(&path, "saved by an editor\n").unwrap();
    let moved = dir.path().join("moved.md");
    fs::rename(&path, &moved).unwrap();
    fs::remove_file(&moved).unwrap();
    let mut read = String::new();
    file.read_to_string(&mut read).unwrap();
    assert_eq!(read, "saved by an editor\n");
}

#[test]
fn a_handle_that_shares_nothing_stops_a_rename_so_the_test_above_can_fail() {
    // The control: the OS (Wine too) enforces sharing modes.
    let (dir, path) = file("rules\n");
    let _held = OpenOptions::new()
        .read(true)
        .share_mode(0)
        .open(&path)
        .unwrap();
    assert!(fs::rename(&path, dir.path().join("moved.md")).is_err());
}

#[test]
fn what_is_no_regular_file_is_not_opened_to_read() {
    // A directory swapped in after the lookup: Windows refuses to open it as a file (no
    // FILE_FLAG_BACKUP_SEMANTICS, which could bypass the file's ACL for a process holding the
    // backup privilege), an error rather than "not found", as on Unix.
    let dir = tempfile::tempdir().unwrap();
    let error = open_file(path::bytes(dir.path())).map(|_| ()).unwrap_err();
    assert_ne!(error.kind(), io::ErrorKind::NotFound, "{error}");
    let missing = dir.path().join("missing.md");
    let error = open_file(path::bytes(&missing)).map(|_| ()).unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::NotFound, "{error}");
}

#[test]
fn a_name_is_found_only_as_its_directory_spells_it() {
    let (dir, _) = file("rules\n");
    let dir = path::bytes(dir.path());
    let names = [b"agents.md".to_vec(), b"AGENTS.md".to_vec()];
    let found = names_in(dir, &names, |_, entry| Ok(entry)).unwrap();
    assert_eq!(found, Lookup::Names(vec![(1, Kind::File { size: 6 })]));
}

#[test]
fn the_final_path_of_a_handle_is_absolute_and_names_the_file() {
    let (_dir, path) = file("rules\n");
    let handle = open_handle(path::bytes(&path), FILE_READ_ATTRIBUTES).unwrap();
    let final_path = String::from_utf16(&final_path(&handle).unwrap()).unwrap();
    assert!(
        path::Syntax::OS.prefix(final_path.as_bytes()).is_some(),
        "{final_path:?}"
    );
    assert!(final_path.ends_with(r"\AGENTS.md"), "{final_path:?}");
}

#[test]
fn a_device_is_no_regular_file_and_is_not_opened_to_read() {
    // What a link to a device or a pipe leads to: a read could block, as on a FIFO.
    let error = open_file(br"\\.\NUL").map(|_| ()).unwrap_err();
    assert_ne!(error.kind(), io::ErrorKind::NotFound, "{error}");
}

#[test]
fn the_os_file_system_has_nothing_above_its_prefixes() {
    // `.` of OsFs would otherwise be the process's current directory.
    assert_eq!(
        OsFs.stat(&FsName::root()).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
    assert!(OsFs.list(&FsName::root()).is_err());
}

/// A root with `AGENTS.md` ("rules\n"), `b.md`, `d/x.md`, and the file system confined to it.
fn confined() -> (tempfile::TempDir, ConfinedFs) {
    let (dir, _) = file("rules\n");
    fs::write(dir.path().join("b.md"), "b\n").unwrap();
    fs::create_dir(dir.path().join("d")).unwrap();
    fs::write(dir.path().join("d").join("x.md"), "x\n").unwrap();
    let confined = ConfinedFs::open(dir.path()).unwrap();
    (dir, confined)
}

fn name(text: &str) -> FsName {
    FsName::new(text).unwrap()
}

#[test]
fn a_confined_listing_is_read_through_the_handle_its_walk_opened() {
    let (_dir, fs) = confined();
    let listed = |dir: &str| -> Vec<String> {
        let mut names: Vec<String> = fs
            .list(&name(dir))
            .unwrap()
            .into_iter()
            .map(|n| n.into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    assert_eq!(listed("."), ["AGENTS.md", "b.md", "d"]);
    assert_eq!(listed("d"), ["x.md"]);
    assert_eq!(
        fs.list(&name("missing")).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
    let error = fs.list(&name("b.md")).unwrap_err();
    assert_eq!(
        error.raw_os_error(),
        Some(ERROR_DIRECTORY as i32),
        "{error}"
    );
}

#[test]
fn a_confined_name_is_walked_beneath_the_root_and_read_from_the_handle_it_ended_with() {
    let (_dir, fs) = confined();
    let mut read = String::new();
    fs.open_name(&name("d/x.md"), None)
        .unwrap()
        .read_to_string(&mut read)
        .unwrap();
    assert_eq!(read, "x\n");
    assert_eq!(fs.stat_exactly(&name("d")).unwrap(), Kind::Dir);
    assert_eq!(fs.stat_exactly(&name(".")).unwrap(), Kind::Dir);
    assert_eq!(
        fs.stat_exactly(&name("b.md")).unwrap(),
        Kind::File { size: 2 }
    );
    let error = fs.stat_exactly(&name("b.md/x")).unwrap_err();
    assert_eq!(
        error.raw_os_error(),
        Some(ERROR_DIRECTORY as i32),
        "{error}"
    );
    let error = fs.stat_exactly(&name("missing/x")).unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::NotFound, "{error}");
    // A directory is no file to read, an error rather than "not found".
    let error = fs.open_name(&name("d"), None).map(|_| ()).unwrap_err();
    assert_ne!(error.kind(), io::ErrorKind::NotFound, "{error}");
    assert_eq!(
        fs.entry(&name("d/x.md")).unwrap(),
        Some(Kind::File { size: 2 })
    );
    assert_eq!(fs.entry(&name("d/none.md")).unwrap(), None);
    assert_eq!(fs.entry(&name("b.md/x")).unwrap(), None);
}

#[test]
fn a_confined_name_is_found_only_as_its_directory_spells_it() {
    let (_dir, fs) = confined();
    let names = [b"agents.md".to_vec(), b"AGENTS.md".to_vec(), b"d".to_vec()];
    let found = fs.lookup(&FsName::root(), &names).unwrap();
    assert_eq!(
        found,
        Lookup::Names(vec![(1, Kind::File { size: 6 }), (2, Kind::Dir)])
    );
    assert_eq!(
        fs.lookup(&name("missing"), &names).unwrap(),
        Lookup::Missing
    );
    assert!(fs.lookup(&name("b.md"), &names).is_err());
}
