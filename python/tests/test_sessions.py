"""Sessions (SPEC.md §10 and its fine points in §11.1): what newly applies as an agent touches
paths, given once, omitted once, within the session's budgets, each directory looked up once.
Each test is named after the section it pins."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
from pathlib import Path
from typing import List, Optional

import pytest

import agentsmd
from agentsmd import Reason, Result, Session
from conftest import Tree
from memory_fs import BatchMemoryFs, MemoryFs

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

REPOSITORY = {
    "AGENTS.md": "root\n",
    "a/AGENTS.md": "a\n",
    "a/b/AGENTS.md": "b\n",
    "a/b/main.py": "print()\n",
    "c/AGENTS.md": "c\n",
}


def contents(result: Result) -> List[bytes]:
    return [f.content for f in result.files]


def test_section_10_the_first_touch_is_the_chain_of_its_path(tree: Tree) -> None:
    root = tree(dict(REPOSITORY, **{"CLAUDE.md": "shadowed\n"}))
    names = ["AGENTS.md", "CLAUDE.md"]
    path = root / "a" / "b" / "main.py"
    first = Session(root=root, names=names, report=True).touch(path)
    assert first == agentsmd.chain(path, root=root, names=names, report=True)
    assert first.omitted and first.probes


def test_section_10_a_later_touch_gives_only_new_files_in_chain_order(tree: Tree) -> None:
    root = tree(REPOSITORY)
    session = Session(root=root)
    assert contents(session.touch(root / "a")) == [b"root\n", b"a\n"]
    assert contents(session.touch(root / "a" / "b" / "main.py")) == [b"b\n"]
    assert contents(session.touch(str(root / "c" / "new.py"))) == [b"c\n"]
    assert session.touch(root / "a" / "b" / "main.py") == Result((), (), (), ())
    assert session.touch(root / "a" / "b") == Result((), (), (), ())


def test_section_10_a_path_outside_root_gives_an_empty_delta(tree: Tree, tmp_path: Path) -> None:
    root = tree(REPOSITORY)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "AGENTS.md").write_text("outside\n")
    session = Session(root=root)
    assert session.touch(outside / "x.py") == Result((), (), (), ())
    assert contents(session.touch(root / "c")) == [b"root\n", b"c\n"]


def test_section_10_nearest_is_an_invalid_argument(tree: Tree) -> None:
    with pytest.raises(agentsmd.InvalidArgumentError, match="nearest"):
        Session(root=tree(REPOSITORY), nearest=True)


def test_section_10_invalid_options_fail_as_a_chain_does(tree: Tree) -> None:
    root = tree(REPOSITORY)
    with pytest.raises(TypeError):
        Session(root=root, names="AGENTS.md")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Session(root=root).touch(3)  # type: ignore[arg-type]
    session = Session(root=root, names=["a//b"])
    with pytest.raises(agentsmd.InvalidArgumentError):
        session.touch(root / "a")


def test_section_10_omitted_once(tree: Tree) -> None:
    root = tree(dict(REPOSITORY, **{"CLAUDE.md": "shadowed\n"}))
    session = Session(root=root, names=["AGENTS.md", "CLAUDE.md"], report=True)
    first = session.touch(root / "a")
    assert [(o.path, o.reason, o.by) for o in first.omitted] == [
        (str(root / "CLAUDE.md"), Reason.SHADOWED, str(root / "AGENTS.md")),
    ]
    later = session.touch(root / "c")
    assert later.omitted == ()
    # Probes too are reported once (§11.1): c's, none of the root's again.
    assert later.probes and all(str(root / "c") in p.path for p in later.probes)


def test_section_10_budgets_bound_the_session(tree: Tree) -> None:
    root = tree(REPOSITORY)
    # "root\n" (5) and "a\n" (2) fit 8; "b\n" (2) does not; "c\n" would, but the session ended.
    session = Session(root=root, budget=8)
    assert contents(session.touch(root / "a")) == [b"root\n", b"a\n"]
    second = session.touch(root / "a" / "b")
    assert second.files == ()
    assert [(o.path, o.reason) for o in second.omitted] == [
        (str(root / "a" / "b" / "AGENTS.md"), Reason.OVER_BUDGET),
    ]
    third = session.touch(root / "c")
    assert third.files == ()
    assert [(o.path, o.reason) for o in third.omitted] == [
        (str(root / "c" / "AGENTS.md"), Reason.OVER_BUDGET),
    ]
    assert session.touch(root / "a" / "b") == Result((), (), (), ())


def test_section_10_an_error_leaves_the_session_as_it_was(tree: Tree) -> None:
    root = tree(dict(REPOSITORY, **{"a/b/AGENTS.md": "b" * 100}))
    session = Session(root=root, max_bytes=10)
    with pytest.raises(agentsmd.TooLargeError) as error:
        session.touch(root / "a" / "b")
    assert error.value.path == str(root / "a" / "b" / "AGENTS.md")
    # The failing touch gave nothing: root's and a's files are still new.
    assert contents(session.touch(root / "a")) == [b"root\n", b"a\n"]
    with pytest.raises(agentsmd.TooLargeError):
        session.touch(root / "a" / "b" / "main.py")
    assert contents(session.touch(root / "c")) == [b"c\n"]


def test_section_10_a_callbacks_exception_is_the_cause_of_its_touchs_error() -> None:
    class Flaky(MemoryFs):
        fail = True

        def read(self, name: str, limit: int) -> Optional[bytes]:
            if self.fail and name == "a/AGENTS.md":
                raise PermissionError(name)
            return super().read(name, limit)

    fs = Flaky({"AGENTS.md": b"root\n", "a/AGENTS.md": b"a\n"})
    session = Session(fs=fs)
    with pytest.raises(agentsmd.FsError) as error:
        session.touch("a/x.py")
    assert isinstance(error.value.__cause__, PermissionError)
    fs.fail = False
    assert contents(session.touch("a/x.py")) == [b"root\n", b"a\n"]


def test_section_10_a_custom_fs_and_transform_live_as_long_as_the_session() -> None:
    def make() -> tuple[Session, MemoryFs]:
        fs = BatchMemoryFs({
            "AGENTS.md": b"root\n", "a/AGENTS.md": b"a\n", "a/b/AGENTS.md": b"b\n",
            "c/AGENTS.md": b"c\n",
        })
        return Session(fs=fs, transform=lambda path, content: path.encode() + b": " + content), fs

    session, fs = make()
    gc.collect()
    assert contents(session.touch("a/x.py")) == [b"AGENTS.md: root\n", b"a/AGENTS.md: a\n"]
    gc.collect()
    assert contents(session.touch("a/b/y.py")) == [b"a/b/AGENTS.md: b\n"]
    assert contents(session.touch("c")) == [b"c/AGENTS.md: c\n"]
    # Each directory is looked up once across the touches, in one batch per touch.
    listed = [name for op, names in fs.calls if op == "read_dirs" for name in names]
    assert sorted(listed) == sorted(set(listed))
    assert [op for op, _ in fs.calls] == ["read_dirs", "read_files"] * 3
    fs.calls.clear()
    assert session.touch("a/b/z.py").files == ()
    assert fs.calls == []


def test_section_10_threads_share_a_session(tree: Tree) -> None:
    files = {f"d{i}/e{j}/AGENTS.md": f"{i}.{j}\n" for i in range(4) for j in range(4)}
    root = tree(dict(files, **{"AGENTS.md": "root\n"}))
    session = Session(root=root)
    paths = [root / f"d{i}" / f"e{j}" / "x.py" for i in range(4) for j in range(4)]
    start = threading.Barrier(8)
    given: List[List[str]] = [[] for _ in range(8)]
    failed: List[BaseException] = []

    def work(k: int) -> None:
        try:
            start.wait()
            for path in paths[k:] + paths[:k]:
                given[k].extend(f.path for f in session.touch(path).files)
        except BaseException as error:  # noqa: BLE001 - reported below
            failed.append(error)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == []
    every = [path for k in range(8) for path in given[k]]
    assert sorted(every) == sorted([str(root / "AGENTS.md")] + [str(root / f) for f in files])


def test_section_10_a_session_closes_as_a_context_manager(tree: Tree) -> None:
    root = tree(REPOSITORY)
    with Session(root=root) as session:
        assert contents(session.touch(root / "c")) == [b"root\n", b"c\n"]
    with pytest.raises(agentsmd.InvalidArgumentError, match="closed"):
        session.touch(root / "a")
    session.close()


def test_section_10_the_session_example(tree: Tree) -> None:
    root = tree({
        "AGENTS.md": "Run the tests before you commit.\n",
        "src/AGENTS.md": "Type every function.\n",
        "src/main.py": "print('main')\n",
        "src/util.py": "print('util')\n",
    })
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "session.py"), "src/main.py", "src/util.py"],
        cwd=root, capture_output=True, check=True,
    )
    rendering = agentsmd.render_bytes(agentsmd.chain(root / "src" / "main.py", root=root).files)
    expected = b"print('main')\n" + rendering + b"\nprint('util')\n\n"
    assert run.stdout.replace(b"\r\n", b"\n") == expected
