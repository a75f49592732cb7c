"""JSON-RPC errors an upstream answers with are its answer, not a lost connection."""

from __future__ import annotations

import os
import time
import sys
from pathlib import Path

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams

HERE = Path(__file__).parent


def test_a_server_error_with_code_32000_is_reported_as_its_answer_and_the_server_kept(tmp_path, db):
    """-32000 is the SDK's code for a closed connection and any server's first implementation-defined code: an upstream's
    own -32000 error was reported as 'closed the connection', and its healthy process was killed and started again."""
    config = us.write_config(tmp_path / "servers.json", {"erring": {"command": sys.executable, "args": [str(HERE / "erring_server.py")], "env": {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}}})
    gateway = Gateway(db_path=db, upstreams=Upstreams.from_files([config]), allow_write=True)
    try:
        before = gateway.exec("erring.whoami", {})
        assert before["ok"], before
        failed = gateway.exec("erring.fail", {"code": -32000})
        error = failed["error"]
        assert error["code"] == "INTERNAL" and "the widget is jammed" in error["message"] and "(error -32000)" in error["message"], error
        assert "closed the connection" not in error["message"]
        after = gateway.exec("erring.whoami", {})
        assert after["ok"] and after["result"] == before["result"], "the same server process answers"
    finally:
        gateway.close()


def _erring_gateway(tmp_path, db) -> Gateway:
    config = us.write_config(tmp_path / "servers.json", {"erring": {"command": sys.executable, "args": [str(HERE / "erring_server.py")], "env": {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}}})
    return Gateway(db_path=db, upstreams=Upstreams.from_files([config]), allow_write=True)


def test_an_answer_past_the_bound_is_not_read_and_the_server_restarts(tmp_path, db):
    """A 65 MiB answer was read whole (each chunk joined onto the line so far: minutes of copying) and every other
    call on that pipe waited behind it. Past MAX_ANSWER_BYTES it is refused with a clear error, as the HTTP executor does."""
    from opgate.core.executors._base import MAX_ANSWER_BYTES

    gateway = _erring_gateway(tmp_path, db)
    try:
        before = gateway.exec("erring.whoami", {})
        assert before["ok"], before
        started = time.monotonic()
        answer = gateway.exec("erring.sized", {"size": MAX_ANSWER_BYTES + 1_000_000})
        assert time.monotonic() - started < 30
        error = answer["error"]
        assert error["code"] == "INTERNAL" and not error.get("retryable"), error
        assert f"more than {MAX_ANSWER_BYTES:,} bytes" in error["message"] and "ask for less" in error["message"], error
        after = gateway.exec("erring.whoami", {})
        assert after["ok"] and after["result"] != before["result"], "a fresh server answers the next call"
    finally:
        gateway.close()


def test_a_large_answer_within_the_bound_comes_back_cut_with_meta_truncated(tmp_path, db):
    gateway = _erring_gateway(tmp_path, db)
    try:
        started = time.monotonic()
        answer = gateway.exec("erring.sized", {"size": 20_000_000})
        assert answer["ok"], answer.get("error")
        assert time.monotonic() - started < 30
        assert len(answer["result"]) < 20_000 and answer["meta"]["truncated"], answer["meta"]
    finally:
        gateway.close()


def test_a_megabyte_text_is_cut_once_to_nearly_the_limit_with_one_truncated_entry(tmp_path, db):
    """A 1 MB text in a structured answer ({"result": text}) was cut twice: to the limit, then (its marker pushing it just
    past) by half again, with two meta.truncated entries for the one string, the second counting the first's marker."""
    gateway = _erring_gateway(tmp_path, db)
    try:
        answer = gateway.exec("erring.sized", {"size": 1_000_000})
        assert answer["ok"], answer.get("error")
        cuts = answer["meta"]["truncated"]
        assert len(cuts) == 1, cuts
        cut = cuts[0]
        assert cut["path"] == "result.result" and cut["total_chars"] == 1_000_000, cut
        limit = gateway.settings.result_char_limit
        assert limit - 200 < cut["shown_chars"] < limit, cut
        assert answer["result"]["result"].endswith(f"[truncated: {1_000_000 - cut['shown_chars']} more characters]")
    finally:
        gateway.close()


def test_a_storm_of_tools_changed_notifications_lists_the_server_a_few_times_not_once_each(tmp_path, db):
    """Each notifications/tools/list_changed started its own tools/list and registry rebuild: 500 in a row made 500 of
    each. A relisting not started yet covers later notifications; one running is followed by one more, never more."""
    gateway = _erring_gateway(tmp_path, db)
    try:
        before = gateway.exec("erring.lists", {})["result"]["result"]
        assert gateway.exec("erring.storm", {"times": 500})["ok"]
        time.sleep(3)
        after = gateway.exec("erring.lists", {})["result"]["result"]
        # How many depends on how many notifications arrive during each listing (26 at a load of 12 on 2 cores, 9 idle).
        assert 1 <= after - before <= 100, (before, after)
        assert gateway.upstreams.status()[0]["state"] == "connected"
    finally:
        gateway.close()


def test_a_missing_working_folder_is_named_as_such_not_as_a_missing_command(tmp_path, db):
    """The spawn's FileNotFoundError named the folder, and the start was reported as "the command was not found"."""
    missing = tmp_path / "no-such-folder"
    config = us.write_config(tmp_path / "servers.json", {"erring": {"command": sys.executable, "args": [str(HERE / "erring_server.py")], "cwd": str(missing)}})
    gateway = Gateway(db_path=db, upstreams=Upstreams.from_files([config]))
    try:
        gateway.upstreams.ensure_listed()
        [line] = gateway.upstreams.status()
        assert line["state"] == "failed" and f"working folder (cwd) {missing} does not exist" in line["last_error"], line
        assert "command was not found" not in line["last_error"]
    finally:
        gateway.close()
