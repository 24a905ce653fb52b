"""agentsmd: the AGENTS.md convention for coding agents.

:func:`chain` finds the instruction files that apply at a path — one per directory, from a root
down to the path's directory, nearest last so the nearest wins — bounds them, and reports every
file it found and left out; :func:`render` turns them into the exact text a product puts in its
model's prompt::

    import agentsmd

    result = agentsmd.chain("src/main.py", root=".")
    print(agentsmd.render(result.files))

The package is the distribution ``agentsmd-loader``, a native extension on the library's Rust
core; SPEC.md in the repository is the behaviour of record, docs/python.md the reference.

**Paths** are taken as ``str``, ``bytes`` or :class:`os.PathLike`, and returned as ``str``
(:func:`os.fsdecode` of the OS's bytes: a path that is not valid text keeps its bytes as lone
surrogates); each result's ``path_bytes`` gives the bytes.

**Errors**: every failure of a call is an :class:`Error`, of the subclass of its kind.
"""

from ._agentsmd import (
    DEFAULT_CAP,
    DEFAULT_HEADING,
    DEFAULT_IMPORT_DEPTH,
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_IMPORTS,
    DEFAULT_NAME,
    MIN_CAP,
    PART_ID,
    VERSION,
)
from ._api import (
    Instruction,
    Session,
    block,
    chain,
    overlay_dir,
    parse,
    parse_nearest,
    parse_text,
    render,
    render_bytes,
)
from ._errors import (
    Error,
    ErrorKind,
    FsError,
    ImportDirectiveError,
    InvalidArgumentError,
    IoError,
    PanicError,
    TooLargeError,
)
from ._fs import BatchFileSystem, DirEntry, EntryKind, FileSystem, Stat
from ._options import PathArg, RuleDir, Transform
from ._types import (
    Available,
    Block,
    Document,
    Dropped,
    File,
    Import,
    Omitted,
    Outcome,
    Probe,
    Reason,
    Result,
    Skill,
    SkillSource,
    Source,
)

__version__ = VERSION

__all__ = [
    "DEFAULT_CAP",
    "DEFAULT_HEADING",
    "DEFAULT_IMPORT_DEPTH",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_IMPORTS",
    "DEFAULT_NAME",
    "MIN_CAP",
    "PART_ID",
    "Available",
    "BatchFileSystem",
    "Block",
    "DirEntry",
    "Document",
    "Dropped",
    "EntryKind",
    "Error",
    "ErrorKind",
    "File",
    "FileSystem",
    "FsError",
    "Import",
    "ImportDirectiveError",
    "Instruction",
    "InvalidArgumentError",
    "IoError",
    "Omitted",
    "Outcome",
    "PanicError",
    "PathArg",
    "Probe",
    "Reason",
    "Result",
    "RuleDir",
    "Session",
    "Skill",
    "SkillSource",
    "Source",
    "Stat",
    "TooLargeError",
    "Transform",
    "block",
    "chain",
    "overlay_dir",
    "parse",
    "parse_nearest",
    "parse_text",
    "render",
    "render_bytes",
]

# Every public class says it is agentsmd's, as a traceback or a repr shows it (and pickle finds
# it there), rather than naming the private module that defines it.
for _name in __all__:
    _value = globals()[_name]
    if isinstance(_value, type):
        _value.__module__ = __name__
del _name, _value
