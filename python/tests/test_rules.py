"""Rules (SPEC.md §11 and its fine points in §11.1): the ``rules`` option of ``chain`` and
``Session``, each dialect's lookup, files and front matter, globs, ``Result.available`` and
``Result.warnings``, the source ``RULE`` and the probes of rules. Each test is named after the
section it pins."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, List, Optional

import pytest

import agentsmd
from agentsmd import Available, Outcome, Result, Session, Source
from conftest import Tree
from memory_fs import MemoryFs

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@dataclass(frozen=True)
class Dialect:
    """A row of §11's table as the tests write it: where the tests keep the dialect's rules,
    the suffix they give its files, the front matter of a rule that applies always, of one that
    applies when a touched path matches a pattern, and of one on request (``None`` for a
    dialect that has none), and whether its rule directory is in each directory of the walk."""

    name: str
    dir: str
    suffix: str
    always: str
    glob: Callable[[str], str]
    on_request: Optional[str]
    walk: bool

    def file(self, holder: str, name: str) -> str:
        """The relative path of the rule file ``name`` in the rule directory of ``holder``."""
        return f"{holder}{self.dir}/{name}{self.suffix}"


def front(keys: str) -> str:
    return f"---\n{keys}---\n"


DIALECTS = [
    Dialect("claude", ".claude/rules", ".md", "", lambda p: front(f"paths: '{p}'\n"), None, False),
    Dialect(
        "cursor", ".cursor/rules", ".mdc", front("alwaysApply: true\n"),
        lambda p: front(f"globs:\n  - '{p}'\n"), front("description: On request\n"), True,
    ),
    Dialect(
        "copilot", ".github/instructions", ".instructions.md", front("applyTo: '**'\n"),
        lambda p: front(f"applyTo:\n  - '{p}'\n"), front("description: On request\n"), False,
    ),
    Dialect(
        "windsurf", ".windsurf/rules", ".md", front("trigger: always_on\n"),
        lambda p: front(f"trigger: glob\nglobs:\n  - '{p}'\n"),
        front("trigger: model_decision\ndescription: On request\n"), True,
    ),
    Dialect(
        "kiro", ".kiro/steering", ".md", front("inclusion: always\n"),
        lambda p: front(f"inclusion: fileMatch\nfileMatchPattern: '{p}'\n"),
        front("inclusion: manual\ndescription: On request\n"), False,
    ),
    Dialect(
        "cline", ".clinerules", ".md", "", lambda p: front(f"paths:\n  - '{p}'\n"), None, False,
    ),
]
BY_NAME = {dialect.name: dialect for dialect in DIALECTS}
each_dialect = pytest.mark.parametrize("dialect", DIALECTS, ids=[d.name for d in DIALECTS])


def rules(result: Result) -> List[bytes]:
    """The contents of the result's files of source ``RULE``, in order."""
    return [f.content for f in result.files if f.source is Source.RULE]


def chain(root: Path, path: str, dialect: Dialect, **more: object) -> Result:
    return agentsmd.chain(root / path, root=root, rules=[(dialect.name, dialect.dir)], **more)


@each_dialect
def test_section_11_where_each_dialect_is_looked_up(tree: Tree, dialect: Dialect) -> None:
    root = tree({
        "AGENTS.md": "root\n",
        dialect.file("", "r"): dialect.always + "root rule\n",
        "a/AGENTS.md": "a\n",
        dialect.file("a/", "r"): dialect.always + "a rule\n",
    })
    result = chain(root, "a/x.py", dialect)
    # A directory's rules come after its file (file, fragments, rules).
    expected = [(Source.CHAIN, b"root\n"), (Source.RULE, b"root rule\n"), (Source.CHAIN, b"a\n")]
    if dialect.walk:
        expected.append((Source.RULE, b"a rule\n"))
    assert [(f.source, f.content) for f in result.files] == expected
    assert result.files[1].path == str(root / dialect.file("", "r"))
    assert result.available == () and result.warnings == ()


