"""Giving a gateway's executors the HTTP APIs its catalogues described."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...catalog._sources import CatalogLoad
from ...config._model import HttpUpstreamConfig
from .._set import Executors


def register_http_upstreams(executors: Executors, loads: Iterable[CatalogLoad], configs: Mapping[str, HttpUpstreamConfig] | None = None) -> dict[str, Any]:
    """Register the ``http`` executor kind for every OpenAPI load; each upstream opens its client on first use.

    Returns the APIs by upstream name (for ``opgate upstreams`` and the explorer).
    """
    apis = {load.namespace: load.http_api for load in loads if load.http_api is not None}
    if not apis:
        return {}
    configs = dict(configs or {})

    def factory(upstream: str | None):
        from ._executor import HttpExecutor

        if upstream not in apis:
            raise KeyError(f"no HTTP API is loaded for the upstream {upstream!r}")
        return HttpExecutor(apis[upstream], configs.get(upstream))

    executors.register("http", factory)
    return apis
