"""Presets (SPEC.md §12): the ``preset`` and ``home`` options of ``chain`` and ``Session``,
``Result.rendered``, and the reasons ``EMPTY`` and ``TRUNCATED``. On a repository (a ``.git``
directory, nested files, a file Codex drops as whitespace only and one it cuts at 32 KiB, Claude
Code's files with an import and a rule) and a home holding each product's global files. Each
test is named after the section it pins."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

import agentsmd
from agentsmd import File, Omitted, Outcome, Reason, Session, Source

PRESETS = [
    "codex", "claude", "opencode", "pi", "goose", "zed", "gemini",
    "cursor", "copilot", "windsurf", "amp",
]
BIG = "0123456789abcdef" * 2500
KEPT = 32768 - len("root rules\n")


def write(root: Path, files: Dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        if name.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    return root


@pytest.fixture
def trees(tmp_path: Path) -> Tuple[Path, Path]:
    """The repository and the home of the tests here, both real paths."""
    base = tmp_path.resolve()
    repo = write(base / "repo", {
        ".git/": "",
        "AGENTS.md": "root rules\n",
        "CLAUDE.md": "Claude root.\n@docs/style.md\n",
        "docs/style.md": "Use tabs.\n",
        ".claude/rules/always.md": "Always.\n",
        "GEMINI.md": "Gemini root.\n",
        ".goosehints": "Goose root.\n",
        "mid/AGENTS.md": "  \n\t\n",
        "mid/CLAUDE.md": "Claude mid.\n",
        "mid/sub/AGENTS.md": BIG,
        "mid/sub/CLAUDE.local.md": "Local.\n",
        "mid/sub/.cursorrules": "Cursor rules.\n",
    })
    home = write(base / "home", {
        ".codex/AGENTS.md": "global codex\n",
        ".claude/CLAUDE.md": "global claude\n",
        ".gemini/GEMINI.md": "global gemini\n",
        ".config/goose/.goosehints": "global goose\n",
        ".config/opencode/AGENTS.md": "global opencode\n",
        ".pi/agent/AGENTS.md": "global pi\n",
    })
    return repo, home


def test_section_12_codex_reads_the_home_drops_empty_and_cuts_at_32_kib(
    trees: Tuple[Path, Path],
) -> None:
    repo, home = trees
    result = agentsmd.chain(repo / "mid" / "sub" / "main.rs", preset="codex", home=home)
    assert result.files == (
        File(str(home / ".codex" / "AGENTS.md"), b"global codex", Source.EXTRA),
        File(str(repo / "AGENTS.md"), b"root rules\n", Source.CHAIN),
        File(str(repo / "mid" / "sub" / "AGENTS.md"), BIG[:KEPT].encode(), Source.CHAIN),
    )
    assert result.omitted == (
        Omitted(str(repo / "mid" / "AGENTS.md"), 5, Reason.EMPTY, None),
        Omitted(str(repo / "mid" / "sub" / "AGENTS.md"), len(BIG) - KEPT, Reason.TRUNCATED, None),
    )
    cwd = repo / "mid" / "sub"
    assert result.rendered == (
        f"# AGENTS.md instructions for {cwd}\n\n<INSTRUCTIONS>\nglobal codex\n\n"
        f"--- project-doc ---\n\nroot rules\n\n\n{BIG[:KEPT]}\n</INSTRUCTIONS>"
    )
    # The directory itself as the path: the same working directory, the same piece.
    assert agentsmd.chain(cwd, preset="codex", home=home).rendered == result.rendered


def test_section_12_claude_code_renders_as_section_2_and_runs_in_a_session(
    trees: Tuple[Path, Path],
) -> None:
    repo, home = trees
    at = repo / "mid" / "sub" / "main.rs"
    # ``root`` is the product's project root, whose .claude/rules it reads.
    result = agentsmd.chain(at, preset="claude", home=home, root=repo)
    paths = [file.path for file in result.files]
    assert paths[0] == str(home / ".claude" / "CLAUDE.md")
    names = ["CLAUDE.md", ".claude/rules/always.md", "mid/CLAUDE.md", "mid/sub/CLAUDE.local.md"]
    for name in names:
        assert str(repo / name) in paths
    assert b"Use tabs.\n" in result.files[paths.index(str(repo / "CLAUDE.md"))].content
    assert result.rendered == agentsmd.render(result.files)
    with Session(preset="claude", home=home, root=repo) as session:
        touched = session.touch(at)
    assert [file.path for file in touched.files] == paths
    assert touched.rendered is None


def test_section_12_without_a_preset_nothing_is_rendered(trees: Tuple[Path, Path]) -> None:
    repo, home = trees
    assert agentsmd.chain(repo / "mid", root=repo).rendered is None
    assert agentsmd.chain(repo / "mid", root=repo, preset="", home=home).rendered is None


def test_section_12_the_words_of_the_new_reasons_and_outcomes() -> None:
    assert [Reason.EMPTY.value, Reason.TRUNCATED.value] == ["empty", "truncated"]
    assert [Outcome.EMPTY.value, Outcome.TRUNCATED.value] == ["empty", "truncated"]


@pytest.mark.parametrize("name", ["Codex", "copilot-x", " claude", "codex\0"])
def test_section_12_an_unknown_preset_is_an_invalid_argument(
    trees: Tuple[Path, Path], name: str
) -> None:
    repo, home = trees
    with pytest.raises(agentsmd.InvalidArgumentError) as raised:
        agentsmd.chain(repo, preset=name, home=home)
    for preset in PRESETS:
        assert preset in str(raised.value)
    with pytest.raises(agentsmd.InvalidArgumentError):
        Session(preset=name, home=home)


def test_section_12_a_session_of_codex_starts_as_its_chain_and_gives_nothing_at_a_read(
    trees: Tuple[Path, Path],
) -> None:
    """Codex loads its files when it starts (SPEC.md §12 with §10): a session's first touch is
    its chain, and a later touch gives nothing."""
    repo, home = trees
    at = repo / "mid" / "sub" / "main.rs"
    with Session(preset="codex", home=home) as session:
        start = session.touch(at)
        read = session.touch(repo / "mid" / "other.rs")
    assert start.files
    assert start.files == agentsmd.chain(at, preset="codex", home=home).files
    assert read.files == ()


def test_section_12_copilot_loads_its_documented_files_rendered_as_section_2(
    tmp_path: Path,
) -> None:
    """GitHub Copilot, a closed product: the user's instructions from ``home``, then from the
    ``.git`` root down each directory's ``.github/copilot-instructions.md`` and ``AGENTS.md``,
    with the root's ``.github/instructions`` whose ``applyTo`` matches the path; ``rendered``
    is ``render`` of those files."""
    base = tmp_path.resolve()
    repo = write(base / "repo", {
        ".git/": "",
        "AGENTS.md": "root agents\n",
        ".github/copilot-instructions.md": "repository\n",
        ".github/instructions/go.instructions.md": '---\napplyTo: "**/*.go"\n---\ngo\n',
        ".github/instructions/ts.instructions.md": '---\napplyTo: "**/*.ts"\n---\nts\n',
        "a/AGENTS.md": "a agents\n",
    })
    home = write(base / "home", {".copilot/copilot-instructions.md": "user\n"})
    result = agentsmd.chain(repo / "a" / "main.go", preset="copilot", home=home)
    assert result.files == (
        File(str(home / ".copilot" / "copilot-instructions.md"), b"user\n", Source.EXTRA),
        File(str(repo / ".github" / "copilot-instructions.md"), b"repository\n", Source.CHAIN),
        File(str(repo / "AGENTS.md"), b"root agents\n", Source.CHAIN),
        File(
            str(repo / ".github" / "instructions" / "go.instructions.md"), b"go\n", Source.RULE
        ),
        File(str(repo / "a" / "AGENTS.md"), b"a agents\n", Source.CHAIN),
    )
    assert result.rendered
    assert result.rendered == agentsmd.render(result.files)


@pytest.mark.parametrize("preset, rule, text", [
    ("cursor", "a/.cursor/rules/go.mdc", b"cursor go\n"),
    ("windsurf", "a/.windsurf/rules/go.md", b"windsurf go\n"),
])
def test_section_12_a_session_of_cursor_or_windsurf_loads_as_the_agent_reads(
    tmp_path: Path, preset: str, rule: str, text: bytes
) -> None:
    """With §10: the session finds the product's project (the nearest ``.git``) at its first
    touch, which gives the root's files; a touch below gives that directory's ``AGENTS.md`` and
    its rule whose glob matches, and a touch beside it nothing, each file given once."""
    base = tmp_path.resolve()
    repo = write(base / "repo", {
        ".git/": "",
        "AGENTS.md": "root\n",
        "a/AGENTS.md": "a\n",
        "a/.cursor/rules/go.mdc": '---\nglobs: "*.go"\n---\ncursor go\n',
        "a/.windsurf/rules/go.md": '---\ntrigger: glob\nglobs: "*.go"\n---\nwindsurf go\n',
    })
    home = base / "home"
    home.mkdir()
    with Session(preset=preset, home=home) as session:
        first = session.touch(repo / "README.md")
        second = session.touch(repo / "a" / "main.go")
        again = session.touch(repo / "a" / "other.go")
    assert first.files == (File(str(repo / "AGENTS.md"), b"root\n", Source.CHAIN),)
    assert second.files == (
        File(str(repo / "a" / "AGENTS.md"), b"a\n", Source.CHAIN),
        File(str(repo.joinpath(*rule.split("/"))), text, Source.RULE),
    )
    assert again.files == ()


def test_section_12_options_of_the_wrong_type_are_a_type_error(trees: Tuple[Path, Path]) -> None:
    repo, home = trees
    with pytest.raises(TypeError, match="preset"):
        agentsmd.chain(repo, preset=7, home=home)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="home"):
        agentsmd.chain(repo, preset="codex", home=7)  # type: ignore[arg-type]


def command_line() -> Optional[str]:
    """The command line the package is compared with: $AGENTSMD_CLI, else ``agentsmd`` on
    PATH."""
    return os.environ.get("AGENTSMD_CLI") or shutil.which("agentsmd")


def test_section_12_every_preset_is_the_command_lines_as(trees: Tuple[Path, Path]) -> None:
    """``chain(path, preset=NAME, home=HOME)`` gives the files and omitted files of
    ``agentsmd PATH --as NAME --home HOME --json``, and ``rendered`` its stdout."""
    cli = command_line()
    if cli is None:
        pytest.skip("no agentsmd command line: set AGENTSMD_CLI or put agentsmd on PATH")
    repo, home = trees
    seen: Dict[str, int] = {}
    listed = subprocess.run([cli, "--as", "list"], capture_output=True, check=True).stdout
    presets = [line.split(b"\t")[0].decode() for line in listed.splitlines()]
    assert set(PRESETS) <= set(presets), presets
    for preset in presets:
        for at in [repo / "mid" / "sub" / "main.rs", repo / "mid", repo]:
            result = agentsmd.chain(at, preset=preset, home=home)
            args: List[str] = [cli, str(at), "--as", preset, "--home", str(home)]
            stdout = subprocess.run(args, capture_output=True, check=True).stdout
            assert result.rendered is not None
            assert result.rendered.encode("utf-8", "surrogateescape") == stdout, (preset, at)
            out = subprocess.run(args + ["--json"], capture_output=True, check=True).stdout
            printed = json.loads(out)
            assert [(f.path, f.text, f.source.value) for f in result.files] == [
                (f["path"], f["content"], f["source"]) for f in printed["files"]
            ], (preset, at)
            assert [(o.path, o.size, o.reason.value, o.by) for o in result.omitted] == [
                (o["path"], o["size"], o["reason"], o["by"] or None) for o in printed["omitted"]
            ], (preset, at)
            seen[preset] = seen.get(preset, 0) + len(result.files)
            for omitted in result.omitted:
                seen[omitted.reason.value] = seen.get(omitted.reason.value, 0) + 1
    for what in ["codex", "claude", "gemini", "empty", "truncated", "shadowed"]:
        assert seen.get(what), (what, seen)