@pytest.mark.parametrize(
    ("dialect", "counted", "not_counted"),
    [
        ("claude", ["a.md", "sub/b.md"], ["c.txt", "d.mdc", ".hidden.md"]),
        ("cursor", ["a.md", "b.mdc", "sub/c.mdc"], ["d.txt", ".hidden.mdc"]),
        ("copilot", ["a.instructions.md", "sub/b.instructions.md"], ["c.md", ".d.instructions.md"]),
        ("windsurf", ["a.md", "sub/b.md"], ["c.mdc", "d.txt", ".hidden.md"]),
        ("kiro", ["a.md", "sub/b.md"], ["c.mdc", "d.txt", ".hidden.md"]),
        ("cline", ["a.md", "b.txt", "sub/c.md"], ["d.mdc", ".hidden.txt"]),
    ],
)
def test_section_11_each_dialects_files_by_suffix_in_byte_order(
    tree: Tree, dialect: str, counted: List[str], not_counted: List[str]
) -> None:
    row = BY_NAME[dialect]
    files = {f"{row.dir}/{name}": row.always + name + "\n" for name in counted + not_counted}
    root = tree(files)
    result = chain(root, "x.py", row)
    # In byte order of their path below the rule directory: "sub/..." after the top files.
    assert rules(result) == [name.encode() + b"\n" for name in sorted(counted)]
    assert [f.path for f in result.files] == [str(root / row.dir / n) for n in sorted(counted)]


@each_dialect
def test_section_11_always_glob_and_on_request(tree: Tree, dialect: Dialect) -> None:
    files = {
        dialect.file("", "always"): dialect.always + "always\n",
        dialect.file("", "python"): dialect.glob("src/*.py") + "python\n",
        "src/main.py": "print()\n",
    }
    if dialect.on_request is not None:
        files[dialect.file("", "release")] = dialect.on_request + "release\n"
    root = tree(files)
    matching = chain(root, "src/main.py", dialect)
    assert rules(matching) == [b"always\n", b"python\n"]
    other = chain(root, "docs/guide.md", dialect)
    assert rules(other) == [b"always\n"]
    if dialect.on_request is None:
        assert matching.available == other.available == ()
    else:
        release = Available(str(root / dialect.file("", "release")), "release", "On request")
        assert matching.available == other.available == (release,)
        assert release.path_bytes == bytes(root / dialect.file("", "release"))


@pytest.mark.parametrize(
    ("dialect", "front_matter"),
    [
        ("cursor", ""),  # no front matter: manual
        ("cursor", front("globs: ''\n")),  # no patterns
        ("copilot", ""),  # no applyTo: manual
        ("windsurf", front("trigger: manual\n")),
        ("windsurf", front("description: no trigger\n")),
        ("kiro", front("inclusion: auto\ndescription: d\n")),
    ],
)
def test_section_11_each_dialects_rules_on_request(
    tree: Tree, dialect: str, front_matter: str
) -> None:
    row = BY_NAME[dialect]
    root = tree({row.file("", "manual"): front_matter + "manual\n"})
    result = chain(root, "x.py", row)
    assert result.files == ()
    assert [(a.path, a.name) for a in result.available] == [
        (str(root / row.file("", "manual")), "manual"),
    ]


def test_section_11_front_matter_keys(tree: Tree) -> None:
    root = tree({
        ".cursor/rules/a.mdc": front("alwaysApply: TRUE\n") + "a\n",
        ".cursor/rules/b.mdc": front("alwaysApply: false\nglobs: '*.go, *.py'\n") + "b\n",
        ".cursor/rules/c.mdc": front("globs: '*.{go,rs}'\n") + "c\n",
        ".github/instructions/d.instructions.md": front("applyTo: ' **/* '\n") + "d\n",
        ".github/instructions/e.instructions.md": front("applyTo: '*.go,*.py'\n") + "e\n",
        ".clinerules/f.md": front("paths: []\n") + "f\n",
        ".claude/rules/g.md": front("paths: ''\n") + "g\n",
    })
    options = [
        ("cursor", ".cursor/rules"), ("copilot", ".github/instructions"),
        ("cline", ".clinerules"), ("claude", ".claude/rules"),
    ]
    result = agentsmd.chain(root / "x.py", root=root, rules=options)
    # Commas split Cursor's and Copilot's strings, not inside braces; `[]` and `""` never match.
    assert rules(result) == [b"a\n", b"b\n", b"d\n", b"e\n"]
    rust = agentsmd.chain(root / "x.rs", root=root, rules=options)
    assert rules(rust) == [b"a\n", b"c\n", b"d\n"]


