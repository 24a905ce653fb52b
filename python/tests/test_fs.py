"""A custom file system (SPEC.md §3): the FileSystem protocol, batches, and its failures."""

from __future__ import annotations

from typing import Optional, Sequence

import pytest

import agentsmd
from agentsmd import EntryKind, Source, Stat
from memory_fs import BatchMemoryFs, MemoryFs

FILES = {"AGENTS.md": b"root\n", "a/AGENTS.md": b"a\n", "a/b/keep.txt": b""}


def test_chain_over_a_custom_file_system() -> None:
    fs = MemoryFs(dict(FILES))
    result = agentsmd.chain("a/b/main.py", fs=fs)
    assert [(f.path, f.content, f.source) for f in result.files] == [
        ("AGENTS.md", b"root\n", Source.CHAIN),
        ("a/AGENTS.md", b"a\n", Source.CHAIN),
    ]
    assert agentsmd.render(result.files).startswith(
        '<project_context>\n<project_instructions path="AGENTS.md">'
    )


def test_root_is_a_name_in_the_file_system() -> None:
    result = agentsmd.chain("a/b", fs=MemoryFs(dict(FILES)), root="a")
    assert [f.path for f in result.files] == ["a/AGENTS.md"]


def test_invalid_names_are_refused() -> None:
    with pytest.raises(agentsmd.InvalidArgumentError):
        agentsmd.chain("/abs", fs=MemoryFs({}))
    with pytest.raises(agentsmd.InvalidArgumentError):
        agentsmd.chain("../up", fs=MemoryFs({}))


def test_batches_ask_once_per_kind() -> None:
    fs = BatchMemoryFs(dict(FILES))
    result = agentsmd.chain("a/b/main.py", fs=fs)
    assert [f.content for f in result.files] == [b"root\n", b"a\n"]
    assert [call[0] for call in fs.calls] == ["read_dirs", "read_files"]
    single = agentsmd.chain("a/b/main.py", fs=MemoryFs(dict(FILES)))
    assert single == result


def test_file_not_found_error_is_not_found() -> None:
    class Raising(MemoryFs):
        def read(self, name: str, limit: int) -> Optional[bytes]:
            raise FileNotFoundError(name)

    result = agentsmd.chain(".", fs=Raising(dict(FILES)))
    assert result.files == ()


def test_an_exception_is_the_chains_fs_error_with_it_as_cause() -> None:
    class Denied(MemoryFs):
        def list(self, dir: str) -> Optional[Sequence[str]]:
            raise PermissionError(13, "denied by policy", dir)

    with pytest.raises(agentsmd.FsError) as caught:
        agentsmd.chain("a/b", fs=Denied(dict(FILES)))
    assert "denied by policy" in str(caught.value)
    assert isinstance(caught.value.__cause__, PermissionError)
    assert caught.value.kind is agentsmd.ErrorKind.FS


def test_a_wrong_answer_is_an_fs_error() -> None:
    class Wrong(MemoryFs):
        def stat(self, name: str) -> Optional[Stat]:
            return "file"  # type: ignore[return-value]

    with pytest.raises(agentsmd.FsError, match="Stat") as caught:
        agentsmd.chain("a/b", fs=Wrong(dict(FILES)))
    assert isinstance(caught.value.__cause__, TypeError)


def test_a_listed_name_must_be_one_element() -> None:
    class Slash(MemoryFs):
        def list(self, dir: str) -> Optional[Sequence[str]]:
            return ["x/AGENTS.md"]

    with pytest.raises(agentsmd.FsError, match="one path element"):
        agentsmd.chain(".", fs=Slash({}))


def test_read_is_given_the_limit_and_more_is_too_large() -> None:
    limits = []

    class Big(MemoryFs):
        def read(self, name: str, limit: int) -> Optional[bytes]:
            limits.append(limit)
            return b"x" * 100

    with pytest.raises(agentsmd.TooLargeError) as caught:
        agentsmd.chain(".", fs=Big({"AGENTS.md": b"x" * 100}), max_bytes=10)
    assert limits == [11]
    assert caught.value.path == "AGENTS.md"


def test_an_object_without_the_methods_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="list"):
        agentsmd.chain(".", fs=object())  # type: ignore[arg-type]


def test_stat_kinds_by_word_too() -> None:
    class Words(MemoryFs):
        def stat(self, name: str) -> Optional[Stat]:
            stat = super().stat(name)
            return None if stat is None else Stat(stat.kind.value, stat.size)  # type: ignore[arg-type]

    assert len(agentsmd.chain("a", fs=Words(dict(FILES))).files) == 2
    assert EntryKind("file") is EntryKind.FILE


def test_callbacks_from_many_threads() -> None:
    import threading

    fs = MemoryFs(dict(FILES))
    expected = agentsmd.chain("a/b", fs=fs)
    results = []

    def work() -> None:
        for _ in range(25):
            results.append(agentsmd.chain("a/b", fs=fs))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 100 and all(r == expected for r in results)
