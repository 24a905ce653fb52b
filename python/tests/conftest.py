"""Shared fixtures of the package's tests, which run against the installed package: `agentsmd`
must not come from a source tree (a directory holding pyproject.toml above it)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Dict

import pytest

import agentsmd

PACKAGE = Path(agentsmd.__file__).resolve().parent


def pytest_report_header() -> str:
    return f"agentsmd {agentsmd.__version__} from {PACKAGE}"



Tree = Callable[[Dict[str, str]], Path]


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    """Writes `files` (relative path -> text) below a fresh directory, which it returns."""

    def make(files: Dict[str, str]) -> Path:
        root = tmp_path / "repo"
        root.mkdir(exist_ok=True)
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode())
        return root

    return make

