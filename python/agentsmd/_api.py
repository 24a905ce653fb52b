"""The calls of the package: :func:`chain` and :func:`render` (SPEC.md §1, §2, §5),
:class:`Session` (§10), the structure API :func:`parse`, :func:`parse_text`,
:func:`parse_nearest` and :func:`block` (§6), and :func:`overlay_dir` (§5.3)."""

from __future__ import annotations

import os
from typing import Iterable, Mapping, Optional, Sequence, Tuple, Union

from . import _agentsmd
from ._fs import FileSystem
from ._options import PathArg, RuleDir, Transform, options, path_bytes
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

Names = Optional[Sequence[Union[str, bytes]]]


def chain(
    path: PathArg,
    *,
    names: Names = None,
    root: Optional[PathArg] = None,
    extra: Optional[Sequence[PathArg]] = None,
    max_bytes: Optional[int] = None,
    budget: Optional[int] = None,
    rendered_budget: Optional[int] = None,
    confine: bool = False,
    fs: Optional[FileSystem] = None,
    fragments: Names = None,
    overlays: Optional[Sequence[PathArg]] = None,
    imports: bool = False,
    import_depth: Optional[int] = None,
    max_imports: Optional[int] = None,
    env: Optional[Mapping[str, Union[str, bytes]]] = None,
    transform: Optional[Transform] = None,
    nearest: bool = False,
    all_names: bool = False,
    report: bool = False,
    rules: Optional[Sequence[RuleDir]] = None,
    preset: Optional[str] = None,
    home: Optional[PathArg] = None,
) -> Result:
    """The instruction files that apply at ``path`` (SPEC.md §1, §5): one per directory, from
    ``root`` down to ``path``'s directory, nearest last, bounded, with every file found and left
    out in ``omitted``. The GIL is released while the chain reads the OS.

    :param path: an OS path (made absolute and cleaned lexically), or a name in ``fs``.
    :param names: file names looked for in each directory, in order of preference; a name may
        be several ``/``-separated elements (``.claude/CLAUDE.md``, §9). Default
        ``["AGENTS.md"]``.
    :param root: the directory the walk stops after: an OS path, or a name in ``fs``. Default the
        file system's root (``/``, or ``.`` with ``fs``).
    :param extra: OS paths included before the chain, in order; missing ones are skipped.
    :param max_bytes: the most one file may read; more is a :class:`TooLargeError`. Default 1 MiB.
    :param budget: total bytes of the files returned; the first file over it, and every later
        one, are omitted ``OVER_BUDGET``. Default none.
    :param rendered_budget: total bytes of :func:`render`'s output, spent as ``budget`` is.
    :param confine: open nothing outside ``root`` (OS only): a link leading out is omitted
        ``ESCAPES``. A root of ``/`` is an :class:`InvalidArgumentError`.
    :param fs: a custom file system (:class:`FileSystem`); ``path`` and ``root`` are names in it.
    :param fragments: directories relative to each directory of the walk (``.agents/AGENTS.d``)
        whose ``.md`` files follow the directory's own file (§5.2).
    :param overlays: OS directories looked up after the walk, each as one more directory (§5.3).
    :param imports: expand ``@include P`` and ``@P`` directives (§5.4), listed in ``imports``.
    :param import_depth: how deep imports may nest. Default 5.
    :param max_imports: the most import reads of one chain. Default 64.
    :param env: the interpolator (§5.5): each ``${env:NAME}`` whose NAME is a key is replaced by
        its value. It never reads the process environment. Not with ``transform``.
    :param transform: given each file read, with its path and content after imports, answers
        the content to use (§5.5); an exception is the chain's :class:`FsError`.
    :param nearest: of the directories' files, only the nearest is included; the others are
        omitted ``SUPERSEDED`` (§5.6).
    :param all_names: every name of ``names`` a directory has is included, in ``names`` order,
        none shadowing another (§9).
    :param report: list every place looked at in ``probes`` (§5.7).
    :param rules: rule directories, ``(dialect, dir)`` pairs such as
        ``("cursor", ".cursor/rules")`` (§11): each directory's rules that apply always, or by
        a glob that ``path`` matches, follow its file and fragments (source ``RULE``); those
        that apply on request are listed in ``available``; what a rule file could not be read
        as is in ``warnings``. An unknown dialect is an :class:`InvalidArgumentError`.
    :param preset: a product (``"codex"``, ``"claude"``, … as ``agentsmd --as list`` names
        them) whose loading the chain reproduces at its pinned version (§12): the files it
        loads, in its order and with its text, every file it drops, cuts or leaves unread in
        ``omitted`` (``EMPTY``, ``TRUNCATED``, …), and in ``rendered`` the piece of what it sends
        its model that holds them. The product finds its own root; ``root``, when given, is that
        root. An unknown name is an :class:`InvalidArgumentError`.
    :param home: the home directory a preset reads the product's global files in
        (``~/.codex/AGENTS.md``, …); with it, no environment variable is read. Default the
        caller's home and the product's environment variables.
    :raises Error: of the kind that failed.
    """
    call = options(
        names=names, root=root, extra=extra, max_bytes=max_bytes, budget=budget,
        rendered_budget=rendered_budget, confine=confine, fs=fs, fragments=fragments,
        overlays=overlays, imports=imports, import_depth=import_depth,
        max_imports=max_imports, env=env, transform=transform, nearest=nearest,
        all_names=all_names, report=report, rules=rules, preset=preset, home=home,
    )
    return _result(_agentsmd.chain(path_bytes(path, "path"), call))


