//! What a chain allocates, measured by a counting allocator: memory bounded by `max_bytes` and by
//! the places looked at, never by what a file, a stat or a path asks for (SPEC.md §1 "Paths",
//! §4, §5.4, §5.5, §5.8). This file is a test binary of its own, and its tests run one at a time
//! ([`alone`]), so that nothing else allocates while one measures. The allocator refuses any
//! allocation that would take the live total over a ceiling: where the library asks for memory
//! it can do without, a regression fails the test (the process aborts on the refused
//! allocation) rather than taking the machine's memory; where it asks through `try_reserve`, the
//! refusal is the `ENOMEM` error that SPEC.md §4 requires.

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use agentsmd_core::fs::{BatchFileSystem, Entry, FileSystem, Listed};
use agentsmd_core::structure::{self, Origin, SkillOptions};
use agentsmd_core::{chain, ErrorKind, FsName, Options, Transform, DEFAULT_MAX_BYTES};

/// Bytes allocated and not yet freed, the most they have been, and the ceiling.
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static CEILING: AtomicUsize = AtomicUsize::new(DEFAULT_CEILING);
const DEFAULT_CEILING: usize = 512 << 20;

struct Counting;

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
        if live > CEILING.load(Ordering::SeqCst) {
            LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
            return std::ptr::null_mut();
        }
        PEAK.fetch_max(live, Ordering::SeqCst);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Held for the whole of a test, its setup included, so that no other test allocates meanwhile.
fn alone() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What `f` returns, and the most bytes it had allocated at once (what it returns included). An
/// allocation that would take it over `room` bytes is refused.
fn measure<T>(room: usize, f: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    CEILING.store(before + room, Ordering::SeqCst);
    let value = f();
    CEILING.store(DEFAULT_CEILING, Ordering::SeqCst);
    (value, PEAK.load(Ordering::SeqCst) - before)
}

/// What one file may cost at most, however it is built: the default `max_bytes` several times
/// over (the file read, its expansion, the transform's output, a buffer's doubling).
const PER_FILE: usize = 8 * DEFAULT_MAX_BYTES as usize;

/// A file system where every directory exists and is empty, and nothing else exists.
struct EmptyDirs;

impl FileSystem for EmptyDirs {
    fn list(&self, _dir: &FsName) -> io::Result<Vec<OsString>> {
        Ok(Vec::new())
    }

    fn stat(&self, _name: &FsName) -> io::Result<Entry> {
        Ok(Entry::Dir)
    }

    fn open(&self, _name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        Err(io::ErrorKind::NotFound.into())
    }
}

#[test]
fn memory_is_linear_in_the_length_of_a_custom_fs_path() {
    let _alone = alone();
    // 4,095 bytes, the longest a path may be (SPEC.md §1): 2,048 directories, each listed.
    let path = "d/".repeat(2_047) + "x";
    let options = Options::new().fs(Arc::new(EmptyDirs));
    let (result, peak) = measure(DEFAULT_CEILING, || chain(&path, &options));
    let result = result.expect("the chain");
    assert!(result.files.is_empty() && result.omitted.is_empty());
    assert!(
        peak < 64 * path.len(),
        "{peak} bytes at the peak for a path of {} bytes",
        path.len()
    );
}

#[test]
fn the_report_grows_only_with_the_places_looked_at() {
    let _alone = alone();
    let dir = tempfile::tempdir().unwrap();
    // 2,000 extras that do not exist: 2,000 short places looked at, beside a long path.
    let extras: Vec<PathBuf> = (0..2_000)
        .map(|i| dir.path().join(format!("missing-{i}.md")))
        .collect();
    // The longest path a custom file system takes, 2,048 directories deep, and one directory
    // with a name as long.
    for path in ["d/".repeat(2_047) + "x", "a".repeat(4_096)] {
        let options = Options::new()
            .fs(Arc::new(EmptyDirs))
            .extra(extras.clone())
            .report(true);
        let (result, peak) = measure(DEFAULT_CEILING, || chain(&path, &options));
        let result = result.expect("the chain");
        assert_eq!(result.probes.len(), 2_000 + path.matches('/').count() + 2);
        // What the report holds: each place's path, and a record of a few words for it.
        let held: usize = result
            .probes
            .iter()
            .map(|probe| probe.path.as_os_str().as_encoded_bytes().len() + 64)
            .sum();
        assert!(
            peak < 4 * held + (256 << 10),
            "{peak} bytes at the peak for {} places of {held} bytes, path of {} bytes",
            result.probes.len(),
            path.len()
        );
    }
}

