"""Natural-language search over ops: ranked pointers with a confidence.

``SearchIndex.build(registry)`` indexes each op's name, op path, summary,
description, argument names and descriptions, and tags. The default ranker is
pure Python (BM25F with related-word expansion, fused with character
trigrams); ``semantic=True`` adds sentence embeddings when the
``opgate[semantic]`` extra is installed.
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
