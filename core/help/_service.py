"""``help``: path routing, the unknown-path error, and the cache."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .._scopes import everything
from ..echo_text import quoted, shortened
from ..registry._record import OpRecord
from ..registry._registry import Registry
from .._cursor import BadCursor
from ._listing import KIND_SUFFIXES, group_listing, root_listing
from ._render import render_op
from ._tree import HelpTree

FORMATS = ("short", "full")
CACHE_LIMIT = 4096
# Up to this many ops, an unknown path is compared with every path; beyond, with those near it
# (difflib over the 100,000 paths of a big catalogue takes seconds).
FUZZY_ALL_PATHS = 5000
ROOT_ALIASES = ("", "root", ".")


OP_HELP_CHAR_LIMIT = 64_000
"""Most characters of one op's help. Twilio's largest (siprec.create, ~200 arguments, full with its schema) is 44,000;
an upstream tool of 20,000 properties answered 1.5 MB, all of it in the asking model's context."""


_USAGE_CHARS = 2_000


def _bounded_op_help(answer: dict[str, Any]) -> dict[str, Any]:
    """An op's help cut like an exec result (longest lists first, then the longest strings), saying what was cut."""
    from ..exec._results import bound_result

    cuts = []
    usage = answer.get("usage")
    if isinstance(usage, str) and len(usage) > _USAGE_CHARS:
        # The usage line names every argument: cut first, so that the arguments themselves are what is kept.
        cuts.append({"path": "usage", "kind": "text", "total_chars": len(usage), "shown_chars": _USAGE_CHARS})
        answer = {**answer, "usage": usage[:_USAGE_CHARS] + f" …[truncated: {len(usage) - _USAGE_CHARS} more characters]"}
    bounded, more = bound_result(answer, OP_HELP_CHAR_LIMIT, root="")
    cuts += more
    for cut in cuts:
        cut["how_to_get_more"] = f"one op's help is bounded to {OP_HELP_CHAR_LIMIT:,} characters; the rest of this part is left out"
    return {**bounded, "truncated": cuts}


def help_error(path: str, code: str, message: str, hints: list[str], next_action: str) -> dict[str, Any]:
    """The discovery error shape: what went wrong, where to look, and what to call next."""
    # The path is what the caller asked for: echoed cut short (a megabyte path came back whole).
    return {"ok": False, "path": shortened(path), "error": {"code": code, "message": message, "hints": hints, "next_action": next_action}}


