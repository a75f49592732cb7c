"""A request holding one very long word (a pasted blob, an id of 60,000 letters) is answered without the typo
corrector making every one-letter deletion of it: that is the word's length squared in characters (3.6 GB
here), which ran a server out of memory or held a worker for minutes. A word longer than every known word by
more than one letter is no typo of one, so it is not looked up at all."""

from __future__ import annotations

import json
import subprocess
import sys

from opgate.core.search._spelling import Speller

_SEARCH_UNDER_A_MEMORY_CAP = """
import json, random, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))
from opgate.core import Gateway
gateway = Gateway(db_path=sys.argv[1], call_log=False)
letters = random.Random(7)
word = "".join(letters.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(60_000))
answer = gateway.search("list tasks " + word)
print(json.dumps({"ok": answer["ok"], "first": answer["results"][0]["op"] if answer.get("results") else None}))
"""


def test_a_search_with_a_60000_letter_word_answers(tmp_path):
    done = subprocess.run([sys.executable, "-c", _SEARCH_UNDER_A_MEMORY_CAP, str(tmp_path / "w.db")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer["ok"] and answer["first"] == "onto.task.list", answer


def test_the_speller_still_corrects_one_edit_and_leaves_long_words_alone():
    speller = Speller.of([["task", "document", "milestone"], ["task", "documents"]])
    assert speller.correct("taks") == "task" and speller.correct("documnet") == "document"
    assert speller.correct("milestonex") == "milestone"  # one longer than the longest known word: still one edit
    assert speller.correct("m" * 11) is None and speller.correct("q" * 200_000) is None
