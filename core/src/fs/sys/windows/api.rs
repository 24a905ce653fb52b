//! The Windows calls that std cannot make, behind safe functions: the crate's only `unsafe`.
#![allow(unsafe_code)]

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::windows::ffi::{OsStrExt, OsStringExt};
use std::os::windows::io::{AsRawHandle, FromRawHandle};

use windows_sys::Wdk::Foundation::OBJECT_ATTRIBUTES;
use windows_sys::Wdk::Storage::FileSystem::{
    NtCreateFile, FILE_OPEN, FILE_OPEN_REPARSE_POINT, FILE_SYNCHRONOUS_IO_NONALERT,
};
use windows_sys::Win32::Foundation::{
    RtlNtStatusToDosError, ERROR_FILENAME_EXCED_RANGE, ERROR_FILE_NOT_FOUND, HANDLE,
    INVALID_HANDLE_VALUE, OBJ_CASE_INSENSITIVE, UNICODE_STRING,
};
use windows_sys::Win32::Storage::FileSystem::{
    FileAttributeTagInfo, FindClose, FindFirstFileW, GetFileInformationByHandleEx, GetFileType,
    GetFinalPathNameByHandleW, ReOpenFile, FILE_ATTRIBUTE_TAG_INFO, FILE_GENERIC_READ,
    FILE_INFO_BY_HANDLE_CLASS, FILE_NAME_NORMALIZED, FILE_TYPE_DISK,
    MAXIMUM_REPARSE_DATA_BUFFER_SIZE, SYNCHRONIZE, VOLUME_NAME_DOS, WIN32_FIND_DATAW,
};
use windows_sys::Win32::System::Ioctl::FSCTL_GET_REPARSE_POINT;
use windows_sys::Win32::System::IO::{DeviceIoControl, IO_STATUS_BLOCK};

use super::{to_path, SHARE_ALL};

/// The directory entry at `path` (its last element no wildcard): its name as spelled, its
/// attributes and size; `None` where its directory has none.
pub(super) fn find(path: &[u8]) -> io::Result<Option<(Vec<u8>, u32, u64)>> {
    let wide: Vec<u16> = to_path(path).as_os_str().encode_wide().chain([0]).collect();
    let mut data = WIN32_FIND_DATAW::default();
    // SAFETY: `wide` is a NUL-terminated UTF-16 string that outlives the call, and `data` is a
    // writable WIN32_FIND_DATAW; the handle returned, when valid, is closed below.
    let handle = unsafe { FindFirstFileW(wide.as_ptr(), &mut data) };
    if handle == INVALID_HANDLE_VALUE {
        // Any other failure is for the directory's listing to decide.
        let error = io::Error::last_os_error();
        return match error.raw_os_error() == Some(ERROR_FILE_NOT_FOUND as i32) {
            true => Ok(None),
            false => Err(error),
        };
    }
    // SAFETY: `handle` is the valid search handle FindFirstFileW returned, closed once.
    unsafe { FindClose(handle) };
    let name = data
        .cFileName
        .split(|&unit| unit == 0)
        .next()
        .unwrap_or_default();
    let spelled = OsString::from_wide(name).into_encoded_bytes();
    let size = (u64::from(data.nFileSizeHigh) << 32) | u64::from(data.nFileSizeLow);
    Ok(Some((spelled, data.dwFileAttributes, size)))
}

/// The final path of the open `handle` (`\\?\C:\...`), links resolved.
pub(super) fn final_path(handle: &File) -> io::Result<Vec<u16>> {
    let mut buf = vec![0u16; 512];
    loop {
        let capacity = u32::try_from(buf.len()).unwrap_or(u32::MAX);
        // SAFETY: the handle is open for the call's length, and `buf` is a writable buffer of
        // `capacity` UTF-16 units.
        let len = unsafe {
            GetFinalPathNameByHandleW(
                handle.as_raw_handle(),
                buf.as_mut_ptr(),
                capacity,
                FILE_NAME_NORMALIZED | VOLUME_NAME_DOS,
            )
        } as usize;
        match len {
            0 => return Err(io::Error::last_os_error()),
            // Too small: `len` is the size needed, its NUL counted.
            len if len >= buf.len() => buf.resize(len, 0),
            len => {
                buf.truncate(len);
                return Ok(buf);
            }
        }
    }
}

/// The same file as `file`, opened again to read, its reparse point served by its driver.
pub(super) fn reopened(file: &File) -> io::Result<File> {
    // SAFETY: the handle is open for the call's length; the handle returned, when valid, is
    // owned by the `File` made of it.
    let handle = unsafe { ReOpenFile(file.as_raw_handle(), FILE_GENERIC_READ, SHARE_ALL, 0) };
    if handle == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `handle` is a valid handle that nothing else owns.
    Ok(unsafe { File::from_raw_handle(handle) })
}

