"""Built registries on disk, so that a command over a large catalogue does not rebuild them.

``catalog_key`` hashes what a registry depends on; ``RegistryCache`` stores
and loads registries by that key in a private per-user folder, in a format
of our own (JSON sections checked by SHA-256). See docs/performance.md.
"""

from ._key import catalog_key, code_fingerprint
from ._lazy_registry import CachedRegistry
from ._store import ENV_VAR, RegistryCache, default_cache_dir

__all__ = ["ENV_VAR", "CachedRegistry", "RegistryCache", "catalog_key", "code_fingerprint", "default_cache_dir"]
