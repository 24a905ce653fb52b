"""agentsmd from Python through ctypes, standard library only: every public function of
include/agentsmd.h declared, for a scripting host that loads the library as a plugin. Copy
this file into a project; python/test_agentsmd_ctypes.py holds it to the header.

    lib = agentsmd_ctypes.load("libagentsmd.so.1")
    print(agentsmd_ctypes.instructions(lib, b"/work/repo/src", root=b"/work/repo").decode())
    agentsmd_ctypes.unload(lib)  # only once nothing from it is in use

Handles (options, result, error, buffer, document, block) are plain addresses (c_void_p);
whatever the library hands out is freed with its one free function, as the header says.
"""

import ctypes
import os
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char_p,
    c_int32,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)

# The header's enums, by value (tests/consumers.rs checks them against the header).
STATUS_OK = 0
STATUS_INVALID_ARGUMENT = 1
STATUS_TOO_LARGE = 2
STATUS_IO = 3
STATUS_FS = 4
STATUS_PANIC = 5
STATUS_IMPORT = 6
STATUS_ABORTED = 7
REASON_OVER_BUDGET = 1
REASON_SHADOWED = 2
REASON_ESCAPES = 3
REASON_DUPLICATE = 4
REASON_SUPERSEDED = 5
REASON_EMPTY = 6
REASON_TRUNCATED = 7
SOURCE_EXTRA = 1
SOURCE_CHAIN = 2
SOURCE_FRAGMENT = 3
SOURCE_OVERLAY = 4
SOURCE_RULE = 5
OUTCOME_INCLUDED = 1
OUTCOME_SHADOWED = 2
OUTCOME_OVER_BUDGET = 3
OUTCOME_SUPERSEDED = 4
OUTCOME_DUPLICATE = 5
OUTCOME_ESCAPES = 6
OUTCOME_NOT_FOUND = 7
OUTCOME_NOT_A_FILE = 8
OUTCOME_LISTED = 9
OUTCOME_IMPORTED = 10
OUTCOME_NOT_MATCHED = 11
OUTCOME_AVAILABLE = 12
OUTCOME_EMPTY = 13
OUTCOME_TRUNCATED = 14
DIALECT_CLAUDE = 1
DIALECT_CURSOR = 2
DIALECT_COPILOT = 3
DIALECT_WINDSURF = 4
DIALECT_KIRO = 5
DIALECT_CLINE = 6
CALLBACK_STATUS_OK = 0
CALLBACK_STATUS_NOT_FOUND = 1
CALLBACK_STATUS_ERROR = 2
ENTRY_KIND_FILE = 1
ENTRY_KIND_DIR = 2
ENTRY_KIND_OTHER = 3
ENTRY_KIND_LINK = 4


class Bytes(Structure):
    """agentsmd_bytes: `len` bytes at `ptr`, not NUL-terminated."""

    _fields_ = [("ptr", POINTER(c_uint8)), ("len", c_size_t)]

    @classmethod
    def of(cls, data: bytes) -> "Bytes":
        # ctypes keeps `data` alive as long as the structure (or an array holding it).
        return cls(ctypes.cast(c_char_p(data), POINTER(c_uint8)), len(data))

    def value(self) -> bytes:
        return ctypes.string_at(self.ptr, self.len) if self.len else b""


class File(Structure):
    """agentsmd_file."""

    _fields_ = [("path", Bytes), ("content", Bytes)]


class Omitted(Structure):
    """agentsmd_omitted."""

    _fields_ = [("path", Bytes), ("size", c_uint64), ("reason", c_uint32), ("by", Bytes)]


class Import(Structure):
    """agentsmd_import."""

    _fields_ = [
        ("path", Bytes), ("by", Bytes), ("line", c_uint64), ("size", c_uint64),
        ("depth", c_uint32), ("duplicate", c_uint32),
    ]


class Probe(Structure):
    """agentsmd_probe."""

    _fields_ = [("path", Bytes), ("source", c_uint32), ("outcome", c_uint32)]


