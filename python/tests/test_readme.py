"""The README's example (python/examples/readme.py) and the typed example, run as a user runs
them: in a directory of their own, with the installed package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import agentsmd
from conftest import Tree

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_readme_example_prints_the_rendering_here(tree: Tree) -> None:
    root = tree({"AGENTS.md": "Use tabs.\n", "src/AGENTS.md": "Test first.\n"})
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "readme.py")],
        cwd=root / "src", capture_output=True, check=True,
    )
    expected = agentsmd.render_bytes(agentsmd.chain(root / "src").files) + b"\n"
    assert run.stdout.replace(b"\r\n", b"\n") == expected
    assert b'<project_instructions path="' + str(root / "src" / "AGENTS.md").encode() in run.stdout


def test_typed_example_runs(tree: Tree) -> None:
    root = tree({"AGENTS.md": "---\nskills: [x]\n---\n## Build\n\nmake\n", "src/AGENTS.md": "a\n"})
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "typed.py"), str(root / "src"), str(root)],
        capture_output=True, check=True, text=True,
    )
    assert "<project_context>" in run.stdout
