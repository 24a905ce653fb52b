"""Names of several elements and ``all_names`` (SPEC.md §9)."""

from __future__ import annotations

import pytest

import agentsmd
from agentsmd import Reason
from conftest import Tree


def test_section_9_a_name_of_several_elements(tree: Tree) -> None:
    root = tree({
        "AGENTS.md": "agents\n",
        ".claude/CLAUDE.md": "root\n",
        "a/.claude/CLAUDE.md": "a\n",
        "a/b/.claude": "a file, not a directory\n",
    })
    result = agentsmd.chain(root / "a" / "b" / "x.py", root=root, names=[".claude/CLAUDE.md", "AGENTS.md"])
    assert [f.path for f in result.files] == [
        str(root / ".claude" / "CLAUDE.md"),
        str(root / "a" / ".claude" / "CLAUDE.md"),
    ]
    assert [(o.path, o.reason, o.by) for o in result.omitted] == [
        (str(root / "AGENTS.md"), Reason.SHADOWED, str(root / ".claude" / "CLAUDE.md")),
    ]


@pytest.mark.parametrize("name", ["a//b", "./b", "a/..", "/a", "a/", "a/\0b"])
def test_section_9_invalid_names(tree: Tree, name: str) -> None:
    root = tree({})
    with pytest.raises(agentsmd.InvalidArgumentError):
        agentsmd.chain(root, root=root, names=[name])


def test_section_9_all_names(tree: Tree) -> None:
    root = tree({"CLAUDE.md": "root\n", "CLAUDE.local.md": "local\n", "a/CLAUDE.md": "a\n"})
    names = ["CLAUDE.md", "CLAUDE.local.md"]
    result = agentsmd.chain(root / "a", root=root, names=names, all_names=True)
    assert [f.content for f in result.files] == [b"root\n", b"local\n", b"a\n"]
    assert result.omitted == ()
    nearest = agentsmd.chain(root / "a", root=root, names=names, all_names=True, nearest=True)
    assert [f.content for f in nearest.files] == [b"a\n"]
    assert [(o.reason, o.by) for o in nearest.omitted] == [
        (Reason.SUPERSEDED, str(root / "a" / "CLAUDE.md")),
        (Reason.SUPERSEDED, str(root / "a" / "CLAUDE.md")),
    ]
    assert agentsmd.chain(root, root=root, names=names).omitted[0].reason is Reason.SHADOWED