class RuleDir(Structure):
    """agentsmd_rule_dir: `dialect` a DIALECT_… value."""

    _fields_ = [("dialect", c_uint32), ("dir", Bytes)]


class Available(Structure):
    """agentsmd_available."""

    _fields_ = [("path", Bytes), ("name", Bytes), ("description", Bytes)]


class DocumentWarning(Structure):
    """agentsmd_warning."""

    _fields_ = [("line", c_size_t), ("message", Bytes)]


class Skill(Structure):
    """agentsmd_skill: `path` has a NULL `ptr` for an inline skill."""

    _fields_ = [("name", Bytes), ("text", Bytes), ("path", Bytes)]


class Unit(Structure):
    """agentsmd_unit: `title` has a NULL `ptr` for the preamble."""

    _fields_ = [("title", Bytes), ("text", Bytes)]


class Dropped(Structure):
    """agentsmd_dropped."""

    _fields_ = [("title", Bytes), ("bytes", c_size_t)]


class BlockOptions(Structure):
    """agentsmd_block_options: a byte string with a NULL `ptr` takes the default."""

    _fields_ = [
        ("cap", c_size_t), ("heading", Bytes), ("preamble", Bytes), ("name", Bytes),
        ("where", Bytes),
    ]


# agentsmd_fs's callbacks. Each returns a CALLBACK_STATUS_… as a uint32_t, its last argument
# the agentsmd_message a failing one sets with agentsmd_message_set (see failed()). A Python
# exception in one cannot cross C, so each must catch its own and answer CALLBACK_STATUS_ERROR.
ListFn = CFUNCTYPE(c_uint32, c_void_p, POINTER(c_uint8), c_size_t, c_void_p, c_void_p)
StatFn = CFUNCTYPE(
    c_uint32, c_void_p, POINTER(c_uint8), c_size_t, POINTER(c_uint32), POINTER(c_uint64),
    c_void_p,
)
OpenFn = CFUNCTYPE(c_uint32, c_void_p, POINTER(c_uint8), c_size_t, POINTER(c_void_p), c_void_p)
ReadFn = CFUNCTYPE(
    c_uint32, c_void_p, c_void_p, POINTER(c_uint8), c_size_t, POINTER(c_size_t), c_void_p
)
CloseFn = CFUNCTYPE(None, c_void_p, c_void_p)
ReleaseFn = CFUNCTYPE(None, c_void_p)


class Fs(Structure):
    """agentsmd_fs: a file system written by the caller."""

    _fields_ = [
        ("userdata", c_void_p),
        ("list", ListFn),
        ("stat", StatFn),
        ("open", OpenFn),
        ("read", ReadFn),
        ("close", CloseFn),
        ("release", ReleaseFn),
    ]


# agentsmd_fs_batch's callbacks, which answer with agentsmd_listings_push and agentsmd_reads_set.
ListManyFn = CFUNCTYPE(c_uint32, c_void_p, c_void_p, c_size_t, c_void_p, c_void_p)
ReadManyFn = CFUNCTYPE(c_uint32, c_void_p, c_void_p, c_size_t, c_uint64, c_void_p, c_void_p)


class FsBatch(Structure):
    """agentsmd_fs_batch: the batched questions of a file system written by the caller."""

    _fields_ = [("list_many", ListManyFn), ("read_many", ReadManyFn)]


# agentsmd_transform's callback, which appends what it returns with agentsmd_content_append.
TransformFn = CFUNCTYPE(
    c_uint32, c_void_p, POINTER(c_uint8), c_size_t, POINTER(c_uint8), c_size_t, c_void_p,
    c_void_p,
)


class Transform(Structure):
    """agentsmd_transform: a transform written by the caller."""

    _fields_ = [("userdata", c_void_p), ("transform", TransformFn), ("release", ReleaseFn)]


_OUT = POINTER(c_void_p)  # a handle written by the call: result_out, buffer_out, error_out