class HelpService:
    """Answers ``help`` over the ops a caller may see, caching each answer.

    The cache key is (registry version, path, format, include_examples,
    include_schemas); a new registry version never reads an old answer. Answers
    are cached as JSON text and parsed per call, so a caller that edits its
    answer cannot corrupt the cache.
    """

    def __init__(
        self, registry: Registry, visible: Callable[[OpRecord], bool] | None = None, *,
        unavailable: Callable[[str], str | None] | None = None, unlisted: Callable[[], list[dict[str, str]]] | None = None,
    ):
        self.registry = registry
        self._unavailable = unavailable  # why an upstream namespace has no ops now (asked only when a path is unknown)
        self._unlisted = unlisted  # the upstreams offering no ops now, for the root (asked on each root answer: never cached)
        self._visible = visible or everything
        if self._visible is everything:
            self.tree = HelpTree.from_ops(registry.ops, registry.kinds(), registry.get)
        else:
            self.tree = HelpTree(r for r in registry if self._visible(r))
        self._cache: dict[tuple[Any, ...], str] = {}

    def help(self, path: str | None = "", format: str = "short", include_examples: bool = True, include_schemas: bool = False, cursor: str | None = None) -> dict[str, Any]:
        """Help for a path. A root or group answer over 4 KB comes in pages; ``cursor`` (from ``page.next_cursor``) asks for the next."""
        if path is not None and not isinstance(path, str):
            return help_error("root", "VALIDATION_ERROR", "path must be a string such as 'onto.task' ('' for the groups)", [], "help(path='')")
        if not isinstance(format, str):
            return help_error(path or "root", "VALIDATION_ERROR", "format must be 'short' or 'full'", list(FORMATS), f"help(path={quoted(path)})")
        if cursor is not None and not isinstance(cursor, str):
            return help_error(path or "root", "VALIDATION_ERROR", "cursor must be the string a previous help answer gave as page.next_cursor", [], f"help(path={quoted(path)})")
        key = (self.registry.version, path, format, bool(include_examples), bool(include_schemas), cursor or None)
        cached = self._cache.get(key)
        if cached is None:
            try:
                answer = self._answer(path, format, include_examples, include_schemas, cursor or None)
            except BadCursor as exc:
                answer = help_error(path or "root", "VALIDATION_ERROR", str(exc), [], f"help(path={quoted(path)})")
            cached = json.dumps(answer, separators=(",", ":"))
            if len(cached) > OP_HELP_CHAR_LIMIT and answer.get("type") == "op":
                answer = _bounded_op_help(answer)
                cached = json.dumps(answer, separators=(",", ":"))
            if len(self._cache) >= CACHE_LIMIT:
                # Oldest first: a long-running server asked for many unknown paths must not grow without end.
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = cached
        answer = json.loads(cached)
        if self._unlisted is not None and cursor is None and answer.get("type") == "root":
            # A namespace that failed to start is still the person's configuration: the root says it is there, and why it is empty.
            down = self._unlisted()
            if down:
                answer["unavailable"] = [{**line, "next": f"help(path={quoted(line['name'])}) says more; retried on later calls"} for line in down]
        if self._unavailable is not None and answer.get("ok") is False and answer["error"]["code"] == "UNKNOWN_PATH":
            # Not cached: the reason changes with each try, and the upstream may answer at any moment.
            return self._unavailable_answer(path) or answer
        return answer

    def _unavailable_answer(self, path: str) -> dict[str, Any] | None:
        namespace = path.strip().strip(".").lower().partition(".")[0]
        why = self._unavailable(namespace) if namespace else None
        if not why:
            return None
        answer = help_error(path, "UPSTREAM_UNAVAILABLE", why, sorted(self.tree.root.children), "help(path='')")
        answer["error"]["retryable"] = True
        return answer

    def _answer(self, raw_path: str | None, format: str, include_examples: bool, include_schemas: bool, cursor: str | None) -> dict[str, Any]:
        path = (raw_path or "").strip().strip(".").lower() if isinstance(raw_path, str) else ""
        if format not in FORMATS:
            return help_error(path or "root", "VALIDATION_ERROR", f"format must be 'short' or 'full', not {quoted(format)}", list(FORMATS), f"help(path={quoted(path)}, format='short')")
        summaries = self.registry.group_summaries
        tree, version = self.tree, self.registry.version
        if path in ROOT_ALIASES:
            return root_listing(tree.root, summaries, tree.record_of).answer(cursor, version)
        node = tree.node(path)
        if node is not None and node.record is not None and not node.children:
            return render_op(node.record, full=format == "full", include_examples=include_examples, include_schemas=include_schemas)
        if node is not None:
            payload = group_listing(node, summaries, tree.kind_of, tree.record_of, include_schemas=include_schemas).answer(cursor, version)
            if node.record is not None:
                payload["op"] = render_op(node.record, full=format == "full", include_examples=include_examples, include_schemas=include_schemas)
            return payload
        base, _, suffix = path.rpartition(".")
        if suffix in KIND_SUFFIXES and self.tree.node(base) is not None:
            group = tree.node(base)
            return group_listing(group, summaries, tree.kind_of, tree.record_of, kind=suffix, include_schemas=include_schemas).answer(cursor, version)  # type: ignore[arg-type]
        record = self.registry.resolve(raw_path.strip() if isinstance(raw_path, str) else "")
        if record is not None and self._visible(record):
            payload = render_op(record, full=format == "full", include_examples=include_examples, include_schemas=include_schemas)
            payload["notes"] = [f"{raw_path!r} is the tool name of {record.op}; use the op name with exec.", *payload.get("notes", [])]
            return payload
        return self._unknown(path)

    def closest_paths(self, path: str, limit: int = 3) -> list[str]:
        """Nearest existing paths: fuzzy matches first, then the deepest existing prefix."""
        paths = self.tree.paths if len(self.tree.ops) <= FUZZY_ALL_PATHS else self._nearby_paths(path)
        import difflib  # only an unknown path needs it: every help would pay for the import

        hints = difflib.get_close_matches(path, paths, n=limit, cutoff=0.6)
        # Also compare the last segment alone, so "onto.tsk.list" still finds "onto.task.list".
        if len(hints) < limit:
            tail = path.rsplit(".", 1)[-1]
            for candidate in paths:
                if candidate not in hints and candidate.rsplit(".", 1)[-1] == tail and difflib.SequenceMatcher(None, path, candidate).ratio() > 0.5:
                    hints.append(candidate)
        prefix = path
        while prefix and self.tree.node(prefix) is None:
            prefix = prefix.rpartition(".")[0]
        if prefix and prefix not in hints:
            hints.append(prefix)
        return hints[: limit + 1]

    def _nearby_paths(self, path: str) -> list[str]:
        """Paths up to two levels under the deepest part of ``path`` that exists (at most FUZZY_ALL_PATHS)."""
        prefix = path
        while prefix and self.tree.node(prefix) is None:
            prefix = prefix.rpartition(".")[0]
        node = self.tree.node(prefix) or self.tree.root
        found: list[str] = []
        for child in node.children.values():
            found.append(child.path)
            found.extend(grandchild.path for grandchild in child.children.values())
            if len(found) >= FUZZY_ALL_PATHS:
                break
        return found

    def _unknown(self, path: str) -> dict[str, Any]:
        hints = self.closest_paths(path)
        nearest = hints[0] if hints else "root"
        message = f"There is no help path {quoted(path)}."
        if hints:
            message += f" Did you mean {hints[0]!r}?"
        return help_error(path, "UNKNOWN_PATH", message, hints or sorted(self.tree.root.children), f"help(path={nearest!r})")