def test_section_11_cursors_front_matter_read_line_by_line(tree: Tree) -> None:
    # YAML reads `**/*.go` as an alias: Cursor's line is read as written, without a warning.
    root = tree({".cursor/rules/go.mdc": "---\nglobs: **/*.go\ndescription: Go\n---\nGo.\n"})
    result = chain(root, "cmd/main.go", BY_NAME["cursor"])
    assert rules(result) == [b"Go.\n"]
    assert result.warnings == ()
    assert rules(chain(root, "main.py", BY_NAME["cursor"])) == []


@pytest.mark.parametrize(
    ("dialect", "pattern", "matching", "not_matching"),
    [
        # claude and cline are anchored at the directory holding the rule directory ...
        ("claude", "*.py", ["x.py"], ["src/x.py"]),
        ("cline", "src/*.py", ["src/x.py"], ["a/src/x.py", "src/a/x.py"]),
        # ... the others match at any depth unless the pattern begins with / or **/.
        ("cursor", "*.py", ["x.py", "src/a/x.py"], ["x.pyc"]),
        ("cursor", "/src/*.py", ["src/x.py"], ["a/src/x.py"]),
        ("kiro", "**/test/**", ["test/x.py", "a/test/b/c.py"], ["tests/x.py"]),
        # copilot alone ignores ASCII case.
        ("copilot", "SRC/*.PY", ["src/x.py", "Src/X.Py"], ["lib/x.py"]),
        ("cursor", "SRC/*.PY", ["SRC/X.PY"], ["src/x.py"]),
        # `*` and `?` do not cross `/`; names beginning with `.` match like any other.
        ("claude", "src/?.py", ["src/x.py"], ["src/xy.py", "src/a/x.py"]),
        ("claude", "*", [".env", "x"], ["a/x"]),
        # classes, negated classes and nested braces.
        ("claude", "[a-c]*.{py,{rs,go}}", ["a.py", "b.rs", "c.go"], ["d.py", "a.js"]),
        ("claude", "[!a]?.md", ["b1.md"], ["a1.md"]),
    ],
)
def test_section_11_globs(
    tree: Tree, dialect: str, pattern: str, matching: List[str], not_matching: List[str]
) -> None:
    row = BY_NAME[dialect]
    root = tree({row.file("", "r"): row.glob(pattern) + "rule\n"})
    for path in matching:
        assert rules(chain(root, path, row)) == [b"rule\n"], path
    for path in not_matching:
        assert rules(chain(root, path, row)) == [], path


def test_section_11_globs_match_the_holder_directory_and_nothing_outside_it(
    tree: Tree, tmp_path: Path
) -> None:
    cursor = BY_NAME["cursor"]
    root = tree({
        cursor.file("", "everything"): cursor.glob("**") + "everything\n",
        cursor.file("", "star"): front("globs: ['/*', '**/*']\n") + "star\n",
        cursor.file("a/", "a"): cursor.glob("*.py") + "a\n",
    })
    # The holder itself has no element: `**` matches it, `*` and `**/*` do not.
    assert rules(chain(root, "", cursor)) == [b"everything\n"]
    assert rules(chain(root, "x", cursor)) == [b"everything\n", b"star\n"]
    # a's rule matches below a, relative to a; a path beside a matches nothing of a's.
    assert rules(chain(root, "a/b/x.py", cursor)) == [b"everything\n", b"star\n", b"a\n"]
    assert rules(chain(root, "b/x.py", cursor)) == [b"everything\n", b"star\n"]


