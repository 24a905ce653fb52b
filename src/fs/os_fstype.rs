//! What the walk knows of each Linux file system type (the `f_type` magic `fstatfs` reports), and
//! the three decisions it takes from it:
//!
//! - **Exact names.** A lookup by name on a case-insensitive (or normalizing) file system finds
//!   `agents.md` when asked for `AGENTS.md`, but SPEC.md wants the name the directory *lists*,
//!   byte for byte. A miss is a miss everywhere; a hit is confirmed by a listing unless the
//!   directory is known to compare names byte for byte: btrfs, ramfs, squashfs, erofs always;
//!   XFS unless formatted `ascii-ci` (asked with the geometry ioctl); ext2/3/4, f2fs, tmpfs,
//!   overlayfs and bcachefs unless the directory carries the casefold flag (`FS_CASEFOLD_FL`,
//!   asked with `FS_IOC_GETFLAGS`), since their case folding is per directory. Every other
//!   type (vfat, exfat, ntfs3, NFS, SMB, FUSE, 9p, ZFS with `casesensitivity`, …), a failed
//!   ioctl, and every other OS confirm each hit by listing the directory.
//! - **Watches.** inotify reports every change made through the local kernel, so a walker
//!   watches directories of the local types above. A network or FUSE file system changes
//!   without telling this kernel, so those are revalidated by stat on every call instead.
//! - **Timestamp trust.** A file whose change time is within the file system's timestamp
//!   granularity of the moment it was read may have changed again without its times moving
//!   (the "racy" entries of git); it is read again on the next call. The local types above
//!   stamp times from a clock at least as fine as one kernel tick (≤ 10 ms); any other type is
//!   given two seconds (FAT's granularity). A network file system's clock skew is not covered.

#[cfg(target_os = "linux")]
use super::os_dir::Dir;

const EXT: u64 = 0xEF53;
const XFS: u64 = 0x5846_5342;
const BTRFS: u64 = 0x9123_683E;
const TMPFS: u64 = 0x0102_1994;
const RAMFS: u64 = 0x8584_58F6;
const F2FS: u64 = 0xF2F5_2010;
const BCACHEFS: u64 = 0xCA45_1A4E;
const OVERLAYFS: u64 = 0x794C_7630;
const SQUASHFS: u64 = 0x7371_7368;
const EROFS: u64 = 0xE0F5_E1E2;

/// How a type compares the names a lookup is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Names {
    /// Byte for byte, always.
    Exact,
    /// Byte for byte unless the directory has the casefold flag.
    ExactUnlessCasefold,
    /// Byte for byte unless the file system was formatted ASCII case-insensitive (XFS).
    ExactUnlessAsciiCi,
    /// Unknown: a hit must be confirmed by a listing.
    Unknown,
}

fn names(magic: u64) -> Names {
    match magic {
        BTRFS | RAMFS | SQUASHFS | EROFS => Names::Exact,
        EXT | F2FS | TMPFS | OVERLAYFS | BCACHEFS => Names::ExactUnlessCasefold,
        XFS => Names::ExactUnlessAsciiCi,
        _ => Names::Unknown,
    }
}

/// Whether a directory on a file system of type `magic` is watched with inotify.
pub(crate) fn watchable(magic: u64) -> bool {
    names(magic) != Names::Unknown
}

/// How long after a change, in nanoseconds, a file system of type `magic` may still stamp a
/// time that does not move.
pub(crate) fn racy_window_ns(magic: Option<u64>) -> i128 {
    match magic {
        Some(magic) if watchable(magic) => 20_000_000,
        _ => 2_000_000_000,
    }
}

/// The type of the file system holding the open descriptor `fd`.
#[cfg(target_os = "linux")]
pub(crate) fn magic_of(fd: std::ffi::c_int) -> Option<u64> {
    super::os_dir::count();
    // SAFETY: `statfs` is plain data that the call fills in.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstatfs(fd, &mut st) } != 0 {
        return None;
    }
    // The magic is 32 bits, in a field whose width and sign differ between C libraries.
    #[allow(clippy::unnecessary_cast)]
    Some(st.f_type as u64 & 0xFFFF_FFFF)
}

/// The type of the file system holding the open descriptor `fd`: unknown off Linux.
#[cfg(not(target_os = "linux"))]
pub(crate) fn magic_of(_fd: std::ffi::c_int) -> Option<u64> {
    None
}

