"""The cache's file format: a JSON header line, then named sections, all checked by a SHA-256.

A cache file is only ever a value we wrote: its header names the format,
what it holds (``kind``) and the key it was built for, and carries the
SHA-256 of everything after the header. A file whose header, key or digest
does not match is not read (the caller rebuilds and overwrites it). Sections
are raw bytes (JSON text here), so reading one never runs code: no pickle,
no marshal.

Files are written to a temporary name in the same folder and renamed over
the old one, so a reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

FORMAT = 1
_HEADER_LIMIT = 64 * 1024


class CacheFile:
    """A checked cache file: its sections by name, as slices of the bytes read."""

    def __init__(self, data: bytes, body_start: int, sections: dict[str, tuple[int, int]], extra: dict[str, Any]):
        self._view = memoryview(data)
        self._start = body_start
        self._sections = sections
        self.extra = extra

    def section(self, name: str) -> memoryview:
        """A section's bytes (KeyError for a name the file does not have)."""
        start, length = self._sections[name]
        return self._view[self._start + start : self._start + start + length]

    def json(self, name: str) -> Any:
        return json.loads(bytes(self.section(name)))

    def __contains__(self, name: str) -> bool:
        return name in self._sections


def write_cache_file(path: Path, *, kind: str, key: str, sections: dict[str, bytes], extra: dict[str, Any] | None = None) -> None:
    """Write ``sections`` atomically (temporary file, then rename), readable only by this user."""
    body = b"".join(sections.values())
    offsets: dict[str, list[int]] = {}
    position = 0
    for name, data in sections.items():
        offsets[name] = [position, len(data)]
        position += len(data)
    header = {"format": FORMAT, "kind": kind, "key": key, "sha256": hashlib.sha256(body).hexdigest(), "sections": offsets, "extra": extra or {}}
    import tempfile  # writing is rare: a command that reads its cache never loads it (nor shutil, random)

    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(json.dumps(header, separators=(",", ":")).encode() + b"\n")
            out.write(body)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read_cache_file(path: Path, *, kind: str, key: str) -> CacheFile | None:
    """The file at ``path`` if it is a whole, unchanged cache of ``kind`` for ``key``; otherwise None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    end = data.find(b"\n", 0, _HEADER_LIMIT)
    if end < 0:
        return None
    try:
        header = json.loads(data[:end])
        if header.get("format") != FORMAT or header.get("kind") != kind or header.get("key") != key:
            return None
        sections = {str(name): (int(start), int(length)) for name, (start, length) in header["sections"].items()}
        digest, extra = header["sha256"], header.get("extra", {})
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    body_start = end + 1
    if hashlib.sha256(memoryview(data)[body_start:]).hexdigest() != digest:
        return None
    if any(start < 0 or length < 0 or body_start + start + length > len(data) for start, length in sections.values()):
        return None
    return CacheFile(data, body_start, sections, extra if isinstance(extra, dict) else {})
