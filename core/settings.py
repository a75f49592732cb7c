"""Settings a gateway runs with: limits, timeouts and the web tools' configuration."""

from __future__ import annotations

import os

from ._record import field, record


@record(frozen=True)
class WebSettings:
    """How ``util.web.*`` reach the network.

    ``search_url`` is a search provider endpoint that answers
    ``GET ?q=...&count=N`` with JSON results; without it ``util.web.search``
    answers with a clear error. Private and link-local addresses are refused
    unless ``allow_private_addresses`` is set (tests set it for their local
    server).
    """

    search_url: str | None = field(default_factory=lambda: os.environ.get("OPGATE_SEARCH_URL") or None)
    search_api_key: str | None = field(default_factory=lambda: os.environ.get("OPGATE_SEARCH_API_KEY") or None)
    allow_private_addresses: bool = False
    timeout_s: float = 10.0
    max_bytes: int = 2_000_000
    user_agent: str = "opgate/0.1 (+https://pypi.org/project/opgate/)"


def _seconds_from_env(name: str, default: float) -> float:
    text = os.environ.get(name)
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise ValueError(f"the environment variable {name} must be a number of seconds above 0, not {text!r}")
    return value


@record(frozen=True)
class GatewaySettings:
    """Limits for exec and batch. Times are in seconds unless the name says otherwise.

    ``OPGATE_HARD_TIMEOUT_S`` sets the hard timeout of every call (an upstream
    MCP server's slow tool included) for front ends that have no option for it.
    """

    hard_timeout_s: float = field(default_factory=lambda: _seconds_from_env("OPGATE_HARD_TIMEOUT_S", 30.0))
    default_latency_budget_ms: int = 1000
    read_retries: int = 2
    retry_backoff_s: float = 0.05
    result_char_limit: int = 16_000
    idempotency_ttl_s: int = 24 * 3600
    batch_concurrency: int = 3
    batch_max_steps: int = 50
    batch_char_limit: int = 48_000
    """Most characters of JSON a batch answers with, all its steps together (three whole answers); past it the largest steps are cut."""
    # Worker processes for tool-folder handlers: started on first use, reused across calls.
    handler_workers: int = 2
    call_log_args_chars: int = 4096
    """Most characters of a call's arguments (as JSON) the call log keeps; longer ones are cut."""
    call_log_keep_days: int = 30
    call_log_keep_rows: int = 100_000
    """The call log is swept of entries older than ``call_log_keep_days`` and beyond the newest ``call_log_keep_rows``."""
    call_log_flush_s: float = 0.25
    call_log_flush_entries: int = 256
    """The call log's writer commits its queue this often, or sooner once this many entries wait.

    Each commit of the log takes the workspace's write lock on SQLite and makes
    every other process's next transaction start from a cold page cache, so
    the window is long enough that a busy process commits its log a few times
    a second, not twenty; a process killed outright (SIGKILL) loses at most
    this much of its log."""
    web: WebSettings = field(default_factory=WebSettings)
