"""chain and render (SPEC.md §1, §2, §5) on the OS file system."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

import agentsmd
from agentsmd import Outcome, Reason, Source
from conftest import Tree


def test_files_from_root_to_the_nearest(tree: Tree) -> None:
    root = tree({"AGENTS.md": "root\n", "a/AGENTS.md": "a\n", "a/b/AGENTS.md": "b\n"})
    result = agentsmd.chain(root / "a" / "b" / "main.py", root=root)
    assert [f.path for f in result.files] == [
        str(root / "AGENTS.md"),
        str(root / "a" / "AGENTS.md"),
        str(root / "a" / "b" / "AGENTS.md"),
    ]
    assert [f.content for f in result.files] == [b"root\n", b"a\n", b"b\n"]
    assert all(f.source is Source.CHAIN for f in result.files)
    assert result.omitted == () and result.imports == () and result.probes == ()
    assert result.files[0].path_bytes == os.fsencode(root / "AGENTS.md")
    assert result.files[0].text == "root\n"


def test_paths_as_str_bytes_and_pathlike(tree: Tree) -> None:
    root = tree({"AGENTS.md": "x\n"})
    by_str = agentsmd.chain(str(root), root=str(root))
    by_bytes = agentsmd.chain(os.fsencode(root), root=os.fsencode(root))
    by_path = agentsmd.chain(root, root=root)
    assert by_str == by_bytes == by_path
    assert isinstance(by_str.files[0].path, str)


def test_relative_path_is_made_absolute(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tree({"AGENTS.md": "x\n", "sub/keep": ""})
    monkeypatch.chdir(root / "sub")
    result = agentsmd.chain(".", root="..")
    assert [f.path for f in result.files] == [str(root / "AGENTS.md")]


def test_names_in_order_of_preference_and_shadowed(tree: Tree) -> None:
    root = tree({"AGENTS.md": "plain\n", "AGENTS.override.md": "override\n"})
    result = agentsmd.chain(root, root=root, names=["AGENTS.override.md", "AGENTS.md"])
    assert [f.content for f in result.files] == [b"override\n"]
    (omitted,) = result.omitted
    assert omitted.reason is Reason.SHADOWED
    assert omitted.path == str(root / "AGENTS.md")
    assert omitted.by == str(root / "AGENTS.override.md")
    assert omitted.size == len("plain\n")


def test_extra_first_and_budget(tree: Tree) -> None:
    root = tree({"AGENTS.md": "r" * 10, "a/AGENTS.md": "a" * 10, "user.md": "u\n"})
    result = agentsmd.chain(
        root / "a", root=root, extra=[root / "user.md", root / "missing.md"], budget=13
    )
    assert [(f.source, f.content) for f in result.files] == [
        (Source.EXTRA, b"u\n"),
        (Source.CHAIN, b"r" * 10),
    ]
    (over,) = result.omitted
    assert over.reason is Reason.OVER_BUDGET and over.path == str(root / "a" / "AGENTS.md")
    assert over.by is None


def test_rendered_budget_counts_the_rendering(tree: Tree) -> None:
    root = tree({"AGENTS.md": "x\n"})
    whole = len(agentsmd.render_bytes(agentsmd.chain(root, root=root).files))
    assert len(agentsmd.chain(root, root=root, rendered_budget=whole).files) == 1
    assert len(agentsmd.chain(root, root=root, rendered_budget=whole - 1).files) == 0


def test_zero_and_empty_are_the_defaults(tree: Tree) -> None:
    root = tree({"AGENTS.md": "x\n"})
    plain = agentsmd.chain(root, root=root)
    assert agentsmd.chain(
        root, root=root, names=[], max_bytes=0, budget=0, rendered_budget=0, extra=[],
        import_depth=0, max_imports=0, fragments=[], overlays=[], env={},
    ) == plain


def test_golden_rendering() -> None:
    files = [("/r/AGENTS.md", b"root rules\n"), ('/r/a "b"/AGENTS.md', "leaf & <x>")]
    expected = (
        "<project_context>\n"
        '<project_instructions path="/r/AGENTS.md">\nroot rules\n</project_instructions>\n'
        '<project_instructions path="/r/a &quot;b&quot;/AGENTS.md">\nleaf & <x>\n'
        "</project_instructions>\n</project_context>"
    )
    assert agentsmd.render(files) == expected
    assert agentsmd.render_bytes(files) == expected.encode()
    assert agentsmd.render([]) == ""


def test_render_takes_files_of_a_result(tree: Tree) -> None:
    root = tree({"AGENTS.md": "x"})
    rendered = agentsmd.render(agentsmd.chain(root, root=root).files)
    assert rendered == (
        f'<project_context>\n<project_instructions path="{root / "AGENTS.md"}">\nx\n'
        "</project_instructions>\n</project_context>"
    )


def test_fragments_overlays_and_overlay_dir(tree: Tree) -> None:
    root = tree(
        {
            "AGENTS.md": "root\n",
            ".agents/AGENTS.d/b.md": "frag b\n",
            ".agents/AGENTS.d/a.md": "frag a\n",
            ".agents/AGENTS.d/skip.txt": "no\n",
            "users/ada/.agents/AGENTS.md": "ada\n",
        }
    )
    overlay = agentsmd.overlay_dir(root / "users", "ada")
    assert overlay == str(root / "users" / "ada" / ".agents")
    assert agentsmd.overlay_dir("", "ada") is None
    with pytest.raises(agentsmd.InvalidArgumentError, match="caller identity"):
        agentsmd.overlay_dir(root / "users", "../x")
    result = agentsmd.chain(root, root=root, fragments=[".agents/AGENTS.d"], overlays=[overlay])
    assert [(f.source, f.content) for f in result.files] == [
        (Source.CHAIN, b"root\n"),
        (Source.FRAGMENT, b"frag a\n"),
        (Source.FRAGMENT, b"frag b\n"),
        (Source.OVERLAY, b"ada\n"),
    ]


def test_an_empty_overlay_is_refused(tree: Tree) -> None:
    root = tree({})
    with pytest.raises(agentsmd.InvalidArgumentError, match="overlays"):
        agentsmd.chain(root, root=root, overlays=[""])


def test_imports_are_expanded_and_listed(tree: Tree) -> None:
    root = tree({"AGENTS.md": "top\n@docs/style.md\nend\n", "docs/style.md": "tabs\n"})
    result = agentsmd.chain(root, root=root, imports=True)
    assert result.files[0].content == b"top\ntabs\nend\n"
    (imported,) = result.imports
    assert imported == agentsmd.Import(
        path=str(root / "docs" / "style.md"), by=str(root / "AGENTS.md"), line=2, depth=1,
        size=5, duplicate=False,
    )
    # Off by default: the directive is text.
    assert agentsmd.chain(root, root=root).files[0].content.startswith(b"top\n@docs")


def test_env_interpolates_only_what_it_is_given(tree: Tree) -> None:
    root = tree({"AGENTS.md": "${env:USER} ${env:HOME}\n"})
    result = agentsmd.chain(root, root=root, env={"USER": "ada"})
    assert result.files[0].content == b"ada ${env:HOME}\n"
    with pytest.raises(agentsmd.InvalidArgumentError, match="NAME"):
        agentsmd.chain(root, root=root, env={"1X": "y"})


def test_transform(tree: Tree) -> None:
    root = tree({"AGENTS.md": "shout\n"})
    seen = []

    def upper(path: str, content: bytes) -> bytes:
        seen.append(path)
        return content.upper()

    result = agentsmd.chain(root, root=root, transform=upper)
    assert result.files[0].content == b"SHOUT\n"
    assert seen == [str(root / "AGENTS.md")]
    assert agentsmd.chain(root, root=root, transform=lambda p, c: "text").files[0].content == b"text"
    with pytest.raises(agentsmd.InvalidArgumentError, match="both"):
        agentsmd.chain(root, root=root, transform=upper, env={"A": "b"})


def test_nearest_supersedes_the_others(tree: Tree) -> None:
    root = tree({"AGENTS.md": "root\n", "a/AGENTS.md": "a\n"})
    result = agentsmd.chain(root / "a", root=root, nearest=True)
    assert [f.content for f in result.files] == [b"a\n"]
    (superseded,) = result.omitted
    assert superseded.reason is Reason.SUPERSEDED
    assert superseded.by == str(root / "a" / "AGENTS.md")


def test_report_lists_every_place_looked_at(tree: Tree) -> None:
    root = tree({"AGENTS.md": "root\n", "a/keep": ""})
    result = agentsmd.chain(root / "a", root=root, report=True)
    assert result.probes == (
        agentsmd.Probe(str(root / "AGENTS.md"), Source.CHAIN, Outcome.INCLUDED),
        agentsmd.Probe(str(root / "a" / "AGENTS.md"), Source.CHAIN, Outcome.NOT_FOUND),
    )


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32", reason="Unix links")
def test_confine_omits_a_link_leading_out(tree: Tree, tmp_path: Path) -> None:
    root = tree({"AGENTS.md": "root\n"})
    (tmp_path / "secret.md").write_text("secret\n")
    (root / "a").mkdir()
    os.symlink(tmp_path / "secret.md", root / "a" / "AGENTS.md")
    result = agentsmd.chain(root / "a", root=root, confine=True)
    assert [f.content for f in result.files] == [b"root\n"]
    (escapes,) = result.omitted
    assert escapes.reason is Reason.ESCAPES and escapes.size == 0
    # Without confine the link is followed.
    assert len(agentsmd.chain(root / "a", root=root).files) == 2
    with pytest.raises(agentsmd.InvalidArgumentError, match="confine"):
        agentsmd.chain(root, confine=True)


@pytest.mark.skipif(sys.platform != "linux", reason="Linux paths are any bytes")
def test_a_path_that_is_not_utf8_keeps_its_bytes(tmp_path: Path) -> None:
    raw = os.fsencode(tmp_path) + b"/caf\xe9"
    os.mkdir(raw)
    with open(raw + b"/AGENTS.md", "wb") as f:
        f.write(b"x\n")
    result = agentsmd.chain(raw, root=tmp_path)
    (file,) = result.files
    assert file.path_bytes == raw + b"/AGENTS.md"
    assert file.path == os.fsdecode(raw + b"/AGENTS.md")
    assert "\udce9" in file.path
    # The str names the same file when given back.
    assert agentsmd.chain(os.fsdecode(raw), root=tmp_path) == result
    assert agentsmd.render_bytes(result.files).count(b"caf\xe9") == 1


def test_chains_on_many_threads_at_once(tree: Tree) -> None:
    root = tree({"AGENTS.md": "root\n", "a/b/AGENTS.md": "b\n"})
    expected = agentsmd.chain(root / "a" / "b", root=root)
    results = []

    def work() -> None:
        for _ in range(50):
            results.append(agentsmd.chain(root / "a" / "b", root=root))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 200 and all(r == expected for r in results)


def test_results_are_frozen(tree: Tree) -> None:
    root = tree({"AGENTS.md": "x\n"})
    file = agentsmd.chain(root, root=root).files[0]
    with pytest.raises(AttributeError):
        file.path = "/elsewhere"  # type: ignore[misc]
    assert hash(file) == hash(agentsmd.File(file.path, file.content, file.source))
