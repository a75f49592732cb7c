"""The local copy ``persist`` keeps of a visited page: one JSON file per URL.

Files live under ``platformdirs.user_cache_dir("opgate")/web`` and hold the
page as read (final URL, status, media type, text), not as rendered, so a
later visit may ask for another mode or format. Entries expire after
``CACHE_TTL_S``; a broken or unreadable entry is treated as absent.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from ._web_fetch import Fetched

CACHE_TTL_S = 24 * 3600


class PageCache:
    """Pages kept by ``util.web.visit`` with ``persist``; ``root`` defaults to the user cache dir."""

    def __init__(self, root: Path | None = None, *, ttl_s: float = CACHE_TTL_S):
        self._root = root
        self.ttl_s = ttl_s

    @property
    def root(self) -> Path:
        if self._root is None:
            import platformdirs

            self._root = Path(platformdirs.user_cache_dir("opgate")) / "web"
        return self._root

    def _path(self, url: str) -> Path:
        return self.root / (hashlib.sha256(url.encode("utf-8")).hexdigest() + ".json")

    def get(self, url: str) -> tuple[Fetched, float] | None:
        """The kept page for ``url`` and its age in seconds, or ``None`` if none is kept or it expired."""
        try:
            entry = json.loads(self._path(url).read_text(encoding="utf-8"))
            age = time.time() - float(entry.pop("saved_at"))
            fetched = Fetched(**entry)
        except (OSError, ValueError, TypeError, KeyError):
            return None
        if fetched.url != url or not 0 <= age <= self.ttl_s:
            return None
        return fetched, age

    def put(self, fetched: Fetched) -> None:
        """Keep ``fetched`` under its requested URL; raises ``OSError`` if the cache cannot be written."""
        path = self._path(fetched.url)
        path.parent.mkdir(parents=True, exist_ok=True)
        body = json.dumps({**asdict(fetched), "saved_at": time.time()}, ensure_ascii=False)
        # Write then rename, so a concurrent reader never sees half a file.
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(body)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
