"""Errors (SPEC.md §4): one class per kind under agentsmd.Error, with path, line and errno."""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import pytest

import agentsmd
from agentsmd import ErrorKind
from conftest import Tree


def test_the_hierarchy() -> None:
    classes = {
        agentsmd.InvalidArgumentError: ErrorKind.INVALID_ARGUMENT,
        agentsmd.TooLargeError: ErrorKind.TOO_LARGE,
        agentsmd.IoError: ErrorKind.IO,
        agentsmd.FsError: ErrorKind.FS,
        agentsmd.ImportDirectiveError: ErrorKind.IMPORT,
        agentsmd.PanicError: ErrorKind.PANIC,
    }
    for cls, kind in classes.items():
        assert issubclass(cls, agentsmd.Error) and cls.kind is kind
    assert issubclass(agentsmd.InvalidArgumentError, ValueError)
    assert {kind.value for kind in ErrorKind} == {
        "InvalidArgument", "TooLarge", "Io", "Fs", "Import", "Panic"
    }


def test_invalid_name(tree: Tree) -> None:
    root = tree({})
    with pytest.raises(agentsmd.InvalidArgumentError, match="not one path element") as caught:
        agentsmd.chain(root, root=root, names=["a//b"])
    assert caught.value.path is None and caught.value.errno is None


def test_path_outside_root(tree: Tree, tmp_path: Path) -> None:
    root = tree({})
    with pytest.raises(agentsmd.InvalidArgumentError):
        agentsmd.chain(tmp_path, root=root)


def test_too_large_names_the_file(tree: Tree) -> None:
    root = tree({"AGENTS.md": "x" * 100})
    with pytest.raises(agentsmd.TooLargeError) as caught:
        agentsmd.chain(root, root=root, max_bytes=99)
    error = caught.value
    assert error.path == str(root / "AGENTS.md")
    assert error.path_bytes == os.fsencode(root / "AGENTS.md")
    assert str(root / "AGENTS.md") in error.message == str(error)


@pytest.mark.skipif(sys.platform == "win32", reason="Unix's name limit")
def test_io_error_has_the_os_errno(tree: Tree) -> None:
    root = tree({})
    with pytest.raises(agentsmd.IoError) as caught:
        agentsmd.chain(root / ("n" * 300) / "x", root=root)
    assert caught.value.errno == errno.ENAMETOOLONG


def test_import_error_says_where_the_directive_is(tree: Tree) -> None:
    root = tree({"AGENTS.md": "one\n@missing.md\n"})
    with pytest.raises(agentsmd.ImportDirectiveError) as caught:
        agentsmd.chain(root, root=root, imports=True)
    error = caught.value
    assert error.path == str(root / "AGENTS.md") and error.line == 2
    assert error.message.startswith(f"{root / 'AGENTS.md'}:2: ")


def test_an_extra_that_is_a_directory(tree: Tree) -> None:
    root = tree({"dir/keep": ""})
    with pytest.raises(agentsmd.InvalidArgumentError):
        agentsmd.chain(root, root=root, extra=[root / "dir"])


def test_transform_exception_is_an_fs_error(tree: Tree) -> None:
    root = tree({"AGENTS.md": "x\n"})

    def fail(path: str, content: bytes) -> bytes:
        raise RuntimeError("no transform today")

    with pytest.raises(agentsmd.FsError, match="no transform today") as caught:
        agentsmd.chain(root, root=root, transform=fail)
    assert isinstance(caught.value.__cause__, RuntimeError)


def test_wrong_types_are_type_errors(tree: Tree) -> None:
    root = tree({})
    with pytest.raises(TypeError):
        agentsmd.chain(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        agentsmd.chain(root, names="AGENTS.md")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        agentsmd.chain(root, budget="10")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        agentsmd.chain(root, confine=1)  # type: ignore[arg-type]
    with pytest.raises(agentsmd.InvalidArgumentError):
        agentsmd.chain(root, budget=-1)
    with pytest.raises(agentsmd.InvalidArgumentError):
        agentsmd.chain(root, max_bytes=1 << 64)


def test_errors_pickle() -> None:
    import pickle

    error = agentsmd.TooLargeError("read /x: too large", path="/x")
    assert isinstance(pickle.loads(pickle.dumps(error)), agentsmd.TooLargeError)