def test_section_11_an_invalid_glob_matches_nothing_with_a_warning(tree: Tree) -> None:
    claude = BY_NAME["claude"]
    root = tree({
        claude.file("", "bad"): front("paths: ['[a', 'x.py']\n") + "bad\n",
        claude.file("", "braces"): front("paths: '{a,b'\n") + "braces\n",
    })
    result = chain(root, "x.py", claude)
    assert rules(result) == [b"bad\n"]
    bad, braces = (str(root / claude.file("", name)) for name in ("bad", "braces"))
    assert len(result.warnings) == 2
    assert result.warnings[0].startswith(bad + ": ") and "[a" in result.warnings[0]
    assert result.warnings[1].startswith(braces + ": ")
    assert chain(root, "a.py", claude).warnings == result.warnings


def test_section_11_an_unreadable_front_matter_applies_always_with_a_warning(tree: Tree) -> None:
    kiro = BY_NAME["kiro"]
    windsurf = BY_NAME["windsurf"]
    root = tree({
        kiro.file("", "odd"): front("inclusion: sometimes\nfileMatchPattern: '*.go'\n") + "odd\n",
        windsurf.file("", "list"): front("trigger: [glob]\n") + "list\n",
        kiro.file("", "open"): "---\ninclusion: manual\nnever closed\n",
    })
    result = agentsmd.chain(
        root / "x.py", root=root, rules=[("kiro", kiro.dir), ("windsurf", windsurf.dir)]
    )
    # A front matter that never closes is none: the whole text is the rule, and Kiro's "no
    # front matter" row applies (always).
    assert rules(result) == [b"odd\n", b"---\ninclusion: manual\nnever closed\n", b"list\n"]
    paths = [str(root / kiro.file("", "odd")), str(root / kiro.file("", "open")),
             str(root / windsurf.file("", "list"))]
    assert [w.split(": ", 1)[0] for w in result.warnings] == paths
    assert "sometimes" in result.warnings[0]
    assert result.available == ()


def test_section_11_without_rules_a_result_has_no_available_and_no_warnings(tree: Tree) -> None:
    root = tree({"AGENTS.md": "root\n", ".cursor/rules/r.mdc": "---\ndescription: d\n---\nr\n"})
    result = agentsmd.chain(root / "x.py", root=root)
    assert result.available == () and result.warnings == ()
    assert result == Result(result.files, (), (), ())
    assert chain(root, "x.py", BY_NAME["cursor"]).available != ()


def test_section_11_several_rule_directories_in_the_order_given(tree: Tree) -> None:
    root = tree({
        "AGENTS.md": "root\n",
        ".agents/AGENTS.d/f.md": "fragment\n",
        ".claude/rules/c.md": "claude\n",
        ".clinerules/c.md": "cline\n",
        "sub/.clinerules/s.md": "not looked up below the root\n",
    })
    result = agentsmd.chain(
        root / "sub" / "x.py", root=root, fragments=[".agents/AGENTS.d"],
        rules=[("cline", b".clinerules"), ("claude", Path(".claude") / "rules")],
    )
    assert [(f.source, f.content) for f in result.files] == [
        (Source.CHAIN, b"root\n"),
        (Source.FRAGMENT, b"fragment\n"),
        (Source.RULE, b"cline\n"),
        (Source.RULE, b"claude\n"),
    ]


