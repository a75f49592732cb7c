"""A YAML OpenAPI document built to explode (aliases of aliases) or to nest without end is a load problem, not a hang or a traceback."""

from __future__ import annotations

import subprocess
import sys

LAUGHS = "\n".join(
    ["openapi: 3.0.3", "info: {title: laughs, version: '1'}", "x-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"x-{b}: &{b} [{', '.join(['*' + a] * 9)}]" for a, b in zip("abcdefgh", "bcdefghi")]
    + ["paths:", "  /x:", "    get:", "      operationId: getX",
       "      parameters: [{name: q, in: query, schema: {type: string, enum: *i}}]",
       "      responses: {'200': {description: ok}}", ""]
)


def _help(tmp_path, document) -> subprocess.CompletedProcess:
    toml = tmp_path / "opgate.toml"
    toml.write_text(f'[upstreams.bomb]\nopenapi = "{document}"\nbase_url = "http://127.0.0.1:9"\n', encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "opgate", "--config", str(toml), "--db", str(tmp_path / "w.db"), "help"], capture_output=True, text=True, timeout=60)


def test_aliases_that_expand_to_a_billion_values_are_refused(tmp_path):
    document = tmp_path / "laughs.yaml"
    document.write_text(LAUGHS, encoding="utf-8")
    shown = _help(tmp_path, document)
    assert "expand to more than 2,000,000 values" in shown.stderr, shown.stderr
    assert "Traceback" not in shown.stderr and shown.returncode == 0, shown.stderr


def test_yaml_nested_past_the_parser_is_refused(tmp_path):
    document = tmp_path / "deep.yaml"
    document.write_text("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\nx: " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    shown = _help(tmp_path, document)
    assert "YAML nested too deeply" in shown.stderr, shown.stderr
    assert "Traceback" not in shown.stderr and shown.returncode == 0, shown.stderr
