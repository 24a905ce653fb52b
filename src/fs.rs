//! A custom file system written in C: the callback struct `agentsmd_fs`, and [`CallbackFs`],
//! which answers the core's [`FileSystem`] questions by calling it.

use std::ffi::{c_void, OsString};
use std::io::{self, Read};

use agentsmd_core::ffi_support::{invalid_argument, not_batched};
use agentsmd_core::fs::{BatchFileSystem, Batches, Entry, FileSystem, Listed};
use agentsmd_core::{Error, FsName};

use crate::batch::{self, agentsmd_fs_batch, is_one_element, os_name};
use crate::boundary::{self, export, handle};
use crate::callback::{
    self, agentsmd_callback_status, agentsmd_message, required, Plain, Userdata,
};
use crate::types::{agentsmd_entry_kind, agentsmd_status};

/// The names a `list` callback reports with `agentsmd_listing_push`; lent to the callback.
pub struct agentsmd_listing {
    _token: [u8; 0],
}

/// The names a `list` callback pushed.
#[derive(Default)]
pub(crate) struct Listing {
    names: Vec<Vec<u8>>,
    /// Why the first name was refused, which fails the listing.
    refused: Option<String>,
}

handle!(agentsmd_listing => Listing, "listing");

/// Adds one entry name to `listing`, copying it. Refuses (and so fails the listing, naming the
/// directory) a name that is not one path element (empty, or holding `/` or NUL); `.` and `..`
/// are accepted, and never match.
#[no_mangle]
pub unsafe extern "C" fn agentsmd_listing_push(
    listing: *mut agentsmd_listing,
    name: *const u8,
    name_len: usize,
) -> agentsmd_status {
    export!(std::ptr::null_mut(), {
        let listing = boundary::borrow_lent(listing)?;
        let name = match boundary::slice_of(name, name_len, "name") {
            Ok(name) if is_one_element(name) => name,
            refused => {
                let shown = String::from_utf8_lossy(refused.as_deref().unwrap_or(b"(NULL)"));
                let why = || format!("callback listed {shown:?}, which is not one path element");
                listing.refused.get_or_insert_with(why);
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
/// one file in all. Writing more than `buffer_len` to `*read_out` is an `AGENTSMD_STATUS_FS`
/// error.
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

/// A file system written by the caller: C callbacks, following the header's conventions of
/// every callback, and the `userdata` passed to each. Names are byte strings (`name`,
/// `name_len`, not NUL-terminated) valid as SPEC.md defines: `.` for the root, otherwise
/// `/`-separated elements such as `a/b/AGENTS.md`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct agentsmd_fs {
    /// Passed to every callback as its first argument.
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
        Ok(Self {
            batch: batch.copied().unwrap_or_default(),
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

    /// Calls a callback about `name`: `Ok(())` for OK, "not found", or a failure whose text is
    /// the callback's message (the chain's error names the operation and the name).
    fn ask(
        &self,
        name: &FsName,
        callback: impl FnOnce(*mut c_void, *const u8, usize, *mut agentsmd_message) -> u32,
    ) -> io::Result<()> {
        let (name, userdata) = (name.as_bytes(), self.userdata.ptr);
        match callback::call(|message| callback(userdata, name.as_ptr(), name.len(), message)) {
            Ok(true) => Ok(()),
            Ok(false) => Err(io::ErrorKind::NotFound.into()),
            Err(detail) => Err(io::Error::other(detail)),
        }
    }
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
        match (found, listing.refused) {
            (Err(error), _) if error.kind() != io::ErrorKind::NotFound => Err(error),
            (_, Some(why)) => Err(io::Error::other(why)),
            (found, None) => {
                found.map(|()| listing.names.into_iter().filter_map(os_name).collect())
            }
        }
    }

    fn stat(&self, name: &FsName) -> io::Result<Entry> {
        let (mut kind, mut size) = (0u32, 0u64);
        // SAFETY: every pointer outlives the call.
        self.ask(name, |userdata, name, len, message| unsafe {
            (self.stat)(userdata, name, len, &mut kind, &mut size, message)
        })?;
        match agentsmd_entry_kind::entry(kind, size) {
            Ok(Some(entry)) => Ok(entry),
            _ => Err(io::Error::other(format!(
                "callback reported kind {kind}, which is none of FILE, DIR and OTHER"
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
        Ok(Box::new(opened.ok_or(io::ErrorKind::NotFound)?))
    }

    fn batched(&self) -> Option<&dyn BatchFileSystem> {
        let Batches { lists, reads } = self.batches();
        (lists || reads).then_some(self)
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

/// The batched questions of a C file system: one whose callback is NULL is asked one name at a
/// time through the `agentsmd_fs` callbacks.
impl BatchFileSystem for CallbackFs {
    fn batches(&self) -> Batches {
        Batches {
            lists: self.batch.list_many.is_some(),
            reads: self.batch.read_many.is_some(),
        }
    }

    fn list_many(&self, dirs: &[FsName]) -> io::Result<Vec<Option<Vec<Listed>>>> {
        let (batch, userdata) = (self.batch, self.userdata.ptr);
        let list_many = batch.list_many.ok_or_else(|| not_batched("list_many"))?;
        // SAFETY: the names and the listings outlive the call.
        batch::ask(
            dirs,
            u64::MAX,
            "listed",
            |names, len, out, message| unsafe { list_many(userdata, names, len, out, message) },
        )
    }

    fn read_many(&self, files: &[FsName], limit: u64) -> io::Result<Vec<Option<Vec<u8>>>> {
        let (batch, userdata) = (self.batch, self.userdata.ptr);
        let read_many = batch.read_many.ok_or_else(|| not_batched("read_many"))?;
        // SAFETY: the names and the reads outlive the call.
        batch::ask(files, limit, "set", |names, len, out, message| unsafe {
            read_many(userdata, names, len, limit, out, message)
        })
    }
}