def _result(rows: _agentsmd.Rows) -> Result:
    files, omitted, imported, probes, available, warnings, rendered = rows
    return Result(
        files=tuple(File(os.fsdecode(p), content, Source(s)) for p, content, s in files),
        omitted=tuple(
            Omitted(os.fsdecode(p), size, Reason(reason), None if by is None else os.fsdecode(by))
            for p, size, reason, by in omitted
        ),
        imports=tuple(
            Import(os.fsdecode(p), os.fsdecode(by), line, depth, size, duplicate)
            for p, by, line, depth, size, duplicate in imported
        ),
        probes=tuple(
            Probe(os.fsdecode(p), Source(s), Outcome(outcome)) for p, s, outcome in probes
        ),
        available=tuple(
            Available(os.fsdecode(p), name, description) for p, name, description in available
        ),
        warnings=tuple(warnings),
        rendered=None if rendered is None else _text(rendered),
    )


class Session:
    """A session (SPEC.md §10): what newly applies as an agent reads, edits, lists or creates
    paths. A product calls :meth:`touch` with each path its tools touch and appends the delta,
    rendered, to the tool's output. Each file is given once and each file left out reported
    once; the budgets bound the whole session; each directory is looked up once. A rule (§11)
    that applies always is given at the first touch that looks its directory up, one that
    applies by glob at the first touch whose path matches it.

    The options are :func:`chain`'s; ``nearest=True``, and a ``preset`` other than
    ``"claude"`` (whose loading is the library's own), are an :class:`InvalidArgumentError`. A
    custom ``fs`` and ``transform`` are kept, and asked, as long as the session lives. Threads
    may share a session: its touches take effect one at a time, the GIL released. As a context
    manager, it is closed at the end of the ``with`` block.
    """

    __slots__ = ("_session",)

    def __init__(
        self,
        *,
        names: Names = None,
        root: Optional[PathArg] = None,
        extra: Optional[Sequence[PathArg]] = None,
        max_bytes: Optional[int] = None,
        budget: Optional[int] = None,
        rendered_budget: Optional[int] = None,
        confine: bool = False,
        fs: Optional[FileSystem] = None,
        fragments: Names = None,
        overlays: Optional[Sequence[PathArg]] = None,
        imports: bool = False,
        import_depth: Optional[int] = None,
        max_imports: Optional[int] = None,
        env: Optional[Mapping[str, Union[str, bytes]]] = None,
        transform: Optional[Transform] = None,
        nearest: bool = False,
        all_names: bool = False,
        report: bool = False,
        rules: Optional[Sequence[RuleDir]] = None,
        preset: Optional[str] = None,
        home: Optional[PathArg] = None,
    ) -> None:
        call = options(
            names=names, root=root, extra=extra, max_bytes=max_bytes, budget=budget,
            rendered_budget=rendered_budget, confine=confine, fs=fs, fragments=fragments,
            overlays=overlays, imports=imports, import_depth=import_depth,
            max_imports=max_imports, env=env, transform=transform, nearest=nearest,
            all_names=all_names, report=report, rules=rules, preset=preset, home=home,
        )
        self._session = _agentsmd.Session(call)

    def touch(self, path: PathArg) -> Result:
        """What newly applies at ``path``, a file, a directory or a path about to be created:
        the files of ``chain(path, ...)`` this session has not given, in chain order, with what
        was found and left out (and the probes) that no earlier touch reported, and the rules
        on request of the directories it looked up first. The first touch answers exactly
        :func:`chain`'s result; a path outside ``root`` an empty one.

        :raises Error: of the kind that failed; the session is then as it was before the touch.
            After :meth:`close`, an :class:`InvalidArgumentError`.
        """
        return _result(self._session.touch(path_bytes(path, "path")))

    def close(self) -> None:
        """Ends the session and lets go of its ``fs`` and ``transform``; closing twice is
        allowed."""
        self._session.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()