/// A tree whose `AGENTS.md` holds one line `@dNNNN/NAME` for each of `links`, each `dNNNN` a
/// link to the tree's root: as many names of the one file `NAME`, each a file of its own
/// (identity is the cleaned path, SPEC.md §5.4). On Windows, where a symbolic link may not be
/// made (Wine 8 makes none), a line `@dNNNN-NAME` for each, a hard link to `NAME` (to one copy
/// of it per 1,000 names: NTFS holds at most 1,023 links to a file).
fn spellings(links: usize, name: &str, content: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut top = String::new();
    for i in 0..links {
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(".", dir.path().join(format!("d{i:04}"))).unwrap();
            top.push_str(&format!("@d{i:04}/{name}\n"));
        }
        #[cfg(windows)]
        {
            let copy = dir.path().join(format!("{}-{name}", i / 1_000));
            if i % 1_000 == 0 {
                std::fs::write(&copy, content).unwrap();
            }
            std::fs::hard_link(&copy, dir.path().join(format!("d{i:04}-{name}"))).unwrap();
            top.push_str(&format!("@d{i:04}-{name}\n"));
        }
    }
    std::fs::write(dir.path().join("AGENTS.md"), top).unwrap();
    std::fs::write(dir.path().join(name), content).unwrap();
    dir
}

/// `${env:X}` 131,000 times: 1,048,000 bytes, within the default `max_bytes`, each reference to
/// a value of 1,000 bytes.
fn references() -> (Vec<u8>, Transform) {
    let values = HashMap::from([("X".to_owned(), vec![b'v'; 1_000])]);
    (
        "${env:X}".repeat(131_000).into_bytes(),
        Transform::interpolator(values),
    )
}

/// A chain at `dir` with `options` fails with `TooLarge` naming `dir/AGENTS.md` (`why` it must)
/// and its memory never passes [`PER_FILE`] on the way.
fn too_large_within_one_file(dir: &std::path::Path, options: &Options, why: &str) {
    let (result, peak) = measure(DEFAULT_CEILING, || chain(dir.join("x"), options));
    let error = result.expect_err(why);
    assert_eq!(error.kind(), ErrorKind::TooLarge, "{error}");
    assert_eq!(error.path(), Some(&*dir.join("AGENTS.md")), "{error}");
    assert!(peak < PER_FILE, "{peak} bytes at the peak");
}

#[test]
fn an_expansion_stops_as_soon_as_its_output_passes_max_bytes() {
    let _alone = alone();
    // A 42,000-byte AGENTS.md naming a 1 MiB file 3,000 times: 3 GB expanded.
    let mut big = vec![b'x'; DEFAULT_MAX_BYTES as usize - 1];
    big.push(b'\n');
    let dir = spellings(3_000, "big.md", &big);
    let options = Options::new()
        .root(dir.path())
        .imports(true)
        .max_imports(3_000);
    too_large_within_one_file(dir.path(), &options, "3 GB expanded is over max_bytes");
}

#[test]
fn the_interpolator_stops_as_soon_as_its_output_passes_max_bytes() {
    let _alone = alone();
    // One 1 MiB file: 131 MB interpolated.
    let dir = tempfile::tempdir().unwrap();
    let (text, interpolator) = references();
    std::fs::write(dir.path().join("AGENTS.md"), text).unwrap();
    let options = Options::new().root(dir.path()).transform(interpolator);
    too_large_within_one_file(
        dir.path(),
        &options,
        "131 MB interpolated is over max_bytes",
    );
}

#[test]
fn imports_and_the_interpolator_together_stay_within_max_bytes() {
    let _alone = alone();
    // 64 names of one 1 MiB file of references: 8.4 GB expanded and interpolated.
    let (text, interpolator) = references();
    let dir = spellings(64, "refs.md", &text);
    let options = Options::new()
        .root(dir.path())
        .imports(true)
        .transform(interpolator);
    too_large_within_one_file(dir.path(), &options, "8.4 GB is over max_bytes");
}

