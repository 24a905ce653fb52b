"""The package as installed: its metadata, its types, its public names."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import agentsmd
from conftest import PACKAGE


def test_the_package_is_installed_not_a_source_tree() -> None:
    assert not (PACKAGE.parent / "pyproject.toml").exists(), PACKAGE


def test_distribution_name_and_version() -> None:
    assert importlib.metadata.version("agentsmd-loader") == agentsmd.__version__ == "0.1.0"


def test_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()
    assert (PACKAGE / "_agentsmd.pyi").is_file()


def test_constants() -> None:
    assert agentsmd.PART_ID == "agentsmd"
    assert agentsmd.DEFAULT_NAME == "AGENTS.md"
    assert agentsmd.DEFAULT_MAX_BYTES == 1 << 20
    assert agentsmd.DEFAULT_IMPORT_DEPTH == 5
    assert agentsmd.DEFAULT_MAX_IMPORTS == 64
    assert agentsmd.DEFAULT_CAP == 8192
    assert agentsmd.MIN_CAP == 2048
    assert agentsmd.DEFAULT_HEADING == "# Repository Agent Instructions (AGENTS.md)"


def test_every_public_name_is_exported() -> None:
    for name in agentsmd.__all__:
        assert hasattr(agentsmd, name), name
    assert agentsmd.Error.__module__ == "agentsmd"
    assert agentsmd.File.__module__ == "agentsmd"


def test_extension_is_the_stable_abi() -> None:
    extension = [p.name for p in PACKAGE.iterdir() if p.name.startswith("_agentsmd.")]
    assert any(".abi3." in name or name.endswith(".pyd") for name in extension), extension


def test_readme_example_of_the_package_is_the_repository_one() -> None:
    # python/examples/readme.py is what the README shows; the test beside it runs it.
    assert Path(__file__).parent.parent.joinpath("examples", "readme.py").is_file()


def test_all_names_every_public_class_and_function() -> None:
    import inspect

    public = {
        name
        for name, value in vars(agentsmd).items()
        if not name.startswith("_") and (inspect.isclass(value) or inspect.isfunction(value))
    }
    assert public <= set(agentsmd.__all__), public - set(agentsmd.__all__)
