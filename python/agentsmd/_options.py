"""The options of the calls, checked and turned into the dict the extension module reads
(python/src/options.rs): paths and names as bytes, defaults as ``None``. As in every binding,
``None``, ``0``, ``""`` and ``[]`` are each an option's default (``budget=0`` is no budget,
``max_bytes=0`` is 1 MiB). A value of the wrong type is a :class:`TypeError`; a value of the
right type the library refuses is an :class:`agentsmd.InvalidArgumentError`."""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ._errors import InvalidArgumentError
from ._fs import FileSystem, _Adapter

PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
"""A path the package takes: text, the OS's bytes, or a path object."""

RuleDir = Tuple[str, Union[str, bytes]]
"""A rule directory (SPEC.md §11): ``(dialect, dir)``, the dialect one of ``claude``,
``cursor``, ``copilot``, ``windsurf``, ``kiro``, ``cline``, the directory one or more
``/``-separated path elements (``.cursor/rules``)."""

Transform = Callable[[str, bytes], Union[bytes, str]]
"""A transform (SPEC.md §5.5): given a file's path and its content after imports are expanded,
answers the content to use."""

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_U64 = 1 << 64
_U32 = 1 << 32


def path_bytes(value: object, what: str) -> bytes:
    """``value`` (a path) as bytes: :func:`os.fsencode` of text or a path object."""
    if isinstance(value, (str, bytes, os.PathLike)):
        encoded = os.fsencode(value)
        if isinstance(encoded, bytes):
            return encoded
    raise TypeError(f"{what}: expected a str, bytes or os.PathLike, not {type(value).__name__}")


def _paths(value: object, what: str) -> List[bytes]:
    if value is None:
        return []
    if isinstance(value, (str, bytes, os.PathLike)) or not isinstance(value, Sequence):
        raise TypeError(f"{what}: expected a list of paths, not {type(value).__name__}")
    return [path_bytes(item, f"{what}[{i}]") for i, item in enumerate(value)]


def _rules(value: object) -> List[Tuple[str, bytes]]:
    if value is None:
        return []
    if isinstance(value, (str, bytes, os.PathLike)) or not isinstance(value, Sequence):
        raise TypeError(
            f"rules: expected a list of (dialect, dir) pairs, not {type(value).__name__}"
        )
    pairs = []
    for i, item in enumerate(value):
        if not isinstance(item, tuple) or len(item) != 2:
            raise TypeError(f"rules[{i}]: expected a (dialect, dir) pair")
        dialect, dir = item
        if not isinstance(dialect, str):
            raise TypeError(f"rules[{i}][0]: expected a str, not {type(dialect).__name__}")
        pairs.append((dialect, path_bytes(dir, f"rules[{i}][1]")))
    return pairs


def _number(value: object, what: str, end: int) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what}: expected an int, not {type(value).__name__}")
    if value < 0 or value >= end:
        raise InvalidArgumentError(f"{what}: {value} is not within 0..{end - 1}")
    return value or None


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{what}: expected a bool, not {type(value).__name__}")
    return value


def _env(value: Optional[Mapping[str, Union[str, bytes]]]) -> Optional[Dict[str, bytes]]:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"env: expected a mapping, not {type(value).__name__}")
    env: Dict[str, bytes] = {}
    for name, text in value.items():
        if not isinstance(name, str) or not _ENV_NAME.match(name):
            raise InvalidArgumentError(f"env: {name!r}: a NAME must match [A-Za-z_][A-Za-z0-9_]*")
        if isinstance(text, str):
            env[name] = text.encode("utf-8", "surrogateescape")
        elif isinstance(text, bytes):
            env[name] = text
        else:
            raise TypeError(f"env[{name!r}]: expected a str or bytes, not {type(text).__name__}")
    return env or None


def _transform(value: Optional[Transform]) -> Optional[Callable[[bytes, bytes], bytes]]:
    if value is None:
        return None
    if not callable(value):
        raise TypeError(f"transform: expected a function, not {type(value).__name__}")
    user = value

    def transform(path: bytes, content: bytes) -> bytes:
        answer = user(os.fsdecode(path), content)
        if isinstance(answer, str):
            return answer.encode("utf-8", "surrogateescape")
        if isinstance(answer, (bytes, bytearray, memoryview)):
            return bytes(answer)
        raise TypeError(f"transform: answered {type(answer).__name__}; it answers bytes or a str")

    return transform


def options(
    *,
    names: Optional[Sequence[Union[str, bytes]]] = None,
    root: Optional[PathArg] = None,
    extra: Optional[Sequence[PathArg]] = None,
    max_bytes: Optional[int] = None,
    budget: Optional[int] = None,
    rendered_budget: Optional[int] = None,
    confine: bool = False,
    fs: Optional[FileSystem] = None,
    fragments: Optional[Sequence[Union[str, bytes]]] = None,
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
    skills: Optional[Sequence[Union[str, bytes]]] = None,
) -> Dict[str, Any]:
    """The dict of the extension module for these options."""
    overlay_dirs = _paths(overlays, "overlays")
    for i, overlay in enumerate(overlay_dirs):
        if not overlay:
            raise InvalidArgumentError(
                f"overlays[{i}]: an empty path names no overlay directory"
            )
    adapter = None if fs is None else _Adapter(fs)
    env_values = _env(env)
    transform_function = _transform(transform)
    if env_values is not None and transform_function is not None:
        raise InvalidArgumentError(
            "env and transform are both given: the interpolator is a transform, and a chain "
            "has one; give one"
        )
    root_bytes = None if root is None else path_bytes(root, "root")
    if preset is not None and not isinstance(preset, str):
        raise TypeError(f"preset: expected a str, not {type(preset).__name__}")
    home_bytes = None if home is None else path_bytes(home, "home")
    return {
        "names": _paths(names, "names"),
        "root": root_bytes or None,
        "extra": _paths(extra, "extra"),
        "max_bytes": _number(max_bytes, "max_bytes", _U64),
        "budget": _number(budget, "budget", _U64),
        "rendered_budget": _number(rendered_budget, "rendered_budget", _U64),
        "confine": _flag(confine, "confine"),
        "fs": adapter,
        "batches": (False, False) if adapter is None else adapter.batches,
        "fragments": _paths(fragments, "fragments"),
        "overlays": overlay_dirs,
        "imports": _flag(imports, "imports"),
        "import_depth": _number(import_depth, "import_depth", _U32) or 0,
        "max_imports": _number(max_imports, "max_imports", _U32) or 0,
        "env": env_values,
        "transform": transform_function,
        "nearest": _flag(nearest, "nearest"),
        "all_names": _flag(all_names, "all_names"),
        "report": _flag(report, "report"),
        "rules": _rules(rules),
        "preset": preset or None,
        "home": home_bytes or None,
        "skills": None if skills is None else _paths(skills, "skills"),
    }