/// Whether a lookup of a name in `dir` (on a file system of type `magic`, when known) finds
/// only that exact spelling, so that a hit needs no listing to confirm it.
#[cfg(target_os = "linux")]
pub(crate) fn exact_names(dir: &Dir, magic: Option<u64>) -> bool {
    #[cfg(feature = "test-hooks")]
    if hooks::ASSUME_FOLDING.load(std::sync::atomic::Ordering::Relaxed) {
        return false;
    }
    match magic.map(names) {
        Some(Names::Exact) => true,
        Some(Names::ExactUnlessCasefold) => casefold(dir) == Some(false),
        Some(Names::ExactUnlessAsciiCi) => ascii_ci(dir) == Some(false),
        Some(Names::Unknown) | None => false,
    }
}

/// Whether a lookup of a name in `dir` finds only that exact spelling: never assumed off Linux,
/// where the common file systems (APFS, HFS+, NTFS) fold case by default.
#[cfg(not(target_os = "linux"))]
pub(crate) fn exact_names(_dir: &super::os_dir::Dir, _magic: Option<u64>) -> bool {
    false
}

/// Whether `dir` has the casefold flag; `None` when the flags cannot be read.
#[cfg(target_os = "linux")]
fn casefold(dir: &Dir) -> Option<bool> {
    const FS_CASEFOLD_FL: libc::c_int = 0x4000_0000;
    // The kernel writes an int, whatever size the request number encodes.
    let mut flags: libc::c_int = 0;
    super::os_dir::count();
    // SAFETY: `flags` outlives the call and is as wide as what the kernel writes.
    let ret = unsafe { libc::ioctl(dir.fd(), libc::FS_IOC_GETFLAGS, &mut flags) };
    (ret == 0).then_some(flags & FS_CASEFOLD_FL != 0)
}

/// Whether the XFS file system holding `dir` was formatted ASCII case-insensitive; `None` when
/// the geometry cannot be read.
#[cfg(target_os = "linux")]
fn ascii_ci(dir: &Dir) -> Option<bool> {
    // struct xfs_fsop_geom_v1 is 112 bytes; its `flags` word is at byte 92.
    // XFS_IOC_FSGEOMETRY_V1 = _IOR('X', 100, struct xfs_fsop_geom_v1).
    const XFS_IOC_FSGEOMETRY_V1: u64 = (2 << 30) | (112 << 16) | ((b'X' as u64) << 8) | 100;
    const XFS_FSOP_GEOM_FLAGS_DIRV2CI: u32 = 0x1000;
    let mut geometry = [0u64; 14];
    super::os_dir::count();
    // SAFETY: the buffer is the 112 bytes the kernel writes.
    let ret = unsafe { libc::ioctl(dir.fd(), XFS_IOC_FSGEOMETRY_V1 as _, geometry.as_mut_ptr()) };
    if ret != 0 {
        return None;
    }
    let bytes: Vec<u8> = geometry
        .iter()
        .flat_map(|word| word.to_ne_bytes())
        .collect();
    let flags = u32::from_ne_bytes([bytes[92], bytes[93], bytes[94], bytes[95]]);
    Some(flags & XFS_FSOP_GEOM_FLAGS_DIRV2CI != 0)
}

/// Test hooks, built only with the `test-hooks` feature.
#[cfg(feature = "test-hooks")]
pub(crate) mod hooks {
    use std::sync::atomic::AtomicBool;

    pub(crate) static ASSUME_FOLDING: AtomicBool = AtomicBool::new(false);
}

/// Makes every directory count as one that may fold case, so that every hit is confirmed by a
/// listing, as on vfat or an SMB share: lets a test run the confirming walk on a host whose
/// file systems compare names byte for byte. Process-wide. Built only with the `test-hooks`
/// feature.
#[cfg(feature = "test-hooks")]
pub fn assume_case_folding(on: bool) {
    hooks::ASSUME_FOLDING.store(on, std::sync::atomic::Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_file_systems_are_exact_or_per_directory() {
        assert_eq!(names(BTRFS), Names::Exact);
        assert_eq!(names(EXT), Names::ExactUnlessCasefold);
        assert_eq!(names(TMPFS), Names::ExactUnlessCasefold);
        assert_eq!(names(OVERLAYFS), Names::ExactUnlessCasefold);
        assert_eq!(names(XFS), Names::ExactUnlessAsciiCi);
    }

    #[test]
    fn other_file_systems_confirm_by_listing_and_are_not_watched() {
        const VFAT: u64 = 0x4d44;
        const NFS: u64 = 0x6969;
        const SMB2: u64 = 0xFE53_4D42;
        const FUSE: u64 = 0x6573_5546;
        for magic in [VFAT, NFS, SMB2, FUSE] {
            assert_eq!(names(magic), Names::Unknown, "{magic:x}");
            assert!(!watchable(magic), "{magic:x}");
            assert_eq!(racy_window_ns(Some(magic)), 2_000_000_000);
        }
        assert_eq!(racy_window_ns(None), 2_000_000_000);
        assert_eq!(racy_window_ns(Some(EXT)), 20_000_000);
    }
}
