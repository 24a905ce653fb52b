"""The exceptions of the package: one class per kind of failure (SPEC.md §4), all under
:class:`Error`, so that ``except agentsmd.Error`` catches everything the package raises for a
failed call, and ``except agentsmd.TooLargeError`` one kind of it."""

from __future__ import annotations

import enum
import os
from typing import ClassVar, Dict, Optional, Type


class ErrorKind(str, enum.Enum):
    """What failed: the kinds of SPEC.md §4, spelled as every binding spells them."""

    INVALID_ARGUMENT = "InvalidArgument"
    TOO_LARGE = "TooLarge"
    IO = "Io"
    FS = "Fs"
    IMPORT = "Import"
    PANIC = "Panic"


class Error(Exception):
    """Every failure of a call of the package.

    ``message`` names the path where there is one (its bytes that are not UTF-8 as lone
    surrogates, as :func:`os.fsdecode` gives them); ``path`` is the path the failure concerns,
    or ``None`` (for a failure met expanding an import, the file holding the directive, and
    ``line`` the directive's line, 1-based); ``errno`` is the OS error number beneath an
    :class:`IoError` (and an :class:`ImportDirectiveError` whose target the OS could not read),
    as :class:`OSError` has it. A failure that a custom file system's or a transform's exception
    led to has that exception as its ``__cause__``.
    """

    kind: ClassVar[ErrorKind]

    def __init__(
        self,
        message: str,
        *,
        path: Optional[str] = None,
        line: Optional[int] = None,
        errno: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.errno = errno

    @property
    def path_bytes(self) -> Optional[bytes]:
        """``path`` as the bytes the OS knows it by (:func:`os.fsencode`)."""
        return None if self.path is None else os.fsencode(self.path)


class InvalidArgumentError(Error, ValueError):
    """A bad argument or option: a name that is not one path element, a path outside ``root``,
    an invalid name of a custom file system, confinement to ``/``, an ``extra`` that is no
    regular file. (An argument of the wrong type is a :class:`TypeError`, as in Python.)"""

    kind = ErrorKind.INVALID_ARGUMENT


class TooLargeError(Error):
    """A file read more than ``max_bytes``; ``path`` is the file."""

    kind = ErrorKind.TOO_LARGE


class IoError(Error):
    """The OS failed (``errno`` says how), or memory could not be had (``errno.ENOMEM``)."""

    kind = ErrorKind.IO


class FsError(Error):
    """A custom file system's callback or a transform raised (the exception is the
    ``__cause__``), or answered what it may not."""

    kind = ErrorKind.FS


class ImportDirectiveError(Error):
    """An import directive could not be expanded (SPEC.md §5.4); the message starts
    ``PATH:LINE: `` and ``path``/``line`` are the directive's."""

    kind = ErrorKind.IMPORT


class PanicError(Error):
    """A bug in the library, caught before it could reach the interpreter."""

    kind = ErrorKind.PANIC


_CLASSES: Dict[str, Type[Error]] = {
    cls.kind.value: cls
    for cls in (
        InvalidArgumentError,
        TooLargeError,
        IoError,
        FsError,
        ImportDirectiveError,
        PanicError,
    )
}


def _from_core(
    kind: str,
    message: bytes,
    path: Optional[bytes],
    line: Optional[int],
    os_code: Optional[int],
) -> Error:
    """The exception of a failure of the extension module (which calls this)."""
    cls = _CLASSES.get(kind, Error)
    return cls(
        message.decode("utf-8", "surrogateescape"),
        path=None if path is None else os.fsdecode(path),
        line=line,
        errno=os_code,
    )