def test_section_11_rules_and_their_probes(tree: Tree) -> None:
    cursor = BY_NAME["cursor"]
    root = tree({
        cursor.file("", "always"): cursor.always + "always\n",
        cursor.file("", "go"): cursor.glob("*.go") + "go\n",
        cursor.file("", "manual"): "manual\n",
        "a/.cursor/rules": "a file, not a directory\n",
    })
    result = chain(root, "x.py", cursor, report=True)
    assert [(p.path, p.source, p.outcome) for p in result.probes] == [
        (str(root / "AGENTS.md"), Source.CHAIN, Outcome.NOT_FOUND),
        (str(root / cursor.dir), Source.RULE, Outcome.LISTED),
        (str(root / cursor.file("", "always")), Source.RULE, Outcome.INCLUDED),
        (str(root / cursor.file("", "go")), Source.RULE, Outcome.NOT_MATCHED),
        (str(root / cursor.file("", "manual")), Source.RULE, Outcome.AVAILABLE),
    ]
    below = chain(root, "b/x.py", cursor, report=True)
    assert (str(root / "b" / cursor.dir), Source.RULE, Outcome.NOT_FOUND) in [
        (p.path, p.source, p.outcome) for p in below.probes
    ]
    # A rule directory that is a regular file fails when its directory is looked up.
    with pytest.raises(agentsmd.Error):
        chain(root, "a/x.py", cursor)


def test_section_11_rules_count_against_the_budgets_as_files(tree: Tree) -> None:
    claude = BY_NAME["claude"]
    root = tree({
        "AGENTS.md": "root\n",
        claude.file("", "a"): front("paths: '*.py'\n") + "a" * 10 + "\n",
        claude.file("", "b"): "b\n",
    })
    # The budget charges a rule's content, its front matter not included.
    fits = chain(root, "x.py", claude, budget=5 + 11 + 2)
    assert rules(fits) == [b"a" * 10 + b"\n", b"b\n"] and fits.omitted == ()
    over = chain(root, "x.py", claude, budget=5 + 11)
    assert rules(over) == [b"a" * 10 + b"\n"]
    assert [(o.path, o.reason) for o in over.omitted] == [
        (str(root / claude.file("", "b")), agentsmd.Reason.OVER_BUDGET),
    ]
    with pytest.raises(agentsmd.TooLargeError) as error:
        chain(root, "x.py", claude, max_bytes=8)
    assert error.value.path == str(root / claude.file("", "a"))


def test_section_11_rules_over_a_custom_file_system() -> None:
    fs = MemoryFs({
        "AGENTS.md": b"root\n",
        ".cursor/rules/py.mdc": b"---\nglobs: '*.py'\n---\npython\n",
        "a/.cursor/rules/go.mdc": b"---\nglobs: ['*.go']\ndescription: Go\n---\ngo\n",
    })
    result = agentsmd.chain("a/x.py", fs=fs, rules=[("cursor", ".cursor/rules")])
    assert [(f.path, f.content) for f in result.files] == [
        ("AGENTS.md", b"root\n"), (".cursor/rules/py.mdc", b"python\n"),
    ]
    assert result.available == ()
    go = agentsmd.chain("a/x.go", fs=fs, rules=[("cursor", ".cursor/rules")])
    assert [f.path for f in go.files] == ["AGENTS.md", "a/.cursor/rules/go.mdc"]


def test_section_11_a_session_gives_each_rule_once(tree: Tree) -> None:
    claude = BY_NAME["claude"]
    cursor = BY_NAME["cursor"]
    root = tree({
        "AGENTS.md": "root\n",
        claude.file("", "always"): "always\n",
        claude.file("", "py"): claude.glob("**/*.py") + "python\n",
        claude.file("", "go"): claude.glob("**/*.go") + "go\n",
        cursor.file("a/", "manual"): front("description: A's manual\n") + "manual\n",
    })
    options = [("claude", claude.dir), ("cursor", cursor.dir)]
    session = Session(root=root, rules=options)
    first = session.touch(root / "README")
    assert first == agentsmd.chain(root / "README", root=root, rules=options)
    assert [f.content for f in first.files] == [b"root\n", b"always\n"]
    # A glob rule is given at the first touch whose path matches it, once.
    assert [f.content for f in session.touch(root / "b" / "x.py").files] == [b"python\n"]
    assert session.touch(root / "c" / "y.py") == Result((), (), (), ())
    # An on-request rule is available in the delta of the touch that first looked its
    # directory up.
    a = session.touch(root / "a" / "z.go")
    assert [f.content for f in a.files] == [b"go\n"]
    assert [(r.name, r.description) for r in a.available] == [("manual", "A's manual")]
    assert session.touch(root / "a" / "w.py") == Result((), (), (), ())


