//! A custom file system written in C: the callback struct `agentsmd_fs`, and [`CallbackFs`],
//! which answers the core's [`FileSystem`] questions by calling it.

use std::ffi::{c_void, OsString};
use std::io::{self, Read};
use std::path::PathBuf;

use agentsmd_core::ffi_support::{self, invalid_argument};
use agentsmd_core::fs::{BatchFileSystem, Entry, FileSystem};
use agentsmd_core::{Error, FsName};

use crate::batch::agentsmd_fs_batch;
use crate::boundary::{self, export, Lent};
use crate::callback::{
    self, agentsmd_callback_status, agentsmd_message, required, Plain, Userdata,
};
use crate::types::agentsmd_status;

/// What a name is, as the `stat` callback reports it in `*kind_out`, after following any link.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum agentsmd_entry_kind {
    /// A regular file: the only kind that can be an instruction file.
    File = 1,
    /// A directory.
    Dir = 2,
    /// Anything else (a FIFO, a socket, a device): never opened.
    Other = 3,
    /// In a batched listing only (`agentsmd_listings_push`): a symbolic link, or any entry
    /// whose kind the listing does not say; the library asks `stat` when it needs to know.
    Link = 4,
}

/// The names a `list` callback reports, collected with `agentsmd_listing_push`. Owned by the
/// library and valid only during the `list` call it is passed to, on that call's thread: once
/// the callback has returned, `agentsmd_listing_push` refuses it with
/// `AGENTSMD_STATUS_INVALID_ARGUMENT` and never reads or writes through it. Other functions
/// refuse it as a handle of another type.
// Opaque: what C holds is a token lent by `boundary::lend`, never a pointer to a `Listing`.
pub struct agentsmd_listing {
    _token: [u8; 0],
}

/// The names a `list` callback pushed.
#[derive(Default)]
pub(crate) struct Listing {
    names: Vec<Vec<u8>>,
    /// The first name refused, which fails the listing.
    refused: Option<Vec<u8>>,
}

impl Lent for agentsmd_listing {
    type Value = Listing;
    const WHAT: &'static str = "listing";
}

/// Adds one entry name to `listing`, copying it, from within the `list` callback `listing` was
/// passed to, on its thread. A name is one path element; `.` and `..` are accepted (and never
/// match). An empty name, one holding `/` or NUL, or a NULL `name` with a non-zero length
/// returns `AGENTSMD_STATUS_INVALID_ARGUMENT` and makes the listing fail with an
/// `AGENTSMD_STATUS_FS` error naming the directory, whatever the callback then returns. A
/// `listing` that is NULL, no listing, or one whose callback has returned (kept from an earlier
/// call) returns `AGENTSMD_STATUS_INVALID_ARGUMENT` and adds nothing anywhere.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_listing_push(
    listing: *mut agentsmd_listing,
    name: *const u8,
    name_len: usize,
) -> agentsmd_status {
    let no_error_out = std::ptr::null_mut();
    export!(no_error_out, {
        let listing = boundary::borrow_lent(listing)?;
        let name = match boundary::slice_of(name, name_len, "name") {
            Ok(name) if is_one_element(name) => name,
            // The listing fails too, so that a callback ignoring the status loses no entry
            // silently.
            refused => {
                let shown = refused.as_deref().unwrap_or(b"(NULL)");
                listing.refused.get_or_insert_with(|| shown.to_vec());
                return Err(invalid_argument("not one path element"));
            }
        };
        listing.names.push(name.to_vec());
        Ok(())
    })
}

/// Lists the directory `dir`: calls `agentsmd_listing_push(listing, …)` once per entry, before
/// it returns (`listing` is valid only until then).
pub type agentsmd_fs_list = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        dir: *const u8,
        dir_len: usize,
        listing: *mut agentsmd_listing,
        message: *mut agentsmd_message,
    ) -> u32,
>;

/// Reports what `name` is (an `agentsmd_entry_kind`, in `*kind_out`) and its size in bytes (in
/// `*size_out`), following links.
pub type agentsmd_fs_stat = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        name: *const u8,
        name_len: usize,
        kind_out: *mut u32,
        size_out: *mut u64,
        message: *mut agentsmd_message,
    ) -> u32,
>;

/// Opens the file `name` for reading, writing a handle of the caller's choice to `*file_out`
/// (which may be NULL; it is only passed back).
pub type agentsmd_fs_open = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        name: *const u8,
        name_len: usize,
        file_out: *mut *mut c_void,
        message: *mut agentsmd_message,
    ) -> u32,
