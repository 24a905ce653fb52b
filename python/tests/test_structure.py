"""The structure API (SPEC.md §6): parse, parse_text, parse_nearest, block."""

from __future__ import annotations

import pytest

import agentsmd
from agentsmd import SkillSource
from conftest import Tree
from memory_fs import MemoryFs

TEXT = (
    "---\nskills: [review, release, nowhere]\n---\n"
    "Be brief.\n\n## Build\n\nRun `make`.\n\n## Skill: review\n\nRead every diff twice.\n"
)


def test_parse_text_resolves_inline_skills() -> None:
    doc = agentsmd.parse_text(TEXT)
    assert doc.requested == ("review", "release", "nowhere")
    assert doc.skills == (agentsmd.Skill("review", SkillSource.INLINE),)
    assert doc.unknown == ("release", "nowhere")
    assert doc.warnings == ()
    block = agentsmd.block(doc)
    assert block.block == (
        "# Repository Agent Instructions (AGENTS.md)\n\nBe brief.\n\n## Build\n\nRun `make`.\n\n"
        "## Requested Skills\n\n### review\n\nRead every diff twice.\n"
    )
    assert block.dropped == () and block.cap == agentsmd.DEFAULT_CAP
    assert block.block_bytes == block.block.encode()


def test_parse_reads_skill_files_beside_the_file(tree: Tree) -> None:
    root = tree({"AGENTS.md": TEXT, "skills/release.md": "\nTag it.\n\n"})
    doc = agentsmd.parse(root / "AGENTS.md", root=root, confine=True)
    assert doc.skills == (
        agentsmd.Skill("review", SkillSource.INLINE),
        agentsmd.Skill("release", SkillSource.FILE),
    )
    assert doc.unknown == ("nowhere",)
    assert "### release\n\nTag it.\n" in agentsmd.block(doc).block


def test_skills_option_replaces_the_front_matter() -> None:
    assert agentsmd.parse_text(TEXT, skills=[]).requested == ()
    assert agentsmd.parse_text(TEXT, skills=["review"]).skills[0].name == "review"


def test_parse_over_a_custom_file_system() -> None:
    fs = MemoryFs({"a/AGENTS.md": TEXT.encode(), "a/skills/release.md": b"Tag.\n"})
    doc = agentsmd.parse("a/AGENTS.md", fs=fs)
    assert [s.name for s in doc.skills] == ["review", "release"]


def test_parse_of_no_file_is_an_error(tree: Tree) -> None:
    root = tree({})
    with pytest.raises(agentsmd.InvalidArgumentError, match="no such regular file"):
        agentsmd.parse(root / "AGENTS.md")


def test_parse_nearest(tree: Tree) -> None:
    root = tree({"AGENTS.md": "## Root\n", "src/AGENTS.md": "## Src\n", "lib/keep": ""})
    doc = agentsmd.parse_nearest(root / "src" / "main.py", root=root)
    assert doc is not None
    assert "## Src" in agentsmd.block(doc).block
    assert agentsmd.parse_nearest(root / "lib", root=root, names=["NONE.md"]) is None


def test_block_drops_whole_sections_and_says_so() -> None:
    text = "## Small\n\nok\n\n## Big\n\n" + "x" * 3000 + "\n"
    doc = agentsmd.parse_text(text)
    block = agentsmd.block(doc, cap=2048, name="AGENTS.md", where="/repo/AGENTS.md")
    assert block.cap == 2048
    assert [d.title for d in block.dropped] == ["Big"]
    assert '1 section(s) omitted' in block.block and '"Big"' in block.block
    assert "read /repo/AGENTS.md for the full instructions" in block.block
    assert "## Small" in block.block


def test_block_options_heading_and_preamble() -> None:
    doc = agentsmd.parse_text("## A\n\nbody\n")
    block = agentsmd.block(doc, heading="# Rules", preamble="Follow these.")
    assert block.block == "# Rules\n\nFollow these.\n\n## A\n\nbody\n"
    with pytest.raises(agentsmd.InvalidArgumentError):
        agentsmd.block(doc, cap=2048, preamble="p" * 3000)


def test_malformed_front_matter_is_a_warning() -> None:
    doc = agentsmd.parse_text("---\nskills: [a\n---\nbody\n")
    assert doc.requested == () and len(doc.warnings) == 1


def test_block_needs_a_document() -> None:
    with pytest.raises(TypeError):
        agentsmd.block("text")  # type: ignore[arg-type]
