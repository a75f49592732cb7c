"""jsonschema imported through opgate.core._jsonschema checks every format as a plain import does, loading each library on first use.

Each side runs in a fresh interpreter: in this one jsonschema may already be
imported in full by another test, and then no format would be lazy.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Good and bad values for every format jsonschema's format extras check, plus values that are not strings.
CORPUS = {
    "date-time": ["2024-02-29T12:30:00Z", "2024-02-29t12:30:00+01:00", "2023-02-29T12:30:00Z", "2024-01-01 12:30:00Z", "yesterday", ""],
    "time": ["12:30:00Z", "23:59:60+00:00", "12:30:00", "25:00:00Z", "noon"],
    "date": ["2024-02-29", "2023-02-29", "2024-1-1", "tomorrow"],
    "duration": ["P1D", "PT1H30M", "P1Y2M", "P", "PT", "1 day", "P1H"],
    "uri": ["https://example.org/a?b=c#d", "urn:isbn:0451450523", "no scheme", "http://exa mple.org", "//example.org/a", ""],
    "uri-reference": ["../a/b", "#frag", "https://example.org/", "a b", "http://[::1"],
    "iri": ["https://例え.jp/パス", "not an iri", "https://example.org/"],
    "iri-reference": ["/パス", "a b c", "#x"],
    "uri-template": ["https://example.org/{id}", "/a/{+path}/{?q,r}", "/a/{unclosed", "/a/{}"],
    "email": ["person@example.org", "no-at-sign", "@", ""],
    "idn-email": ["ユーザー@例え.jp", "nobody"],
    "hostname": ["example.org", "a-b.c", "-bad-.org", "under_score.org", "", "a" * 64 + ".org"],
    "idn-hostname": ["例え.jp", "xn--r8jz45g.jp", "bad..dots", "-lead.jp", ""],
    "host-name": ["example.org", "-bad-.org"],
    "ipv4": ["192.168.0.1", "256.1.1.1", "1.2.3"],
    "ipv6": ["::1", "fe80::1%eth0", "12345::"],
    "json-pointer": ["", "/a/b", "/a~1b/~0c", "a/b", "/a~2"],
    "relative-json-pointer": ["0", "1/a", "2#", "01/a", "-1", "", "a"],
    "regex": ["^a+$", "(unclosed", "[a-z"],
    "uuid": ["2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2eb8aa08aa9811eab4aa73b441d16380", "not-a-uuid"],
    "color": ["red", "#fff", "#abcdef", "notacolor", "#ggg"],
}
NOT_STRINGS = [5, 1.5, None, True, ["a"], {"a": 1}]

VERDICTS = """
import json, sys
{first}
from jsonschema import FormatChecker, validators
from jsonschema.exceptions import FormatError

corpus = json.loads(sys.argv[1])
not_strings = json.loads(sys.argv[2])
checkers = {{name: cls.FORMAT_CHECKER for name, cls in validators._META_SCHEMAS.items()}}
checkers["FormatChecker()"] = FormatChecker()

def verdict(checker, value, fmt):
    try:
        checker.check(value, fmt)
    except FormatError as error:
        return [error.message, type(error.cause).__name__ if error.cause is not None else None]
    return "ok"

out = {{}}
for where, checker in sorted(checkers.items()):
    out[where] = {{
        fmt: [verdict(checker, value, fmt) for value in values + not_strings]
        for fmt, values in corpus.items() if fmt in checker.checkers
    }}
print(json.dumps(out, sort_keys=True))
"""


def _verdicts(first: str) -> dict:
    code = VERDICTS.format(first=first)
    result = subprocess.run([sys.executable, "-c", code, json.dumps(CORPUS), json.dumps(NOT_STRINGS)], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_every_format_is_checked_as_a_plain_import_checks_it():
    plain = _verdicts("import jsonschema")
    lazy = _verdicts("import opgate.core._jsonschema")
    assert set(plain) == set(lazy)
    for where in plain:
        # The same formats in every draft's checker and FormatChecker's defaults ...
        assert sorted(plain[where]) == sorted(lazy[where]), where
        # ... with the same verdicts, messages and causes on good, bad and non-string values.
        assert plain[where] == lazy[where], where
    # The corpus reaches every format of the newest draft, and says no to some value of each.
    newest = plain["https://json-schema.org/draft/2020-12/schema"]
    assert {"date-time", "duration", "uri", "hostname", "email", "json-pointer", "uri-template", "idn-hostname"} <= set(newest)
    for fmt, verdicts in newest.items():
        assert any(v != "ok" for v in verdicts), f"no bad {fmt} in the corpus"


LOADING = """
import json, sys
from opgate.core._jsonschema import HELD_BACK
from opgate.core.exec._validation import FORMAT_CHECKER
from opgate.core.schema_validator import validator_class_for

def loaded():
    return sorted(name for name in HELD_BACK | {"arrow", "dateutil"} if name in sys.modules)

steps = [["imported", loaded()]]
schema = {"type": "object", "properties": {
    "due": {"type": "string", "format": "date-time"}, "site": {"type": "string", "format": "uri"},
    "mail": {"type": "string", "format": "email"}, "every": {"type": "string", "format": "duration"},
    "host": {"type": "string", "format": "hostname"}}}
validator = validator_class_for(schema)(schema, format_checker=FORMAT_CHECKER)
def errors(args):
    return sorted((list(e.absolute_path), e.message) for e in validator.iter_errors(args))
steps.append(["no format value", errors({}), loaded()])
steps.append(["bad mail", errors({"mail": "nobody"}), loaded()])
steps.append(["bad date-time", errors({"due": "2024-13-01T00:00:00Z"}), loaded()])
steps.append(["good date-time", errors({"due": "2024-12-01T00:00:00Z"}), loaded()])
steps.append(["bad uri, duration, hostname", errors({"site": "no scheme", "every": "P", "host": "-bad-.org"}), loaded()])
print(json.dumps(steps))
"""


def test_a_format_library_is_imported_by_the_first_value_that_needs_it():
    result = subprocess.run([sys.executable, "-c", LOADING], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    steps = json.loads(result.stdout)
    assert steps[0] == ["imported", []]
    assert steps[1] == ["no format value", [], []]
    assert steps[2] == ["bad mail", [[["mail"], "'nobody' is not a 'email'"]], []]  # email needs no library
    assert steps[3] == ["bad date-time", [[["due"], "'2024-13-01T00:00:00Z' is not a 'date-time'"]], ["rfc3339_validator"]]
    assert steps[4] == ["good date-time", [], ["rfc3339_validator"]]
    assert steps[5][1] == [[["every"], "'P' is not a 'duration'"], [["host"], "'-bad-.org' is not a 'hostname'"], [["site"], "'no scheme' is not a 'uri'"]]
    assert {"fqdn", "isoduration", "rfc3987", "rfc3339_validator"} <= set(steps[5][2])


@pytest.mark.parametrize("folder", ["core", "opgate", "tui"])
def test_nothing_imports_jsonschema_but_the_lazy_module(folder):
    """The first import of jsonschema in a process must be the one that holds its format libraries back."""
    found = []
    for path in sorted((REPO / folder).rglob("*.py")):
        if path == REPO / "core" / "_jsonschema.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            if any(name == "jsonschema" or name.startswith("jsonschema.") for name in names):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not found, f"import jsonschema's names from opgate.core._jsonschema instead: {found}"
