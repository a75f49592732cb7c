"""Control characters in catalogue and stored text never reach the terminal from the REPL: ``opgate repl < script``.

An ESC in an op's summary went out whole from ``ls`` and ``search``, so
``\\x1b]0;...\\x07`` retitled the terminal and ``\\x1b[2J`` cleared it (rich
strips only BEL, BS, VT, FF and CR). ``help`` already escaped them.
"""

from __future__ import annotations


from hostile_catalog import write_control_catalog
from test_repl_hostile_text import RELAY, run

SEQUENCES = "\x1b]0;pwned\x07 \x1b[2J \x9b31m \x7f \u202edesrever"
SHOWN = "\\x1b]0;pwned\\x07 \\x1b[2J \\x9b31m \\x7f \\u202edesrever"


def _catalog(tmp_path):
    return str(write_control_catalog(tmp_path, SEQUENCES))


def _sent(out: str) -> set[str]:
    return {ch for ch in out if ch in "\x1b\x07\x9b\x7f\u202e"}


def test_ls_and_search_escape_control_characters_of_catalogue_text(tmp_path):
    done = run(tmp_path, "ls sneaky.sneaky\nsearch sneaky summary\n", "--catalog", _catalog(tmp_path))
    assert not _sent(done.stdout), repr(done.stdout)
    assert done.stdout.count(f"Summary {SHOWN}") >= 2, done.stdout


def test_a_stored_title_with_control_characters_is_escaped_in_tables(tmp_path):
    script = f"set writes on\nexec onto.task.create project_id={RELAY} title='T {SEQUENCES}'\nset format table\nexec onto.task.list project_id={RELAY} limit=100\n"
    done = run(tmp_path, script)
    assert done.returncode == 0, done.stdout
    # The script's own lines are echoed as typed; what the REPL prints of the stored title is after them.
    listed = done.stdout.split("onto.task.list", 1)[1]
    assert not _sent(listed) and "T \\x1b]0;pwned" in listed, repr(listed)
