"""A refusal's headline names the argument its first problem is about.

A field error's message leaves the argument to its ``field``; quoted alone in
the headline, "is too short; expected at least 71 characters" named nothing
(GitHub's ``subject_digest``, through Prism).
"""

from __future__ import annotations

from opgate.core import Gateway


def test_the_headline_names_the_argument(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", call_log=False)
    try:
        wrong = gateway.exec("onto.task.get", {"task_id": 5})["error"]
        assert wrong["message"] == "1 problem with the arguments of onto.task.get: task_id: 5 is a whole number; expected text", wrong
        assert wrong["details"]["field_errors"][0]["message"] == "5 is a whole number; expected text"  # the field's own message is unchanged
        missing = gateway.exec("onto.task.get", {})["error"]["message"]
        assert missing.endswith("missing required argument 'task_id' (string (uuid))"), missing  # already named: not named twice
    finally:
        gateway.close()
