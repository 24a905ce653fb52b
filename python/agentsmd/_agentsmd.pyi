"""Types of the extension module (python/src): the core's calls over bytes and tuples, which
the package's pure-Python layer wraps. Not an API of its own."""

from typing import Any, Dict, List, Optional, Tuple

PART_ID: str
DEFAULT_NAME: str
DEFAULT_MAX_BYTES: int
DEFAULT_IMPORT_DEPTH: int
DEFAULT_MAX_IMPORTS: int
DEFAULT_CAP: int
MIN_CAP: int
DEFAULT_HEADING: str
VERSION: str

FileRow = Tuple[bytes, bytes, str]
OmittedRow = Tuple[bytes, int, str, Optional[bytes]]
ImportRow = Tuple[bytes, bytes, int, int, int, bool]
ProbeRow = Tuple[bytes, str, str]
AvailableRow = Tuple[bytes, str, str]
Rows = Tuple[
    List[FileRow],
    List[OmittedRow],
    List[ImportRow],
    List[ProbeRow],
    List[AvailableRow],
    List[str],
    Optional[bytes],
]

class Parsed:
    @property
    def requested(self) -> List[bytes]: ...
    @property
    def skills(self) -> List[Tuple[bytes, str]]: ...
    @property
    def unknown(self) -> List[bytes]: ...
    @property
    def warnings(self) -> List[str]: ...

class Session:
    def __init__(self, options: Dict[str, Any]) -> None: ...
    def touch(self, path: bytes) -> Rows: ...
    def close(self) -> None: ...

def chain(path: bytes, options: Dict[str, Any]) -> Rows: ...
def render(files: List[Tuple[bytes, bytes]]) -> bytes: ...
def overlay_dir(users_dir: bytes, identity: bytes) -> Optional[bytes]: ...
def parse(path: bytes, options: Dict[str, Any]) -> Parsed: ...
def parse_text(text: bytes, options: Dict[str, Any]) -> Parsed: ...
def parse_nearest(path: bytes, options: Dict[str, Any]) -> Optional[Parsed]: ...
def block(
    parsed: Parsed,
    cap: Optional[int],
    heading: Optional[bytes],
    preamble: Optional[bytes],
    name: Optional[bytes],
    location: Optional[bytes],
) -> Tuple[bytes, int, List[Tuple[bytes, int]]]: ...