SIGNATURES = {
    "agentsmd_chain": (c_uint32, [c_char_p, c_size_t, c_void_p, _OUT, _OUT]),
    "agentsmd_result_file_count": (c_size_t, [c_void_p]),
    "agentsmd_result_file": (c_uint32, [c_void_p, c_size_t, POINTER(File), _OUT]),
    "agentsmd_result_omitted_count": (c_size_t, [c_void_p]),
    "agentsmd_result_omitted": (c_uint32, [c_void_p, c_size_t, POINTER(Omitted), _OUT]),
    "agentsmd_result_render": (c_uint32, [c_void_p, _OUT, _OUT]),
    "agentsmd_result_free": (None, [c_void_p]),
    "agentsmd_error_status": (c_uint32, [c_void_p]),
    "agentsmd_error_message": (c_char_p, [c_void_p]),
    "agentsmd_error_path": (Bytes, [c_void_p]),
    "agentsmd_error_line": (c_uint64, [c_void_p]),
    "agentsmd_error_os_code": (c_int32, [c_void_p]),
    "agentsmd_error_free": (None, [c_void_p]),
    "agentsmd_cancel_new": (c_void_p, []),
    "agentsmd_cancel_request": (c_uint32, [c_void_p]),
    "agentsmd_cancel_free": (None, [c_void_p]),
    "agentsmd_options_set_cancel": (c_uint32, [c_void_p, c_void_p, _OUT]),
    "agentsmd_listing_push": (c_uint32, [c_void_p, c_char_p, c_size_t]),
    "agentsmd_options_new": (c_void_p, []),
    "agentsmd_options_free": (None, [c_void_p]),
    "agentsmd_options_set_names": (c_uint32, [c_void_p, POINTER(Bytes), c_size_t, _OUT]),
    "agentsmd_options_set_root": (c_uint32, [c_void_p, c_char_p, c_size_t, _OUT]),
    "agentsmd_options_set_extra": (c_uint32, [c_void_p, POINTER(Bytes), c_size_t, _OUT]),
    "agentsmd_options_set_max_bytes": (c_uint32, [c_void_p, c_uint64, _OUT]),
    "agentsmd_options_set_budget": (c_uint32, [c_void_p, c_uint64, _OUT]),
    "agentsmd_options_set_rendered_budget": (c_uint32, [c_void_p, c_uint64, _OUT]),
    "agentsmd_options_set_confine": (c_uint32, [c_void_p, c_uint32, _OUT]),
    "agentsmd_options_set_fs": (c_uint32, [c_void_p, POINTER(Fs), _OUT]),
    "agentsmd_options_set_batched_fs": (
        c_uint32, [c_void_p, POINTER(Fs), POINTER(FsBatch), _OUT]
    ),
    "agentsmd_listings_push": (
        c_uint32, [c_void_p, c_size_t, c_char_p, c_size_t, c_uint32, c_uint64]
    ),
    "agentsmd_listings_found": (c_uint32, [c_void_p, c_size_t]),
    "agentsmd_reads_set": (c_uint32, [c_void_p, c_size_t, c_char_p, c_size_t]),
    "agentsmd_render": (c_uint32, [POINTER(File), c_size_t, _OUT, _OUT]),
    "agentsmd_buffer_data": (POINTER(c_uint8), [c_void_p]),
    "agentsmd_buffer_len": (c_size_t, [c_void_p]),
    "agentsmd_buffer_free": (None, [c_void_p]),
    "agentsmd_version": (c_char_p, []),
    "agentsmd_result_file_source": (c_uint32, [c_void_p, c_size_t, POINTER(c_uint32), _OUT]),
    "agentsmd_result_import_count": (c_size_t, [c_void_p]),
    "agentsmd_result_import": (c_uint32, [c_void_p, c_size_t, POINTER(Import), _OUT]),
    "agentsmd_result_probe_count": (c_size_t, [c_void_p]),
    "agentsmd_result_probe": (c_uint32, [c_void_p, c_size_t, POINTER(Probe), _OUT]),
    "agentsmd_options_set_fragments": (c_uint32, [c_void_p, POINTER(Bytes), c_size_t, _OUT]),
    "agentsmd_options_set_rules": (c_uint32, [c_void_p, POINTER(RuleDir), c_size_t, _OUT]),
    "agentsmd_result_available_count": (c_size_t, [c_void_p]),
    "agentsmd_result_available": (c_uint32, [c_void_p, c_size_t, POINTER(Available), _OUT]),
    "agentsmd_result_warning_count": (c_size_t, [c_void_p]),
    "agentsmd_result_warning": (c_uint32, [c_void_p, c_size_t, POINTER(Bytes), _OUT]),
    "agentsmd_options_set_preset": (c_uint32, [c_void_p, c_char_p, c_size_t, _OUT]),
    "agentsmd_options_set_home": (c_uint32, [c_void_p, c_char_p, c_size_t, _OUT]),
    "agentsmd_preset_render": (c_uint32, [c_void_p, c_char_p, c_size_t, c_void_p, _OUT, _OUT]),
    "agentsmd_options_set_overlays": (c_uint32, [c_void_p, POINTER(Bytes), c_size_t, _OUT]),
    "agentsmd_options_set_imports": (c_uint32, [c_void_p, c_uint32, _OUT]),
    "agentsmd_options_set_import_depth": (c_uint32, [c_void_p, c_uint32, _OUT]),
    "agentsmd_options_set_max_imports": (c_uint32, [c_void_p, c_uint32, _OUT]),
    "agentsmd_options_set_nearest": (c_uint32, [c_void_p, c_uint32, _OUT]),
    "agentsmd_options_set_all_names": (c_uint32, [c_void_p, c_uint32, _OUT]),
    "agentsmd_session_new": (c_uint32, [c_void_p, POINTER(c_void_p), _OUT]),
    "agentsmd_session_touch": (c_uint32, [c_void_p, c_char_p, c_size_t, POINTER(c_void_p), _OUT]),
    "agentsmd_session_touch_cancellable": (
        c_uint32, [c_void_p, c_char_p, c_size_t, c_void_p, POINTER(c_void_p), _OUT]
    ),
    "agentsmd_session_free": (None, [c_void_p]),
    "agentsmd_options_set_report": (c_uint32, [c_void_p, c_uint32, _OUT]),
    "agentsmd_options_set_transform": (c_uint32, [c_void_p, POINTER(Transform), _OUT]),
    "agentsmd_options_set_interpolator": (
        c_uint32, [c_void_p, POINTER(Bytes), POINTER(Bytes), c_size_t, _OUT]
    ),
    "agentsmd_content_append": (c_uint32, [c_void_p, c_char_p, c_size_t]),
    "agentsmd_message_set": (c_uint32, [c_void_p, c_char_p, c_size_t]),
    "agentsmd_overlay_dir": (c_uint32, [c_char_p, c_size_t, c_char_p, c_size_t, _OUT, _OUT]),
    "agentsmd_parse": (
        c_uint32,
        [c_char_p, c_size_t, c_char_p, c_size_t, c_void_p, POINTER(Bytes), c_size_t, _OUT, _OUT],
    ),
    "agentsmd_parse_nearest": (
        c_uint32, [c_char_p, c_size_t, c_void_p, POINTER(Bytes), c_size_t, _OUT, _OUT]
    ),
    "agentsmd_document_path": (c_uint32, [c_void_p, POINTER(Bytes), _OUT]),
    "agentsmd_document_warning_count": (c_size_t, [c_void_p]),
    "agentsmd_document_warning": (c_uint32, [c_void_p, c_size_t, POINTER(DocumentWarning), _OUT]),
    "agentsmd_document_requested_count": (c_size_t, [c_void_p]),
    "agentsmd_document_requested": (c_uint32, [c_void_p, c_size_t, POINTER(Bytes), _OUT]),
    "agentsmd_document_skill_count": (c_size_t, [c_void_p]),
    "agentsmd_document_skill": (c_uint32, [c_void_p, c_size_t, POINTER(Skill), _OUT]),
    "agentsmd_document_unknown_count": (c_size_t, [c_void_p]),
    "agentsmd_document_unknown": (c_uint32, [c_void_p, c_size_t, POINTER(Bytes), _OUT]),
    "agentsmd_document_unit_count": (c_size_t, [c_void_p]),
    "agentsmd_document_unit": (c_uint32, [c_void_p, c_size_t, POINTER(Unit), _OUT]),
    "agentsmd_document_free": (None, [c_void_p]),
    "agentsmd_document_block": (c_uint32, [c_void_p, POINTER(BlockOptions), _OUT, _OUT]),
    "agentsmd_block_data": (POINTER(c_uint8), [c_void_p]),
    "agentsmd_block_len": (c_size_t, [c_void_p]),
    "agentsmd_block_cap": (c_size_t, [c_void_p]),
    "agentsmd_block_dropped_count": (c_size_t, [c_void_p]),
    "agentsmd_block_dropped": (c_uint32, [c_void_p, c_size_t, POINTER(Dropped), _OUT]),
    "agentsmd_block_free": (None, [c_void_p]),
}