Instruction = Union[File, Tuple[PathArg, Union[bytes, str]]]
"""What :func:`render` takes: a :class:`File` of a result, or a ``(path, content)`` pair of a
product's own (one whose path it rewrote)."""


def _pairs(files: Iterable[Instruction]) -> list[tuple[bytes, bytes]]:
    pairs = []
    for i, item in enumerate(files):
        if isinstance(item, File):
            path: object = item.path
            content: object = item.content
        elif isinstance(item, tuple) and len(item) == 2:
            path, content = item
        else:
            raise TypeError(f"files[{i}]: expected a File or a (path, content) pair")
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        if not isinstance(content, bytes):
            raise TypeError(f"files[{i}]: content is bytes or a str")
        pairs.append((path_bytes(path, f"files[{i}].path"), content))
    return pairs


def render_bytes(files: Iterable[Instruction]) -> bytes:
    """The rendering of ``files`` (SPEC.md §2), byte for byte what the command line prints:
    ``<project_context>``, one ``<project_instructions path="…">`` element per file with only
    ``&``, ``<``, ``>`` and ``"`` of the path escaped, the content verbatim. No files render as
    ``b""``."""
    return _agentsmd.render(_pairs(files))


def render(files: Iterable[Instruction]) -> str:
    """:func:`render_bytes` as text: bytes that are not UTF-8 are lone surrogates
    (``surrogateescape``), so ``render(files).encode("utf-8", "surrogateescape")`` is the
    rendering's bytes."""
    return render_bytes(files).decode("utf-8", "surrogateescape")


def overlay_dir(users_dir: PathArg, identity: Union[str, bytes]) -> Optional[str]:
    """Seed 003's per-caller overlay directory ``USERS_DIR/IDENTITY/.agents`` (SPEC.md §5.3), to
    give in ``overlays``; ``None`` when either argument is empty. An identity that is ``.`` or
    holds ``/``, ``\\``, a NUL or ``..`` is an :class:`InvalidArgumentError` whose message
    contains ``caller identity``."""
    found = _agentsmd.overlay_dir(path_bytes(users_dir, "users_dir"), path_bytes(identity, "identity"))
    return None if found is None else os.fsdecode(found)


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _document(parsed: _agentsmd.Parsed) -> Document:
    return Document(
        requested=tuple(_text(name) for name in parsed.requested),
        skills=tuple(Skill(_text(name), SkillSource(source)) for name, source in parsed.skills),
        unknown=tuple(_text(name) for name in parsed.unknown),
        warnings=tuple(parsed.warnings),
        _parsed=parsed,
    )


def parse(
    path: PathArg,
    *,
    skills: Names = None,
    root: Optional[PathArg] = None,
    max_bytes: Optional[int] = None,
    confine: bool = False,
    fs: Optional[FileSystem] = None,
) -> Document:
    """The file at ``path`` parsed (SPEC.md §6.1), its requested skills resolved (§6.2): each to
    its inline ``## Skill: NAME`` section, else to ``skills/NAME.md`` beside it, both read
    through ``fs`` (else the OS, beneath ``root`` when ``confine``), at most ``max_bytes`` each.
    ``skills`` requests names instead of the front matter's (``[]`` requests none). ``path``
    must be a regular file."""
    call = options(skills=skills, root=root, max_bytes=max_bytes, confine=confine, fs=fs)
    return _document(_agentsmd.parse(path_bytes(path, "path"), call))


