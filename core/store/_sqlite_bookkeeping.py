"""SQL for the dispatcher's idempotency keys and call log.

The dispatcher decides what these mean; the store only keeps them. Neither
table is part of a transaction's ChangeSet or state digest. Because a
dry-run's transaction is rolled back, the dispatcher writes its log entries
in a transaction of their own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from .._call_log_row import CALL_LOG_COLUMNS, DIGEST_OF_TEXT, CallLogRow, args_digest_of
from .._json_encoder import JsonText
from ._errors import InvalidValue
from ._nesting import MAX_ARGUMENT_DEPTH, load_bounded
from ._rows import encode_json
from ._sqlite_base import SQLiteTxCore

_KEY_COLUMNS = ("caller", "key", "fingerprint", "response", "status", "created_at", "expires_at")
_JSON_COLUMNS = ("args", "detail")
_FLAGS = ("ok", "dry_run", "args_truncated")
_CALL_LOG_COLUMN_SET = frozenset(CALL_LOG_COLUMNS)
INSERT_CALL_LOG = f"INSERT INTO call_log ({', '.join(CALL_LOG_COLUMNS)}) VALUES ({', '.join('?' * len(CALL_LOG_COLUMNS))})"
"""The call log's INSERT with its columns named (PostgreSQL's: its ``seq`` takes no NULL)."""
_INSERT_CALL_LOG_BY_POSITION = f"INSERT INTO call_log VALUES (NULL, {','.join('?' * len(CALL_LOG_COLUMNS))})"
"""SQLite's: the same columns by position (``seq``, then CALL_LOG_COLUMNS, as the migrations made them).