class AgentsmdError(Exception):
    """A failed call: `status` (STATUS_…), the library's message naming the path, and `os_code`
    (the errno of STATUS_IO)."""

    def __init__(self, status: int, message: str, os_code: int):
        super().__init__(message)
        self.status = status
        self.os_code = os_code


def load(path: str) -> ctypes.CDLL:
    """Loads the library at `path` (a file, or a name the dynamic loader searches for) and
    declares every function's signature on it."""
    lib = ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_LOCAL)
    for name, (restype, argtypes) in SIGNATURES.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


def unload(lib: ctypes.CDLL) -> None:
    """dlcloses `lib`. Nothing from it may be used afterwards: not its functions, not a handle
    or a byte string it handed out."""
    import _ctypes  # CPython's own: ctypes has no public unloading

    _ctypes.dlclose(lib._handle)


def failed(lib: ctypes.CDLL, message: int, err: Exception) -> int:
    """What a callback answers for `err`: CALLBACK_STATUS_ERROR, with the text of `err` (of any
    length) as the message the chain's error carries."""
    text = str(err).encode()
    lib.agentsmd_message_set(message, text, len(text))
    return CALLBACK_STATUS_ERROR


def check(lib: ctypes.CDLL, status: int, error: c_void_p) -> None:
    """Raises AgentsmdError for a failed call, freeing the library's error."""
    if status == STATUS_OK:
        return
    try:
        message = lib.agentsmd_error_message(error).decode("utf-8", "replace")
        raise AgentsmdError(status, message, lib.agentsmd_error_os_code(error))
    finally:
        lib.agentsmd_error_free(error)


