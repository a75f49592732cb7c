"""Building a gateway from catalogue files: their registry, cached on disk, and their HTTP APIs."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._builtin import builtin_catalog_loads
from .catalog._sources import CatalogLoad, load_catalog
from .config._model import OpgateConfig
from .config._namespaces import refuse_shared_namespaces
from .executors._defaults import guard_builtin_ops
from .registry._build import build_registry

if TYPE_CHECKING:
    from ._gateway import Gateway


def _registry_cache(config: OpgateConfig):
    from .cache import RegistryCache

    return RegistryCache.configured(config.cache_dir)


class GatewayFromCatalogs:
    """:meth:`Gateway.from_catalogs`, the constructor over catalogue files (a part of :class:`~opgate.core.Gateway`)."""

    @classmethod
    def from_catalogs(cls, paths: Iterable[str | Path], *, include_builtin: bool = False, config: OpgateConfig | None = None, cache: bool = True, **options: Any) -> Gateway:
        """A gateway over catalogue files or folders (``NAME=PATH`` sets a namespace).

        The registry built from them is cached on disk, keyed by the
        catalogues' content (see :mod:`opgate.core.cache`); ``cache=False``
        neither reads nor writes it.

        ``config`` adds its HTTP upstreams (``[upstreams.NAME] openapi = PATH``)
        to the catalogues and says how to reach them; an OpenAPI catalogue
        without configuration runs against its document's first server,
        without credentials.
        """
        from .cache import catalog_key

        config = config or OpgateConfig()
        paths = [*paths, *(f"{name}={upstream.openapi}" for name, upstream in config.http_upstreams.items())]
        policies = config.policies()

        def loads_of_paths() -> list[CatalogLoad]:
            loads: list[CatalogLoad] = builtin_catalog_loads() if include_builtin else []
            for path in paths:
                loads.extend(load_catalog(path, policies=policies))
            return loads

        cache = _registry_cache(config) if cache else None
        key = catalog_key(paths, include_builtin=include_builtin, policies=policies, memo_folder=cache.folder) if cache is not None else None
        if cache is not None and key is not None:
            cached = cache.load(key, lambda: guard_builtin_ops(build_registry(loads_of_paths())))
            if cached is not None:
                refuse_shared_namespaces(cached, config, options.get("upstreams"))
                gateway = cls(cached, **options)
                gateway._index_cache = (cache, key)
                return gateway
        from .executors.http._upstreams import register_http_upstreams  # loads jsonschema: not on the cached path

        loads = loads_of_paths()
        registry = guard_builtin_ops(build_registry(loads))
        refuse_shared_namespaces(registry, config, options.get("upstreams"))
        gateway = cls(registry, **options)
        gateway.http_apis = register_http_upstreams(gateway.executors, loads, config.http_upstreams)
        # An OpenAPI catalogue's loads also say how to reach its API: only catalogues without one are cached.
        if cache is not None and key is not None and not any(load.http_api is not None for load in loads):
            cache.store(key, gateway.base_registry)
            gateway._index_cache = (cache, key)
        return gateway