apsw finds a statement in its cache by its text once per row of an
``executemany``, so the shorter text costs less on every call logged; a
column added later makes it fail loudly (too few values), and
tests/store/test_store_bookkeeping.py checks the table's column order.
"""
CALL_LOG_ROWS_AT_ONCE = 5
"""Rows an SQLite INSERT of the call log writes at once (a batch's last few go one by one).

``executemany`` hands its statement back to apsw's statement cache after every
row, and that cache is a ring of 100 slots that each hand-back moves on by one,
evicting what it lands on: a batch of 100 rows went round the whole ring, so
the thread's next read prepared its four statements again (about 4 k
instructions a get with the log written every 100 gets). Five rows a statement
hand it back twenty times a batch. More rows a statement cost SQLite more per
row (a flush of 100 gets: 22.5 k an entry with 5, 23.7 k with 10, 26.0 k with
20, 22.3 k one by one).
"""
_INSERT_CALL_LOG_ROWS = "INSERT INTO call_log VALUES " + ",".join(
    [f"(NULL,{','.join('?' * len(CALL_LOG_COLUMNS))})"] * CALL_LOG_ROWS_AT_ONCE)
# append_call_logs spells its row in this order.
assert CALL_LOG_COLUMNS == ("ts", "trace_id", "op", "tool_name", "duration_ms", "ok", "code", "dry_run", "caller", "args_digest",
                            "args", "args_truncated", "kind", "session_id", "chain_id", "parent_id", "lane", "detail")


def _later(stamp: str, seconds: int) -> str:
    moment = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    return (moment + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _decoded(rows: list) -> list[dict]:
    entries = [dict(zip(CALL_LOG_COLUMNS, row)) for row in rows]
    for entry in entries:
        if entry["args_digest"] == DIGEST_OF_TEXT and entry["args"] is not None:
            entry["args_digest"] = args_digest_of(entry["args"])  # the stored text is the digest's own (see DIGEST_OF_TEXT)
        for flag in _FLAGS:
            entry[flag] = bool(entry[flag])
        for column in _JSON_COLUMNS:
            if entry[column] is not None:
                # The log keeps the arguments of refused calls too, however deep they were.
                entry[column] = load_bounded(entry[column], MAX_ARGUMENT_DEPTH)
    return entries


class BookkeepingReads(SQLiteTxCore):
    def get_idempotency_key(self, caller: str, key: str, *, include_expired: bool = False) -> dict | None:
        where = "caller = ? AND key = ?" + ("" if include_expired else " AND expires_at > ?")
        params = [caller, key] + ([] if include_expired else [self._clock()])
        rows = self._fetch(f"SELECT {', '.join(_KEY_COLUMNS)} FROM idempotency_keys WHERE {where}", params)
        if not rows:
            return None
        record = dict(zip(_KEY_COLUMNS, rows[0]))
        if record["response"] is not None:
            record["response"] = json.loads(record["response"])
        return record

    def recent_calls(self, limit: int = 50, *, caller: str | None = None, op: str | None = None, kind: str | None = "exec") -> list[dict]:
        where, params = ["TRUE"], []
        for column, value in (("caller", caller), ("op", op), ("kind", kind)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        rows = self._fetch(
            f"SELECT {', '.join(CALL_LOG_COLUMNS)} FROM call_log WHERE {' AND '.join(where)}"
            " ORDER BY seq DESC LIMIT ?",
            [*params, limit],
        )
        return _decoded(rows)

    def calls_since(self, since: str | None = None, *, limit: int = 100_000) -> list[dict]:
        """Call-log entries of every kind stamped at or after ``since`` (all when ``None``), oldest first."""
        where, params = ("ts >= ?", [since]) if since else ("TRUE", [])
        rows = self._fetch(
            f"SELECT {', '.join(CALL_LOG_COLUMNS)} FROM call_log WHERE {where}"
            " ORDER BY seq DESC LIMIT ?",
            [*params, limit],
        )
        return _decoded(rows[::-1])


def call_log_rows(entries: Sequence[Mapping[str, Any] | CallLogRow | tuple[Any, ...]], clock: Callable[[], str]) -> list[tuple[Any, ...]]:
    """Call-log entries as rows of CALL_LOG_COLUMNS values, checked and encoded.

    An entry is a dict of columns, a :class:`CallLogRow` (a row with its ``detail``
    still to encode) or a plain tuple, a row made whole (``exec_row``'s), passed on as it is.

    Apart from the transaction, so that a writer can make them before it
    takes the write lock and hold the lock only for the INSERT.
    """
    rows = []
    for entry in entries:
        kind = type(entry)
        if kind is tuple:  # an exec's row, made whole by the call log's writer (a plain tuple: apsw binds it without a copy)
            rows.append(entry)
            continue
        if kind is CallLogRow:  # an exec's row with its detail still to encode
            detail = entry[-1]
            rows.append((*entry[:-1], None if detail is None else encode_json(detail)))
            continue
        if not _CALL_LOG_COLUMN_SET.issuperset(entry):
            unknown = set(entry) - _CALL_LOG_COLUMN_SET
            raise InvalidValue(sorted(unknown)[0], "is not a call-log column", CALL_LOG_COLUMNS)
        # One tuple per entry in CALL_LOG_COLUMNS order, made in one go: the writer thread
        # writes every call, so each step here is paid once per call.
        get = entry.get
        args, detail = get("args"), get("detail")
        rows.append((
            get("ts") or clock(), get("trace_id"), get("op"), get("tool_name"), get("duration_ms"),
            1 if get("ok") else 0, get("code"), 1 if get("dry_run") else 0, get("caller"), get("args_digest"),
            None if args is None else args if type(args) is JsonText else encode_json(args), 1 if get("args_truncated") else 0, get("kind") or "exec",
            get("session_id"), get("chain_id"), get("parent_id"), get("lane"),
            None if detail is None else encode_json(detail),
        ))
    return rows


class BookkeepingWrites(BookkeepingReads):
    def put_idempotency_key(
        self, caller: str, key: str, *, fingerprint: str, status: str, response: Any = None,
        ttl_seconds: int = 86400,
    ) -> dict:
        now = self._clock()
        record = {
            "caller": caller, "key": key, "fingerprint": fingerprint,
            "response": response, "status": status,
            "created_at": now, "expires_at": _later(now, ttl_seconds),
        }
        stored = {**record, "response": None if response is None else encode_json(response)}
        self._run(
            f"INSERT OR REPLACE INTO idempotency_keys ({', '.join(_KEY_COLUMNS)})"
            f" VALUES ({', '.join('?' * len(_KEY_COLUMNS))})",
            [stored[c] for c in _KEY_COLUMNS],
        )
        return record

    def delete_expired_idempotency_keys(self) -> int:
        return self._run("DELETE FROM idempotency_keys WHERE expires_at <= ?", (self._clock(),))

    def append_call_log(self, entry: Mapping[str, Any]) -> None:
        self.append_call_logs([entry])

    def append_call_logs(self, entries: Sequence[Mapping[str, Any]]) -> None:
        self.insert_call_log_rows(call_log_rows(entries, self._clock))

    _insert_call_log = _INSERT_CALL_LOG_BY_POSITION
    _call_log_rows_at_once = CALL_LOG_ROWS_AT_ONCE

    def insert_call_log_rows(self, rows: list[tuple[Any, ...]]) -> None:
        """Insert rows made by :func:`call_log_rows`, in call order: :data:`CALL_LOG_ROWS_AT_ONCE` a statement, then the rest one by one."""
        at_once = self._call_log_rows_at_once
        whole = len(rows) - len(rows) % at_once if at_once > 1 else 0
        if whole:
            # Extended row by row: a tuple extends a list at C speed, where chain.from_iterable's iterator paid about
            # 50 instructions a value (1.3 k a row).
            values: list[Any] = []
            for row in rows[:whole]:
                values += row
            width = at_once * len(CALL_LOG_COLUMNS)
            self._run_many(_INSERT_CALL_LOG_ROWS, [values[start:start + width] for start in range(0, len(values), width)])
        if whole < len(rows):
            self._run_many(self._insert_call_log, rows[whole:])

    def delete_old_calls(self, *, older_than: str, keep_newest: int) -> int:
        before = self._run("DELETE FROM call_log WHERE ts < ?", (older_than,))
        return before + self._run(
            "DELETE FROM call_log WHERE seq <= (SELECT max(seq) FROM call_log) - ?", (keep_newest,),
        )