def parse_text(
    text: Union[bytes, str],
    *,
    skills: Names = None,
) -> Document:
    """``text`` parsed (SPEC.md §6.1): text of no file, so only inline skills resolve.
    Malformed front matter is a warning, never an error."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogateescape")
    if not isinstance(text, bytes):
        raise TypeError(f"text: expected bytes or a str, not {type(text).__name__}")
    return _document(_agentsmd.parse_text(text, options(skills=skills)))


def parse_nearest(
    path: PathArg,
    *,
    skills: Names = None,
    names: Names = None,
    root: Optional[PathArg] = None,
    max_bytes: Optional[int] = None,
    budget: Optional[int] = None,
    rendered_budget: Optional[int] = None,
    confine: bool = False,
    fs: Optional[FileSystem] = None,
    fragments: Names = None,
    overlays: Optional[Sequence[PathArg]] = None,
    imports: bool = False,
    import_depth: Optional[int] = None,
    max_imports: Optional[int] = None,
    env: Optional[Mapping[str, Union[str, bytes]]] = None,
    transform: Optional[Transform] = None,
    all_names: bool = False,
) -> Optional[Document]:
    """The document of the nearest file of the chain at ``path`` (SPEC.md §6.5): :func:`chain`
    with ``nearest`` on, then :func:`parse` of its last file of source ``CHAIN``, its skills
    resolved beside it. ``None`` when no directory of the walk has a file, or the nearest one
    is over a budget."""
    call = options(
        skills=skills, names=names, root=root, max_bytes=max_bytes, budget=budget,
        rendered_budget=rendered_budget, confine=confine, fs=fs, fragments=fragments,
        overlays=overlays, imports=imports, import_depth=import_depth,
        max_imports=max_imports, env=env, transform=transform, all_names=all_names,
    )
    parsed = _agentsmd.parse_nearest(path_bytes(path, "path"), call)
    return None if parsed is None else _document(parsed)


def _optional_text(value: Optional[Union[str, bytes]], what: str) -> Optional[bytes]:
    if value is None or isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "surrogateescape")
    raise TypeError(f"{what}: expected a str, not {type(value).__name__}")


def block(
    doc: Document,
    *,
    cap: Optional[int] = None,
    heading: Optional[Union[str, bytes]] = None,
    preamble: Optional[Union[str, bytes]] = None,
    name: Optional[Union[str, bytes]] = None,
    where: Optional[Union[str, bytes]] = None,
) -> Block:
    """The bounded rendering of ``doc`` (SPEC.md §6.3): its body's sections, then its skills,
    kept whole while they fit ``cap`` (default 8192; under 2048 is raised to 2048), with one
    warning line saying what was dropped and where the full file is.

    :param heading: the first line; default ``# Repository Agent Instructions (AGENTS.md)``;
        ``""`` is kept as given.
    :param preamble: a paragraph after the heading; default none.
    :param name: the file's name in the warning; default the base name of the parsed file.
    :param where: where the full file is, in the warning; default the parsed file's path.
    :raises InvalidArgumentError: when the heading and preamble alone are longer than the cap.
    """
    if not isinstance(doc, Document):
        raise TypeError("doc: expected a Document from parse, parse_text or parse_nearest")
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int)):
        raise TypeError(f"cap: expected an int, not {type(cap).__name__}")
    if cap is not None and not 0 <= cap < 1 << 63:
        from ._errors import InvalidArgumentError

        raise InvalidArgumentError(f"cap: {cap} is not within 0..{(1 << 63) - 1}")
    text, cap_in_force, dropped = _agentsmd.block(
        doc._parsed,
        cap,
        _optional_text(heading, "heading"),
        _optional_text(preamble, "preamble"),
        _optional_text(name, "name"),
        _optional_text(where, "where"),
    )
    return Block(
        block=_text(text),
        cap=cap_in_force,
        dropped=tuple(Dropped(_text(title), size) for title, size in dropped),
    )
