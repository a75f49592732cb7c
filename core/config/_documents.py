"""Checking what ``opgate.toml`` says about an HTTP API against the API's own document.

The file alone cannot tell a misspelt operationId from a real one: ``confirm
= ["createItm"]`` is well-formed and would quietly leave ``createItem``
running without a person's yes. ``opgate config check`` reads each
document it names (commands load them anyway, and report the same selectors
from the catalogue load) so that such a selector is a problem with its key.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ._check import ConfigProblem
from ._model import METHOD_SELECTOR, HttpUpstreamConfig, OpgateConfig


def check_documents(config: OpgateConfig) -> list[ConfigProblem]:
    """Every problem found by reading the OpenAPI documents of ``config``'s HTTP upstreams."""
    file = str(config.source) if config.source else "opgate.toml"
    problems: list[ConfigProblem] = []
    for name, upstream in config.http_upstreams.items():
        problems.extend(ConfigProblem(file, key, message) for key, message in _upstream_problems(name, upstream))
    return problems


def _upstream_problems(name: str, upstream: HttpUpstreamConfig) -> Iterable[tuple[str, str]]:
    from ..catalog._sources import load_catalog
    from ..catalog.openapi._load import selector_problem, unmatched_selectors

    where = f"upstreams.{name}"
    loads = load_catalog(f"{name}={upstream.openapi}", policies={name: upstream.policy()})
    apis = [load.http_api for load in loads if load.http_api is not None]
    if not apis:
        said = "; ".join(p.message for load in loads for p in load.problems if p.severity == "error")
        yield f"{where}.openapi", f"not an OpenAPI 3.0 or 3.1 document{': ' + said if said else ''}"
        return
    operations: list[Any] = [operation for api in apis for operation in api.operations.values()]
    named = [s for s in upstream.confirm if not METHOD_SELECTOR.match(s)]
    for selector, closest in unmatched_selectors(named, operations):
        yield f"{where}.confirm", selector_problem(name, selector, closest)
    for selector, closest in unmatched_selectors(upstream.operations, operations):
        yield f"{where}.operations.{selector}", selector_problem(name, selector, closest)
