"""Tool shadowing across upstreams: one name on two servers, or a description that speaks of another server's tools.

Either lets one server steer a model towards (or instead of) another's
tools. Neither is blocked: both are reported on the registry and in
`opgate upstreams`, so that a person can look. A bare tool name offered by
two servers is ambiguous anyway: exec then needs the op.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from ...catalog._tool import LoadProblem

SOURCE = "upstreams"
# Short or plain-word names ("add", "echo", "search") appear in any prose; only
# names that look like identifiers are looked for in other servers' descriptions.
_IDENTIFIER = re.compile(r"^(?=.{5,})[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+|[A-Z][a-z0-9]*)+$")


def shadowing_problems(listings: dict[str, list[dict[str, Any]]]) -> list[LoadProblem]:
    """Warnings for names shared between upstreams and for descriptions that name another upstream's tools."""
    owners: dict[str, list[str]] = defaultdict(list)
    for upstream, tools in listings.items():
        for tool in tools:
            owners[tool["name"]].append(upstream)
    problems = [
        LoadProblem(SOURCE, f"tool {name!r} is offered by {', '.join(servers)}; its bare name is ambiguous, call it by its op", tool=name, severity="warning")
        for name, servers in sorted(owners.items()) if len(servers) > 1
    ]
    for upstream, tools in listings.items():
        others = {name: servers for name, servers in owners.items() if upstream not in servers and _IDENTIFIER.match(name)}
        for tool in tools:
            text = " ".join(str(tool.get(key) or "") for key in ("description", "title"))
            for name, servers in others.items():
                if re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text):
                    problems.append(LoadProblem(
                        f"upstream {upstream}",
                        f"the description of {tool['name']!r} names {name!r}, a tool of {', '.join(servers)}: a server that speaks of another's tools may be steering calls (tool shadowing)",
                        tool=tool["name"], severity="warning",
                    ))
    return problems
