"""A catalogue of any size made from Twilio's 1,447 real operations, for the benchmarks at scale.

Copy ``k`` of Twilio renames each product (``api_v2010`` -> ``api_v2010_r7``),
so every op is distinct, the text is real, and groups grow the way a big
organisation's catalogue would: many products under one namespace.
The file is written once per size into the folder given (a temp dir).
"""

from __future__ import annotations

import json
from pathlib import Path

TWILIO = Path(__file__).resolve().parents[2] / "shared" / "data" / "catalogs" / "twilio_openapi_tools.json"


def scaled_tools(size: int) -> list[dict]:
    tools = json.loads(TWILIO.read_text(encoding="utf-8"))["tools"]
    made: list[dict] = []
    copy = 0
    while len(made) < size:
        for tool in tools:
            if len(made) == size:
                break
            product, _, operation = tool["op"].partition(".")
            suffix = f"_r{copy}" if copy else ""
            made.append({**tool, "name": f"{tool['name']}{suffix}", "op": f"{product}{suffix}.{operation}"})
        copy += 1
    return made


def scaled_catalog(size: int, folder: Path) -> Path:
    """The path of a catalogue of ``size`` ops in ``folder`` (written on first use)."""
    path = Path(folder) / f"twilio_x{size}.json"
    if not path.exists():
        text = json.dumps({"tools": scaled_tools(size)}, separators=(",", ":"))
        partial = path.with_suffix(".part")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    return path