def test_section_11_a_session_reports_warnings_and_probes_once(tree: Tree) -> None:
    claude = BY_NAME["claude"]
    root = tree({
        claude.file("", "py"): front("paths: ['[', '*.py']\n") + "python\n",
    })
    session = Session(root=root, rules=[("claude", claude.dir)], report=True)
    first = session.touch(root / "x.go")
    assert first.files == () and len(first.warnings) == 1
    assert (str(root / claude.file("", "py")), Outcome.NOT_MATCHED) in [
        (p.path, p.outcome) for p in first.probes
    ]
    later = session.touch(root / "y.py")
    assert [f.content for f in later.files] == [b"python\n"]
    assert later.warnings == ()


@pytest.mark.parametrize("dialect", ["Cursor", "vscode", "", "cursor:x"])
def test_section_11_an_unknown_dialect_is_an_invalid_argument(tree: Tree, dialect: str) -> None:
    root = tree({})
    with pytest.raises(agentsmd.InvalidArgumentError, match="dialect"):
        agentsmd.chain(root, root=root, rules=[(dialect, ".rules")])
    with pytest.raises(agentsmd.InvalidArgumentError, match="dialect"):
        Session(root=root, rules=[("cursor", ".cursor/rules"), (dialect, ".rules")])


@pytest.mark.parametrize("dir", ["", "a//b", "./rules", "a/..", "/rules", "rules/", "a\0b"])
def test_section_11_an_invalid_rule_directory_fails_as_a_fragment_directory(
    tree: Tree, dir: str
) -> None:
    root = tree({})
    with pytest.raises(agentsmd.InvalidArgumentError):
        agentsmd.chain(root, root=root, fragments=[dir])
    with pytest.raises(agentsmd.InvalidArgumentError, match="rule directory"):
        agentsmd.chain(root, root=root, rules=[("claude", dir)])
    with pytest.raises(agentsmd.InvalidArgumentError, match="rule directory"):
        Session(root=root, rules=[("claude", dir.encode())]).touch(root)


@pytest.mark.parametrize(
    "value",
    [".cursor/rules", ("cursor", ".cursor/rules"), [("cursor",)], [["cursor", "x"]],
     [(b"cursor", "x")], [("cursor", 3)], 3],
)
def test_section_11_rules_of_the_wrong_type_are_a_type_error(tree: Tree, value: object) -> None:
    root = tree({})
    with pytest.raises(TypeError, match="rules"):
        agentsmd.chain(root, root=root, rules=value)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules"):
        Session(root=root, rules=value)  # type: ignore[arg-type]


def test_section_11_the_rules_example(tree: Tree) -> None:
    root = tree({
        "AGENTS.md": "Run the tests before you commit.\n",
        ".cursor/rules/python.mdc": "---\nglobs: **/*.py\n---\nType every function.\n",
        ".cursor/rules/release.mdc": "---\ndescription: How to cut a release\n---\nTag it.\n",
        ".claude/rules/style.md": "Keep lines under 100 columns.\n",
        "src/main.py": "print('main')\n",
    })
    options = [("cursor", ".cursor/rules"), ("claude", ".claude/rules")]

    def run(path: str) -> bytes:
        out = subprocess.run(
            [sys.executable, str(EXAMPLES / "rules.py"), path],
            cwd=root, capture_output=True, check=True,
        )
        return out.stdout.replace(b"\r\n", b"\n")

    main = agentsmd.chain(root / "src" / "main.py", root=root, rules=options)
    assert rules(main) == [b"Type every function.\n", b"Keep lines under 100 columns.\n"]
    offer = b"- @release: How to cut a release\n"
    assert run("src/main.py") == agentsmd.render_bytes(main.files) + b"\n" + offer
    readme = agentsmd.chain(root / "README.md", root=root, rules=options)
    assert rules(readme) == [b"Keep lines under 100 columns.\n"]
    assert run("README.md") == agentsmd.render_bytes(readme.files) + b"\n" + offer