>;

/// Reads at most `buffer_len` bytes of `file` into `buffer`, writing how many to `*read_out`;
/// 0 means the end of the file. The library never asks for more than `max_bytes + 1` bytes of
/// one file in all. Writing more than `buffer_len` to `*read_out`, or answering
/// `AGENTSMD_CALLBACK_STATUS_NOT_FOUND`, is an `AGENTSMD_STATUS_FS` error.
pub type agentsmd_fs_read = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        file: *mut c_void,
        buffer: *mut u8,
        buffer_len: usize,
        read_out: *mut usize,
        message: *mut agentsmd_message,
    ) -> u32,
>;

/// A file system written by the caller: C callbacks and the `userdata` passed to each. Names
/// are byte strings (`name`, `name_len`, not NUL-terminated) valid as SPEC.md defines: `.` for
/// the root, otherwise `/`-separated elements such as `a/b/AGENTS.md`. They are borrowed for the
/// call only.
///
/// `list`, `stat`, `open` and `read` follow the convention of every callback (see
/// `agentsmd_callback_status`): they return `AGENTSMD_CALLBACK_STATUS_OK`, `_NOT_FOUND` (from
/// `list`, `stat` and `open` only: "no such file or directory") or `_ERROR`, and on `_ERROR` may
/// set a message of any length on their last argument with `agentsmd_message_set`.
///
/// Callbacks may run on any thread that calls `agentsmd_chain`, and on several at once if the
/// caller shares the options between threads. They may call back into the library (for example
/// start another chain), but must not unwind (no C++ exception, no `longjmp`) through it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct agentsmd_fs {
    /// Passed to every callback as its first argument; never touched by the library.
    pub userdata: *mut c_void,
    /// Required.
    pub list: agentsmd_fs_list,
    /// Required.
    pub stat: agentsmd_fs_stat,
    /// Required.
    pub open: agentsmd_fs_open,
    /// Required.
    pub read: agentsmd_fs_read,
    /// Closes `file`; called once after every successful `open`, whatever the reads did. May
    /// be NULL.
    pub close: Option<unsafe extern "C" fn(userdata: *mut c_void, file: *mut c_void)>,
    /// Releases `userdata` when the library holds it no more; called exactly once after a
    /// successful `agentsmd_options_set_fs`. May be NULL.
    pub release: Option<unsafe extern "C" fn(userdata: *mut c_void)>,
}

/// The callbacks of an [`agentsmd_fs`], checked once when set, as a [`FileSystem`].
pub(crate) struct CallbackFs {
    pub(crate) userdata: Userdata,
    /// The batched questions; both NULL for a file system asked one question at a time.
    pub(crate) batch: agentsmd_fs_batch,
    list: Plain<agentsmd_fs_list>,
    stat: Plain<agentsmd_fs_stat>,
    open: Plain<agentsmd_fs_open>,
    read: Plain<agentsmd_fs_read>,
    close: Option<unsafe extern "C" fn(userdata: *mut c_void, file: *mut c_void)>,
}

impl CallbackFs {
    /// Takes the callbacks, and the batched ones of `batch` (which may be NULL), refusing a
    /// struct without a required one.
    pub(crate) fn new(fs: &agentsmd_fs, batch: Option<&agentsmd_fs_batch>) -> Result<Self, Error> {
        let not_batched = agentsmd_fs_batch {
            list_many: None,
            read_many: None,
        };
        Ok(Self {
            batch: batch.copied().unwrap_or(not_batched),
            list: required(fs.list, "fs->list")?,
            stat: required(fs.stat, "fs->stat")?,
            open: required(fs.open, "fs->open")?,
            read: required(fs.read, "fs->read")?,
            close: fs.close,
            userdata: Userdata {
                ptr: fs.userdata,
                release: fs.release,
            },
        })
    }

    /// Calls a callback about `name`, given the userdata, the name and the message it is lent:
    /// `Ok(())` for OK, "not found", or a failure whose text is the callback's message (the
    /// chain's error names the operation and the name).
    fn ask(
        &self,
        name: &FsName,
        callback: impl FnOnce(*mut c_void, *const u8, usize, *mut agentsmd_message) -> u32,
    ) -> io::Result<()> {
        let name = name.as_bytes();
        match callback::call(|message| {
            callback(self.userdata.ptr, name.as_ptr(), name.len(), message)
        }) {
            Ok(true) => Ok(()),
            Ok(false) => Err(io::ErrorKind::NotFound.into()),
            Err(detail) => Err(io::Error::other(detail)),
        }
    }
}