/// `name`, one element, opened with `access` beneath the directory open as `dir` (Windows's
/// `openat`), a reparse point itself opened: no link is followed.
pub(super) fn open_beneath(dir: &File, name: &[u16], access: u32) -> io::Result<File> {
    let too_long = || io::Error::from_raw_os_error(ERROR_FILENAME_EXCED_RANGE as i32);
    let bytes = u16::try_from(std::mem::size_of_val(name)).map_err(|_| too_long())?;
    let object_name = UNICODE_STRING {
        Length: bytes,
        MaximumLength: bytes,
        Buffer: name.as_ptr().cast_mut(),
    };
    let attributes = OBJECT_ATTRIBUTES {
        Length: std::mem::size_of::<OBJECT_ATTRIBUTES>() as u32,
        RootDirectory: dir.as_raw_handle(),
        ObjectName: &object_name,
        // As CreateFileW opens: NTFS folds case (the spelling is checked on the opened name).
        Attributes: OBJ_CASE_INSENSITIVE,
        SecurityDescriptor: std::ptr::null(),
        SecurityQualityOfService: std::ptr::null(),
    };
    let mut handle: HANDLE = std::ptr::null_mut();
    let mut status_block = IO_STATUS_BLOCK::default();
    // SAFETY: every pointer is to a live value of the type the call takes, for the call's
    // length (`object_name` borrows `name`, which it never writes); NtCreateFile writes
    // `handle` and `status_block` alone. The handle returned on success is owned below.
    let status = unsafe {
        NtCreateFile(
            &mut handle,
            access | SYNCHRONIZE,
            &attributes,
            &mut status_block,
            std::ptr::null(),
            0,
            SHARE_ALL,
            FILE_OPEN,
            FILE_OPEN_REPARSE_POINT | FILE_SYNCHRONOUS_IO_NONALERT,
            std::ptr::null(),
            0,
        )
    };
    if status < 0 {
        // SAFETY: a pure mapping of a status to its Win32 error.
        let code = unsafe { RtlNtStatusToDosError(status) };
        return Err(io::Error::from_raw_os_error(code as i32));
    }
    // SAFETY: `handle` is the valid handle NtCreateFile returned, owned by nothing else.
    Ok(unsafe { File::from_raw_handle(handle) })
}

/// The reparse point of the open `handle`, as FSCTL_GET_REPARSE_POINT returns it.
pub(super) fn reparse_point(handle: &File) -> io::Result<Vec<u8>> {
    let mut data = vec![0u8; MAXIMUM_REPARSE_DATA_BUFFER_SIZE as usize];
    let mut len = 0u32;
    // SAFETY: the handle is open for the call's length, `data` is a writable buffer of the
    // size given, and `len` a writable u32; no input buffer, no overlapped I/O.
    let done = unsafe {
        DeviceIoControl(
            handle.as_raw_handle(),
            FSCTL_GET_REPARSE_POINT,
            std::ptr::null(),
            0,
            data.as_mut_ptr().cast(),
            MAXIMUM_REPARSE_DATA_BUFFER_SIZE,
            &mut len,
            std::ptr::null_mut(),
        )
    };
    if done == 0 {
        return Err(io::Error::last_os_error());
    }
    data.truncate(len as usize);
    Ok(data)
}

/// Whether the open `file` is on disk (`GetFileType`): no device or pipe.
pub(super) fn is_on_disk(file: &File) -> bool {
    // SAFETY: the handle is open for the call's length.
    unsafe { GetFileType(file.as_raw_handle()) == FILE_TYPE_DISK }
}

/// The attributes and reparse tag of the open `handle`.
pub(super) fn attribute_tag(handle: &File) -> io::Result<FILE_ATTRIBUTE_TAG_INFO> {
    let mut info = FILE_ATTRIBUTE_TAG_INFO::default();
    // SAFETY: the handle is open for the call's length, and `info` is a writable
    // FILE_ATTRIBUTE_TAG_INFO of the size given.
    let done = unsafe {
        GetFileInformationByHandleEx(
            handle.as_raw_handle(),
            FileAttributeTagInfo,
            (&mut info as *mut FILE_ATTRIBUTE_TAG_INFO).cast(),
            std::mem::size_of::<FILE_ATTRIBUTE_TAG_INFO>() as u32,
        )
    };
    match done {
        0 => Err(io::Error::last_os_error()),
        _ => Ok(info),
    }
}

/// The next records of the directory open as `dir`, of the information `class`, into `buffer`.
pub(super) fn directory_info(
    dir: &File,
    class: FILE_INFO_BY_HANDLE_CLASS,
    buffer: &mut [u64],
) -> io::Result<()> {
    let size = u32::try_from(std::mem::size_of_val(buffer)).unwrap_or(u32::MAX);
    // SAFETY: the handle is open for the call's length, and `buffer` is a writable buffer of
    // `size` bytes.
    let done = unsafe {
        GetFileInformationByHandleEx(dir.as_raw_handle(), class, buffer.as_mut_ptr().cast(), size)
    };
    match done {
        0 => Err(io::Error::last_os_error()),
        _ => Ok(()),
    }
}
