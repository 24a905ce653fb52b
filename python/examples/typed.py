"""The package's API with its types, checked by `mypy --strict` (tests/install/python) and run
by the package's tests: `python typed.py PATH ROOT` prints the rendering of the chain at PATH,
what was left out, and the bounded block of the nearest file."""

from __future__ import annotations

import sys
from typing import Dict, List, Optional, Sequence

import agentsmd
from agentsmd import DirEntry, EntryKind, Stat


class OneFile:
    """A custom file system holding `AGENTS.md` in its root, in batches too."""

    def list(self, dir: str) -> Optional[Sequence[str]]:
        return ["AGENTS.md"] if dir == "." else None

    def stat(self, name: str) -> Optional[Stat]:
        if name == ".":
            return Stat(EntryKind.DIR)
        return Stat(EntryKind.FILE, 3) if name == "AGENTS.md" else None

    def read(self, name: str, limit: int) -> Optional[bytes]:
        return b"hi\n" if name == "AGENTS.md" else None

    def read_dirs(self, names: Sequence[str]) -> List[Optional[List[DirEntry]]]:
        return [[DirEntry("AGENTS.md", EntryKind.FILE, 3)] if n == "." else None for n in names]

    def read_files(self, names: Sequence[str], limit: int) -> List[Optional[bytes]]:
        return [b"hi\n" if n == "AGENTS.md" else None for n in names]


def upper(path: str, content: bytes) -> bytes:
    return content.upper()


def main(path: str, root: str) -> int:
    try:
        result: agentsmd.Result = agentsmd.chain(
            path, root=root, budget=32 << 10, imports=True, report=True
        )
    except agentsmd.TooLargeError as error:
        print(f"too large: {error.path}", file=sys.stderr)
        return 1
    except agentsmd.Error as error:
        print(f"{error.kind.value}: {error.message}", file=sys.stderr)
        return 1
    print(agentsmd.render(result.files))
    for omitted in result.omitted:
        reason: agentsmd.Reason = omitted.reason
        print(f"omitted {omitted.path} ({omitted.size} bytes): {reason.value}", file=sys.stderr)
    probes: Dict[agentsmd.Outcome, int] = {}
    for probe in result.probes:
        probes[probe.outcome] = probes.get(probe.outcome, 0) + 1
    rules: List[agentsmd.RuleDir] = [("cursor", ".cursor/rules"), ("claude", b".claude/rules")]
    ruled = agentsmd.chain(path, root=root, rules=rules)
    offered: List[agentsmd.Available] = list(ruled.available)
    warnings: List[str] = list(ruled.warnings)
    for rule in offered:
        print(f"available {rule.path} ({rule.name}): {rule.description}", file=sys.stderr)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    sources: List[agentsmd.Source] = [file.source for file in result.files]
    raw: List[bytes] = [file.path_bytes for file in result.files]
    assert len(sources) == len(raw)

    custom = agentsmd.chain("src/main.py", fs=OneFile(), transform=upper)
    assert custom.files[0].content == b"HI\n"
    with agentsmd.Session(fs=OneFile(), transform=upper, budget=1 << 10) as session:
        delta: agentsmd.Result = session.touch("src/main.py")
        assert delta == custom
        assert session.touch("src/lib.py").files == ()
    pairs: List[agentsmd.Instruction] = [("/workspace/AGENTS.md", custom.files[0].content)]
    assert agentsmd.render_bytes(pairs).startswith(b"<project_context>")

    document: Optional[agentsmd.Document] = agentsmd.parse_nearest(path, root=root)
    if document is not None:
        block: agentsmd.Block = agentsmd.block(document, cap=4096, heading="# Rules")
        dropped: List[str] = [d.title for d in block.dropped]
        print(block.block, file=sys.stderr)
        print(f"dropped: {dropped}; skills: {[s.name for s in document.skills]}", file=sys.stderr)
    overlay: Optional[str] = agentsmd.overlay_dir("/srv/users", "ada")
    assert overlay is not None
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