/// Whether `name`, as a callback listed it, is one path element: not empty, without `/` or NUL.
pub(crate) fn is_one_element(name: &[u8]) -> bool {
    !name.is_empty() && !name.contains(&b'/') && !name.contains(&0)
}

/// A name a callback listed, as the OS holds it. One the OS cannot hold (on Windows, bytes that
/// are not WTF-8) is none that the walk could look for: `None`, left out as the names it does
/// not look for are.
pub(crate) fn os_name(name: Vec<u8>) -> Option<OsString> {
    let path = ffi_support::path_from_bytes(name, "callback listed name");
    path.map(PathBuf::into_os_string).ok()
}

impl FileSystem for CallbackFs {
    fn list(&self, dir: &FsName) -> io::Result<Vec<OsString>> {
        let mut listing = Listing::default();
        // SAFETY: `dir` outlives the call; the listing is lent for it.
        let found = self.ask(dir, |userdata, dir, len, message| {
            boundary::lend(&mut listing, |listing| unsafe {
                (self.list)(userdata, dir, len, listing, message)
            })
        });
        // A failure of the callback comes first; then a name it listed that is refused, even
        // with "not found".
        let found = match found {
            Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
            found => found,
        };
        if let Some(name) = listing.refused {
            return Err(io::Error::other(format!(
                "callback listed {:?}, which is not one path element",
                String::from_utf8_lossy(&name)
            )));
        }
        found?;
        Ok(listing.names.into_iter().filter_map(os_name).collect())
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        let (mut kind, mut size) = (0u32, 0u64);
        // SAFETY: every pointer outlives the call.
        self.ask(name, |userdata, name, len, message| unsafe {
            (self.stat)(userdata, name, len, &mut kind, &mut size, message)
        })?;
        match kind {
            k if k == agentsmd_entry_kind::File as u32 => Ok(Entry::File { size }),
            k if k == agentsmd_entry_kind::Dir as u32 => Ok(Entry::Dir),
            k if k == agentsmd_entry_kind::Other as u32 => Ok(Entry::Other),
            other => Err(io::Error::other(format!(
                "callback reported kind {other}, which is none of FILE, DIR and OTHER"
            ))),
        }
    }

    fn open(&self, name: &FsName) -> io::Result<Box<dyn Read + '_>> {
        let mut opened = None;
        // SAFETY: every pointer outlives the call.
        self.ask(name, |userdata, name, len, message| {
            let mut file = std::ptr::null_mut();
            let status = unsafe { (self.open)(userdata, name, len, &mut file, message) };
            // Made at once, so that a file opened is closed on every way out, a panic included.
            if status == agentsmd_callback_status::Ok as u32 {
                opened = Some(CallbackFile { fs: self, file });
            }
            status
        })?;
        match opened {
            Some(file) => Ok(Box::new(file)),
            None => Err(io::ErrorKind::NotFound.into()),
        }
    }

    fn batched(&self) -> Option<&dyn BatchFileSystem> {
        let batch = self.batch;
        (batch.list_many.is_some() || batch.read_many.is_some()).then_some(self)
    }
}

/// A file `open` opened: read by the core's one read loop, which hands its own buffer straight
/// to the `read` callback; closed when dropped.
struct CallbackFile<'a> {
    fs: &'a CallbackFs,
    file: *mut c_void,
}

impl Read for CallbackFile<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let want = buffer.len();
        let (fs, file, mut got) = (self.fs, self.file, 0);
        // SAFETY: the buffer is `want` writable bytes, borrowed for the call.
        let answer = callback::call(|message| unsafe {
            let buffer = buffer.as_mut_ptr();
            (fs.read)(fs.userdata.ptr, file, buffer, want, &mut got, message)
        });
        let detail = match answer {
            Ok(true) if got <= want => return Ok(got),
            Ok(true) => format!("callback reported {got} bytes read into a buffer of {want}"),
            Ok(false) => "callback answered not found for an open file".to_owned(),
            Err(detail) => detail,
        };
        Err(io::Error::other(detail))
    }
}

impl Drop for CallbackFile<'_> {
    fn drop(&mut self) {
        if let Some(close) = self.fs.close {
            // SAFETY: `file` came from a successful open, and this is its only closer.
            unsafe { close(self.fs.userdata.ptr, self.file) }
        }
    }
}