def instructions(
    lib: ctypes.CDLL, path: bytes, root: bytes = b"", names=(b"AGENTS.md",)
) -> bytes:
    """The prompt text for `path`: the chain's rendering, with everything freed."""
    error = c_void_p()
    options = lib.agentsmd_options_new()
    if not options:
        raise MemoryError("agentsmd_options_new")
    result, buffer = c_void_p(), c_void_p()
    try:
        array = (Bytes * len(names))(*(Bytes.of(name) for name in names))
        check(lib, lib.agentsmd_options_set_names(options, array, len(names), error), error)
        check(lib, lib.agentsmd_options_set_root(options, root, len(root), error), error)
        check(lib, lib.agentsmd_chain(path, len(path), options, result, error), error)
        check(lib, lib.agentsmd_result_render(result, buffer, error), error)
        return ctypes.string_at(lib.agentsmd_buffer_data(buffer), lib.agentsmd_buffer_len(buffer))
    finally:
        lib.agentsmd_buffer_free(buffer)
        lib.agentsmd_result_free(result)
        lib.agentsmd_options_free(options)


def _bytes_array(items):
    """A ctypes array of agentsmd_bytes borrowing `items` (kept alive by the array)."""
    items = list(items)
    return (Bytes * max(len(items), 1))(*(Bytes.of(item) for item in items)), len(items)