/// A file system whose one file, `AGENTS.md`, reports `u64::MAX` bytes and never ends.
struct Endless;

impl FileSystem for Endless {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        match dir.is_root() {
            true => Ok(vec!["AGENTS.md".into()]),
            false => Err(io::ErrorKind::NotFound.into()),
        }
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        match name.as_bytes() {
            b"." => Ok(Entry::Dir),
            b"AGENTS.md" => Ok(Entry::File { size: u64::MAX }),
            _ => Err(io::ErrorKind::NotFound.into()),
        }
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        match name.as_bytes() {
            b"AGENTS.md" => Ok(Box::new(io::repeat(b'x'))),
            _ => Err(io::ErrorKind::NotFound.into()),
        }
    }
}

#[test]
fn memory_the_library_cannot_get_is_an_io_error_enomem_not_an_abort() {
    let _alone = alone();
    // A sparse file of 64 GiB on the OS, and an endless file of a custom file system, with no
    // limit to speak of: the read grows until the allocator refuses (here at 64 MiB).
    let dir = tempfile::tempdir().unwrap();
    let sparse = std::fs::File::create(dir.path().join("AGENTS.md")).unwrap();
    sparse.set_len(64 << 30).unwrap();
    let os = Options::new().root(dir.path()).max_bytes(u64::MAX);
    let custom = Options::new().fs(Arc::new(Endless)).max_bytes(u64::MAX);
    // ENOMEM; on Windows ERROR_NOT_ENOUGH_MEMORY (8).
    #[cfg(unix)]
    let no_memory = rustix::io::Errno::NOMEM.raw_os_error();
    #[cfg(windows)]
    let no_memory = 8;
    for (at, options) in [(dir.path().join("x"), os), (PathBuf::from("x"), custom)] {
        let (result, peak) = measure(64 << 20, || chain(&at, &options));
        let error = result.expect_err("64 MiB cannot hold the file");
        assert_eq!(error.kind(), ErrorKind::Io, "{error}");
        assert_eq!(error.os_code(), Some(no_memory), "{error}");
        assert!(error.to_string().contains("AGENTS.md"), "{error}");
        assert!(peak <= 64 << 20);
    }
}

/// A file system whose every `skills/NAME.md` is one and the same file of `DEFAULT_MAX_BYTES`
/// bytes, as 1,500 links to one file are on the OS.
struct OneSkillFile(Arc<[u8]>);

impl FileSystem for OneSkillFile {
    fn list(&self, _dir: &FsName) -> io::Result<Vec<OsString>> {
        Err(io::ErrorKind::NotFound.into())
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        match name.as_bytes().starts_with(b"skills/") {
            true => Ok(Entry::File {
                size: self.0.len() as u64,
            }),
            false => Err(io::ErrorKind::NotFound.into()),
        }
    }

    fn open(&self, _name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(&self.0[..]))
    }
}

/// A batched file system whose `AGENTS.md` imports 63 distinct files of `max_bytes` each, in
/// `dir` (the root, whose listing gives their sizes, or a directory the chain does not list),
/// each made as it is read.
struct ManyImports {
    dir: &'static str,
}

impl ManyImports {
    const TARGETS: usize = 63;

    fn agents_md(&self) -> Vec<u8> {
        let lines = (0..Self::TARGETS).map(|i| format!("@{}f{i}.md\n", self.dir));
        lines.collect::<String>().into_bytes()
    }

    fn entry(&self, name: &[u8]) -> Option<Entry> {
        let target = name.strip_prefix(self.dir.as_bytes()).unwrap_or_default();
        match name {
            b"." | b"docs" => Some(Entry::Dir),
            b"AGENTS.md" => Some(Entry::File {
                size: self.agents_md().len() as u64,
            }),
            _ if target.starts_with(b"f") && target.ends_with(b".md") => Some(Entry::File {
                size: DEFAULT_MAX_BYTES,
            }),
            _ => None,
        }
    }

