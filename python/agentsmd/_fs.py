"""A custom file system (SPEC.md §3): the :class:`FileSystem` protocol a caller implements, and
the adapter that puts the caller's object in front of the library.

Names are ``str``, ``/``-separated and relative, ``.`` for the root, as Go's ``fs.ValidPath``
has them; a name's bytes that are not UTF-8 are lone surrogates (:func:`os.fsdecode`). A method
answers ``None`` (or raises :class:`FileNotFoundError`) for "not found", which alone means "no
file"; any other exception is the chain's :class:`agentsmd.FsError`, with the exception as its
``__cause__``.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass
from typing import Callable, List, Optional, Protocol, Sequence, Tuple, TypeVar, Union


class EntryKind(str, enum.Enum):
    """What a name is, following links."""

    FILE = "file"
    """A regular file: the only kind that can be an instruction file."""
    DIR = "dir"
    OTHER = "other"
    """Anything else: a FIFO, a socket, a device, a link that dangles or loops."""
    LINK = "link"
    """In a :meth:`BatchFileSystem.read_dirs` listing only: a symbolic link whose target the
    listing does not say; the library asks :meth:`FileSystem.stat` when it needs to know."""


@dataclass(frozen=True)
class Stat:
    """What :meth:`FileSystem.stat` answers: the kind of the name and, for a file, its size."""

    kind: EntryKind
    size: int = 0


@dataclass(frozen=True)
class DirEntry:
    """One entry of a :meth:`BatchFileSystem.read_dirs` listing: its name (one path element) and
    what it is, as :meth:`FileSystem.stat` would answer — ``None`` (or ``LINK``) where the
    listing does not say."""

    name: Union[str, bytes]
    kind: Optional[EntryKind] = None
    size: int = 0


class FileSystem(Protocol):
    """A file system the chain reads instead of the OS's (``fs=``): the three questions the
    library asks, and nothing else."""

    def list(self, dir: str) -> Optional[Sequence[Union[str, bytes]]]:
        """The names ``dir`` lists, in any order; ``None`` if there is no such directory."""
        ...

    def stat(self, name: str) -> Optional[Stat]:
        """What ``name`` is, following links; ``None`` if nothing has that name."""
        ...

    def read(self, name: str, limit: int) -> Optional[bytes]:
        """The bytes of the file ``name``; the library uses at most ``limit`` of them
        (``max_bytes + 1``), so a reader need not read more. ``None`` if not found."""
        ...


class BatchFileSystem(FileSystem, Protocol):
    """A file system where one call costs about as much as many questions (one across a
    network): the chain then asks in batches (SPEC.md §3.1) — one :meth:`read_dirs` for every
    directory it lists, one :meth:`read_files` for the files it reads (under a budget, a new one
    wherever the files read so far decide whether the next fits), one more per level of
    imports. A listing names everything in its directory. The result is the one the single
    questions give. An object may have either method alone (the other questions are then asked
    one name at a time); each answers one element per name, in order."""

    def read_dirs(self, names: Sequence[str]) -> Sequence[Optional[Sequence[DirEntry]]]:
        """Per name, its entries, or ``None`` where there is no such directory."""
        ...

    def read_files(self, names: Sequence[str], limit: int) -> Sequence[Optional[bytes]]:
        """Per name, its bytes (at most ``limit`` used), or ``None`` where it is not found or
        is no regular file."""
        ...


T = TypeVar("T")

_KINDS = {kind.value: kind for kind in EntryKind}


def _kind(value: object, what: str) -> EntryKind:
    if isinstance(value, EntryKind):
        return value
    if isinstance(value, str) and value in _KINDS:
        return _KINDS[value]
    raise TypeError(f"{what}: kind {value!r} is not an EntryKind")


def _size(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value >= 1 << 64:
        raise TypeError(f"{what}: size {value!r} is not a whole number of bytes")
    return value


def _name(value: object, what: str) -> bytes:
    if isinstance(value, str):
        return os.fsencode(value)
    if isinstance(value, bytes):
        return value
    raise TypeError(f"{what}: a name is a str or bytes, not {type(value).__name__}")


def _bytes(value: object, what: str) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what}: answered {type(value).__name__}; it answers bytes or None")


def _sequence(value: object, what: str) -> Sequence[object]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, Sequence)):
        raise TypeError(f"{what}: answered {type(value).__name__}; it answers a list")
    return value


def _found(question: Callable[[], Optional[T]]) -> Optional[T]:
    """The answer of ``question``, ``None`` where it raised :class:`FileNotFoundError`."""
    try:
        return question()
    except FileNotFoundError:
        return None


class _Adapter:
    """The caller's file system as the extension module asks it: bytes in and out, each answer
    checked (a wrong one is a :class:`TypeError`, which the chain reports as its ``FsError``)."""

    def __init__(self, fs: FileSystem) -> None:
        for method in ("list", "stat", "read"):
            if not callable(getattr(fs, method, None)):
                raise TypeError(f"fs: has no method {method}(); see agentsmd.FileSystem")
        self._fs = fs
        self.batches = (
            callable(getattr(fs, "read_dirs", None)),
            callable(getattr(fs, "read_files", None)),
        )

    def list(self, dir: bytes) -> Optional[List[bytes]]:
        names = _found(lambda: self._fs.list(os.fsdecode(dir)))
        if names is None:
            return None
        return [_name(name, "fs.list") for name in _sequence(names, "fs.list")]

    def stat(self, name: bytes) -> Optional[Tuple[str, int]]:
        stat = _found(lambda: self._fs.stat(os.fsdecode(name)))
        if stat is None:
            return None
        if not isinstance(stat, Stat):
            raise TypeError(f"fs.stat: answered {type(stat).__name__}; it answers a Stat or None")
        kind = _kind(stat.kind, "fs.stat")
        if kind is EntryKind.LINK:
            raise TypeError("fs.stat: kind LINK answers only in a read_dirs listing")
        return kind.value, _size(stat.size, "fs.stat")

    def read(self, name: bytes, limit: int) -> Optional[bytes]:
        content = _found(lambda: self._fs.read(os.fsdecode(name), limit))
        return None if content is None else _bytes(content, "fs.read")

    def read_dirs(
        self, names: List[bytes]
    ) -> List[Optional[List[Tuple[bytes, Optional[str], int]]]]:
        read_dirs = getattr(self._fs, "read_dirs")
        listings = _sequence(read_dirs([os.fsdecode(name) for name in names]), "fs.read_dirs")
        if len(listings) != len(names):
            raise TypeError(
                f"fs.read_dirs: answered {len(listings)} listings for {len(names)} names"
            )
        answer: List[Optional[List[Tuple[bytes, Optional[str], int]]]] = []
        for listing in listings:
            if listing is None:
                answer.append(None)
                continue
            entries = []
            for entry in _sequence(listing, "fs.read_dirs"):
                if not isinstance(entry, DirEntry):
                    raise TypeError(
                        f"fs.read_dirs: an entry is a {type(entry).__name__}, not a DirEntry"
                    )
                kind = None if entry.kind is None else _kind(entry.kind, "fs.read_dirs")
                if kind is EntryKind.FILE:
                    size = _size(entry.size, "fs.read_dirs")
                else:
                    size = 0
                entries.append(
                    (_name(entry.name, "fs.read_dirs"), None if kind is None else kind.value, size)
                )
            answer.append(entries)
        return answer

    def read_files(self, names: List[bytes], limit: int) -> List[Optional[bytes]]:
        read_files = getattr(self._fs, "read_files")
        contents = _sequence(
            read_files([os.fsdecode(name) for name in names], limit), "fs.read_files"
        )
        if len(contents) != len(names):
            raise TypeError(
                f"fs.read_files: answered {len(contents)} contents for {len(names)} names"
            )
        return [None if c is None else _bytes(c, "fs.read_files") for c in contents]
