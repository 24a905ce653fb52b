"""A file system in memory for the tests: a dict of names to bytes, directories implied."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from agentsmd import DirEntry, EntryKind, Stat


class MemoryFs:
    """`files` maps names (`a/b/AGENTS.md`) to contents; every parent is a directory. `calls`
    records each question asked, as `(method, name)`."""

    def __init__(self, files: Dict[str, bytes]) -> None:
        self.files = files
        self.calls: List[tuple[str, object]] = []

    def _dirs(self) -> set[str]:
        dirs = {"."}
        for name in self.files:
            parts = name.split("/")[:-1]
            dirs.update("/".join(parts[: i + 1]) for i in range(len(parts)))
        return dirs

    def _children(self, dir: str) -> List[str]:
        prefix = "" if dir == "." else dir + "/"
        names = {
            name[len(prefix):].split("/")[0]
            for name in list(self.files) + sorted(self._dirs() - {"."})
            if name.startswith(prefix) and name != dir
        }
        return sorted(names)

    def list(self, dir: str) -> Optional[Sequence[str]]:
        self.calls.append(("list", dir))
        return self._children(dir) if dir in self._dirs() else None

    def stat(self, name: str) -> Optional[Stat]:
        self.calls.append(("stat", name))
        if name in self.files:
            return Stat(EntryKind.FILE, len(self.files[name]))
        return Stat(EntryKind.DIR) if name in self._dirs() else None

    def read(self, name: str, limit: int) -> Optional[bytes]:
        self.calls.append(("read", name))
        return self.files.get(name)


class BatchMemoryFs(MemoryFs):
    """MemoryFs that also answers in batches."""

    def read_dirs(self, names: Sequence[str]) -> Sequence[Optional[Sequence[DirEntry]]]:
        self.calls.append(("read_dirs", tuple(names)))
        answer: List[Optional[Sequence[DirEntry]]] = []
        for dir in names:
            if dir not in self._dirs():
                answer.append(None)
                continue
            prefix = "" if dir == "." else dir + "/"
            entries = []
            for child in self._children(dir):
                name = prefix + child
                if name in self.files:
                    entries.append(DirEntry(child, EntryKind.FILE, len(self.files[name])))
                else:
                    entries.append(DirEntry(child, EntryKind.DIR))
            answer.append(entries)
        return answer

    def read_files(self, names: Sequence[str], limit: int) -> Sequence[Optional[bytes]]:
        self.calls.append(("read_files", tuple(names)))
        return [self.files.get(name) for name in names]
