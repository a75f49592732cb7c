"""Natural-language search over ops: ranked pointers with a confidence.

``SearchIndex.build(registry)`` indexes what each op does (name, op path,
summary, description, search phrases, tags) above what it takes (arguments,
HTTP path) and leaves out how to use it (guidance, policy, examples). The
default ranker is pure Python (BM25F with related-word expansion, fused with
character trigrams); ``semantic=True`` (``Gateway(search="semantic")``) adds
sentence embeddings when the ``opgate[semantic]`` extra is installed. See
``docs/search.md``.
"""

from ._hits import NodeHit, SearchHit
from ._index import DEFAULT_LIMIT, MAX_LIMIT, SearchIndex
from ._semantic import SemanticUnavailable, semantic_available

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "NodeHit",
    "SearchHit",
    "SearchIndex",
    "SemanticUnavailable",
    "semantic_available",
]
