"""A read run plainly and as a dry-run, for the tests that hold the two paths to the same answer."""

from __future__ import annotations

from opgate.core import Gateway


def plain_and_dry(gateway: Gateway, op: str, args: dict) -> tuple[dict, dict]:
    plain, dry = gateway.exec(op, args), gateway.exec(op, args, dry_run=True)
    assert plain["ok"] and dry["ok"], (plain, dry)
    return plain, dry