    fn content(&self, name: &[u8]) -> Option<Vec<u8>> {
        match self.entry(name)? {
            Entry::File { .. } if name == b"AGENTS.md" => Some(self.agents_md()),
            Entry::File { size } => Some(vec![b'x'; size as usize]),
            _ => None,
        }
    }
}

impl FileSystem for ManyImports {
    fn list(&self, _dir: &FsName) -> io::Result<Vec<OsString>> {
        unreachable!("asked in batches")
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        self.entry(name.as_bytes())
            .ok_or_else(|| io::ErrorKind::NotFound.into())
    }

    fn open(&self, _name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        unreachable!("asked in batches")
    }

    fn batched(&self) -> Option<&dyn BatchFileSystem> {
        Some(self)
    }
}

impl BatchFileSystem for ManyImports {
    fn list_many(&self, dirs: &[FsName]) -> io::Result<Vec<Option<Vec<Listed>>>> {
        let listing = |dir: &FsName| {
            let names: Vec<String> = match dir.as_bytes() {
                b"." => [String::from("AGENTS.md"), "docs".into()]
                    .into_iter()
                    .chain((0..Self::TARGETS).map(|i| format!("f{i}.md")))
                    .collect(),
                b"docs" => (0..Self::TARGETS).map(|i| format!("f{i}.md")).collect(),
                _ => return None,
            };
            let listed = |name: String| {
                let entry = self.entry(dir.join(name.as_bytes()).as_bytes());
                Listed {
                    name: name.into(),
                    entry,
                }
            };
            Some(names.into_iter().map(listed).collect())
        };
        Ok(dirs.iter().map(listing).collect())
    }

    fn read_many(&self, names: &[FsName], limit: u64) -> io::Result<Vec<Option<Vec<u8>>>> {
        let read = |name: &FsName| {
            let mut content = self.content(name.as_bytes())?;
            content.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
            Some(content)
        };
        Ok(names.iter().map(read).collect())
    }
}

/// SPEC.md §3.1 and §5.4 (decided): over a batched file system, import targets are read ahead
/// only while the expansion that needs them could still hold them, so that an `AGENTS.md`
/// importing 63 files of `max_bytes` each costs about what it costs one question at a time (it
/// is `TooLarge` after the first), not 63 MiB, whether the listing gives the targets' sizes or
/// not.
#[test]
fn a_batched_chain_reads_ahead_no_more_imports_than_the_expansion_could_hold() {
    let _alone = alone();
    for dir in ["", "docs/"] {
        let options = Options::new()
            .fs(Arc::new(ManyImports { dir }))
            .imports(true);
        let (result, peak) = measure(8 * PER_FILE, || chain(".", &options));
        let error = result.expect_err("the chain");
        assert_eq!(error.kind(), ErrorKind::TooLarge, "{dir}: {error}");
        assert!(peak < PER_FILE, "{dir}: {peak} bytes at the peak");
    }
}

/// SPEC.md §6.2 (decided): the skill files of one document are read while their total stays
/// within `max_bytes`, so that a front matter naming 1,500 names of one 1 MiB file costs about
/// one file's memory, not 1.5 GB.
#[test]
fn skill_files_of_one_document_cost_at_most_max_bytes_together() {
    let _alone = alone();
    let fs = OneSkillFile(vec![b's'; DEFAULT_MAX_BYTES as usize - 1].into());
    let options = Options::new().fs(Arc::new(fs));
    let names: Vec<String> = (0..1_500).map(|i| format!("s{i}")).collect();
    let text = format!("---\nskills: [{}]\n---\nbody\n", names.join(", "));
    let mut document = structure::parse(text.as_bytes());
    document.origin = Some(Origin::new("AGENTS.md", &options).unwrap());
    let (skills, peak) = measure(4 * PER_FILE, || {
        document.resolve_skills(&SkillOptions::default(), &options)
    });
    let skills = skills.expect("skills");
    assert_eq!(skills.resolved.len(), 1);
    assert_eq!(skills.unknown.len(), 1_499);
    assert!(peak < PER_FILE, "{peak} bytes at the peak");
}

#[test]
#[cfg(target_os = "linux")]
fn every_rule_here_holds_on_the_portable_path() {
    // Alone, so that this run's allocations fall in no other test's measure.
    let _alone = alone();
    support::rerun_on_the_portable_path(&[]);
}
