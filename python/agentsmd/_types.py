"""The results of :func:`agentsmd.chain` and the structure API: frozen dataclasses, and the
words of SPEC.md (sources, reasons, outcomes) as enums whose values are those words.

Paths are ``str``: the OS path's bytes decoded by :func:`os.fsdecode`, so that a path that is
not valid text keeps its bytes as lone surrogates (PEP 383) and names the same file when given
back; each ``path_bytes`` property gives the bytes (:func:`os.fsencode`). With a custom file
system, a path is the name in it, by the same rule.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from typing import Optional, Tuple

from . import _agentsmd


class Source(str, enum.Enum):
    """Where a file of the result comes from (SPEC.md §5.1, §11)."""

    EXTRA = "extra"
    CHAIN = "chain"
    FRAGMENT = "fragment"
    OVERLAY = "overlay"
    RULE = "rule"


class Reason(str, enum.Enum):
    """Why a file found was left out: the words of the command line's ``--json`` (§7)."""

    OVER_BUDGET = "over_budget"
    SHADOWED = "shadowed"
    ESCAPES = "escapes"
    DUPLICATE = "duplicate"
    SUPERSEDED = "superseded"
    EMPTY = "empty"
    TRUNCATED = "truncated"


class Outcome(str, enum.Enum):
    """What a probe found (SPEC.md §5.7, §11, §12)."""

    INCLUDED = "included"
    SHADOWED = "shadowed"
    OVER_BUDGET = "over_budget"
    SUPERSEDED = "superseded"
    DUPLICATE = "duplicate"
    ESCAPES = "escapes"
    NOT_FOUND = "not_found"
    NOT_A_FILE = "not_a_file"
    LISTED = "listed"
    IMPORTED = "imported"
    NOT_MATCHED = "not_matched"
    AVAILABLE = "available"
    EMPTY = "empty"
    TRUNCATED = "truncated"


class SkillSource(str, enum.Enum):
    """Where a resolved skill's text came from (SPEC.md §6.2)."""

    INLINE = "inline"
    FILE = "file"


@dataclass(frozen=True)
class File:
    """One instruction file of the result."""

    path: str
    """Its absolute OS path, or its name in the custom file system."""
    content: bytes
    """Its bytes, as read (imports expanded, transformed)."""
    source: Source

    @property
    def path_bytes(self) -> bytes:
        """``path`` as bytes."""
        return os.fsencode(self.path)

    @property
    def text(self) -> str:
        """``content`` decoded as UTF-8, bytes that are not UTF-8 as lone surrogates."""
        return self.content.decode("utf-8", "surrogateescape")


@dataclass(frozen=True)
class Omitted:
    """A file found and left out."""

    path: str
    """Its path, the stable key of the file."""
    size: int
    """The bytes read, for a file read and then left over budget; 0 for ``ESCAPES``; else the
    size the file system reported."""
    reason: Reason
    by: Optional[str]
    """The file that took its place (``SHADOWED``, ``SUPERSEDED``, ``DUPLICATE``), else ``None``."""

    @property
    def path_bytes(self) -> bytes:
        """``path`` as bytes."""
        return os.fsencode(self.path)


@dataclass(frozen=True)
class Import:
    """One import directive expanded (SPEC.md §5.4)."""

    path: str
    """The target."""
    by: str
    """The file holding the directive."""
    line: int
    """The directive's line in ``by``, 1-based."""
    depth: int
    """The target's depth: 1 for a directive of a file of the result."""
    size: int
    """The bytes read from the target; 0 for a duplicate."""
    duplicate: bool
    """The target was already in the result, so the directive expanded to nothing."""

    @property
    def path_bytes(self) -> bytes:
        """``path`` as bytes."""
        return os.fsencode(self.path)


@dataclass(frozen=True)
class Probe:
    """One place looked at (SPEC.md §5.7)."""

    path: str
    source: Source
    outcome: Outcome

    @property
    def path_bytes(self) -> bytes:
        """``path`` as bytes."""
        return os.fsencode(self.path)


@dataclass(frozen=True)
class Available:
    """A rule that applies only on request (SPEC.md §11), which a product can offer the model
    or the user, and give with ``extra``."""

    path: str
    """The rule file's path."""
    name: str
    """Its file name without the dialect's suffix."""
    description: str
    """Its front matter's ``description``; ``""`` when it has none."""

    @property
    def path_bytes(self) -> bytes:
        """``path`` as bytes."""
        return os.fsencode(self.path)


@dataclass(frozen=True)
class Result:
    """What :func:`agentsmd.chain` found: the fields of the command line's ``--json``."""

    files: Tuple[File, ...]
    """The files that apply, in order: ``extra``, then root to the path's directory (nearest
    last), then the overlays."""
    omitted: Tuple[Omitted, ...]
    """Every file found and left out, in the order met."""
    imports: Tuple[Import, ...] = ()
    """With ``imports=True``: each directive expanded into a file of the result, in order."""
    probes: Tuple[Probe, ...] = ()
    """With ``report=True``: every place looked at, in order."""
    available: Tuple[Available, ...] = ()
    """With ``rules``: the rules that apply only on request, in order (SPEC.md §11)."""
    warnings: Tuple[str, ...] = ()
    """With ``rules``: what a rule file could not be read as, each ``PATH: message``."""
    rendered: Optional[str] = None
    """With ``preset``: the piece of what the product sends its model that holds ``files``
    (SPEC.md §12), exactly what ``agentsmd PATH --as NAME`` prints (``""`` when it loads
    nothing), as :func:`agentsmd.render` gives text; ``None`` without a preset and for a
    session's touch."""


@dataclass(frozen=True)
class Skill:
    """A requested skill that resolved."""

    name: str
    source: SkillSource


@dataclass(frozen=True)
class Document:
    """One parsed instruction file (SPEC.md §6): the fields of ``agentsmd structure --json``.
    What :func:`agentsmd.block` renders stays in the library, out of sight."""

    requested: Tuple[str, ...]
    """The skill names requested (the ``skills`` option, else the front matter's), repeats
    removed."""
    skills: Tuple[Skill, ...]
    """The requested skills that resolved, in request order."""
    unknown: Tuple[str, ...]
    """The requested names that nothing defines: reported, not an error."""
    warnings: Tuple[str, ...]
    """What was not what it looked like, said rather than failed on (``line N: …``)."""
    _parsed: _agentsmd.Parsed = field(repr=False, compare=False)


@dataclass(frozen=True)
class Dropped:
    """A unit the block left out."""

    title: str
    """A section's title, ``(preamble)`` or ``skill: NAME``."""
    bytes: int
    """Its rendered length."""


@dataclass(frozen=True)
class Block:
    """A bounded rendering (SPEC.md §6.3)."""

    block: str
    """The text to put in the prompt; ``""`` when the document has no section and resolved no
    skill."""
    cap: int
    """The cap in force."""
    dropped: Tuple[Dropped, ...]
    """The units left out, in order."""

    @property
    def block_bytes(self) -> bytes:
        """``block`` as the library's bytes."""
        return self.block.encode("utf-8", "surrogateescape")
