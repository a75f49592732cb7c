"""Content blocks' annotations (audience, priority) reach the caller, against the real everything server.

Its annotated-message tool marks an error for the user and the assistant at
priority 1, a debug line for the assistant only, and its image for the user:
opgate once dropped all of that and gave the bare text.
"""

from __future__ import annotations

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams


def test_each_block_keeps_its_annotations_and_a_lone_text_has_them_in_meta(tmp_path, modules):
    config = us.write_config(tmp_path / "servers.json", {"everything": us.everything(modules)})
    gateway = Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([config]))
    try:
        blocks = gateway.exec("everything.annotated_message.get", {"messageType": "error", "includeImage": True})
        assert blocks["ok"], blocks
        text, image = blocks["result"]
        assert text["annotations"] == {"audience": ["user", "assistant"], "priority": 1.0}
        assert image["type"] == "image" and image["annotations"]["audience"] == ["user"]
        alone = gateway.exec("everything.annotated_message.get", {"messageType": "debug"})
        assert alone["ok"] and alone["result"].startswith("Debug:"), alone
        assert alone["meta"]["content_annotations"] == {"audience": ["assistant"], "priority": 0.3}
        plain = gateway.exec("everything.echo", {"message": "hi"})
        assert plain["ok"] and "content_annotations" not in plain["meta"], plain
    finally:
        gateway.close()
