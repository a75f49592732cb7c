"""An HTTP upstream's name is its namespace, and no other catalogue or upstream may share it.

Two APIs in one namespace were merged into one group: each op kept the
upstream name as its binding, so the ops of the API loaded under the name
second ran against the first one's document and failed (``points at 'GET
/things', which the upstream 'items' does not have``), and ops of the
built-in catalogue sat beside an API's under its title.
"""

from __future__ import annotations

from typing import Any

from ._model import OpgateConfig


def refuse_shared_namespaces(registry: Any, config: OpgateConfig, upstreams: Any = None) -> None:
    """Raise ``ValueError`` naming every HTTP upstream of ``config`` whose namespace something else also uses."""
    if not config.http_upstreams:
        return
    file = str(config.source) if config.source else "opgate.toml"
    documents = {name: str(upstream.openapi) for name, upstream in config.http_upstreams.items()}
    # Who else uses each upstream's namespace, in the order found: catalogue files, then MCP servers.
    others: dict[str, dict[str, None]] = {name: {} for name in documents}
    for record in registry:
        name = record.op.split(".", 1)[0]
        if name in documents and record.source != documents[name]:
            source = "the built-in catalogue" if record.binding.kind == "store" else record.source
            others[name][f"{source} (its op {record.op})"] = None
    for name in documents.keys() & set(upstreams.names if upstreams is not None else ()):
        others[name][f"the MCP upstream of {upstreams.config(name).source}"] = None
    clashes = [f"{file}: upstreams.{name}: the namespace {name!r} is also used by {_first(list(found))}" for name, found in others.items() if found]
    if clashes:
        raise ValueError("\n".join(clashes) + "\nAn HTTP upstream's name is its namespace and must be its own: rename the upstream.")


def _first(found: list[str], shown: int = 2) -> str:
    """A few of the sources (a built-in group holds dozens of ops, one of each file says enough)."""
    by_source = list(dict.fromkeys(f.split(" (its op ", 1)[0] for f in found))
    firsts = [next(f for f in found if f.startswith(source)) for source in by_source[:shown]]
    more = len(by_source) - shown
    return ", ".join(firsts) + (f" and {more} other source{'s' if more > 1 else ''}" if more > 0 else "")