def chain(
    lib: ctypes.CDLL,
    path: bytes,
    root: bytes = b"",
    names=(b"AGENTS.md",),
    extra=(),
    fragments=(),
    overlays=(),
    imports: bool = False,
    import_depth: int = 0,
    max_imports: int = 0,
    nearest: bool = False,
    report: bool = False,
    env=None,
    transform=None,
) -> dict:
    """The chain at `path` as plain Python, with everything freed: a dict of `files`
    [(path, content, source)], `omitted` [(path, size, reason, by)], `imports`
    [(path, by, line, depth, size, duplicate)] and `probes` [(path, source, outcome)], the
    numbers being the SOURCE_/REASON_/OUTCOME_ values. The options are SPEC.md §5's: `env`, a
    dict of bytes to bytes, turns on the interpolator (never the process environment);
    `transform`, a function (path, content) -> bytes, runs on each file read, and an exception
    it raises is the chain's AgentsmdError of STATUS_FS with its text. Not both."""
    if env and transform is not None:
        raise ValueError("env and transform are one option of the library: set one")
    error = c_void_p()
    options = lib.agentsmd_options_new()
    if not options:
        raise MemoryError("agentsmd_options_new")
    result = c_void_p()
    try:
        for setter, items in (
            (lib.agentsmd_options_set_names, names),
            (lib.agentsmd_options_set_extra, extra),
            (lib.agentsmd_options_set_fragments, fragments),
            (lib.agentsmd_options_set_overlays, overlays),
        ):
            array, count = _bytes_array(items)
            check(lib, setter(options, array, count, error), error)
        check(lib, lib.agentsmd_options_set_root(options, root, len(root), error), error)
        for setter, value in (
            (lib.agentsmd_options_set_imports, int(imports)),
            (lib.agentsmd_options_set_import_depth, import_depth),
            (lib.agentsmd_options_set_max_imports, max_imports),
            (lib.agentsmd_options_set_nearest, int(nearest)),
            (lib.agentsmd_options_set_report, int(report)),
        ):
            check(lib, setter(options, value, error), error)
        if env:
            keys, values = _bytes_array(env.keys()), _bytes_array(env.values())
            check(lib, lib.agentsmd_options_set_interpolator(
                options, keys[0], values[0], keys[1], error), error)
        if transform is not None:

            def call(_userdata, p, p_len, content, content_len, out, message):
                try:
                    text = transform(ctypes.string_at(p, p_len),
                                     ctypes.string_at(content, content_len) if content_len else b"")
                    if lib.agentsmd_content_append(out, text, len(text)) != STATUS_OK:
                        raise ValueError("the library refused the transform's content")
                    return CALLBACK_STATUS_OK
                except Exception as err:  # it cannot cross C
                    return failed(lib, message, err)

            # Kept alive until the options are freed, below.
            callback = Transform(None, TransformFn(call), ReleaseFn())
            check(lib, lib.agentsmd_options_set_transform(options, callback, error), error)
        check(lib, lib.agentsmd_chain(path, len(path), options, result, error), error)
        out = {"files": [], "omitted": [], "imports": [], "probes": []}
        for i in range(lib.agentsmd_result_file_count(result)):
            f, source = File(), c_uint32()
            check(lib, lib.agentsmd_result_file(result, i, f, error), error)
            check(lib, lib.agentsmd_result_file_source(result, i, source, error), error)
            out["files"].append((f.path.value(), f.content.value(), source.value))
        for i in range(lib.agentsmd_result_omitted_count(result)):
            o = Omitted()
            check(lib, lib.agentsmd_result_omitted(result, i, o, error), error)
            out["omitted"].append((o.path.value(), o.size, o.reason, o.by.value()))
        for i in range(lib.agentsmd_result_import_count(result)):
            m = Import()
            check(lib, lib.agentsmd_result_import(result, i, m, error), error)
            out["imports"].append(
                (m.path.value(), m.by.value(), m.line, m.depth, m.size, bool(m.duplicate)))
        for i in range(lib.agentsmd_result_probe_count(result)):
            p = Probe()
            check(lib, lib.agentsmd_result_probe(result, i, p, error), error)
            out["probes"].append((p.path.value(), p.source, p.outcome))
        return out
    finally:
        lib.agentsmd_result_free(result)
        lib.agentsmd_options_free(options)
