"""search_ontology, templates, field information and the knowledge documents."""

from __future__ import annotations

import json

import pytest

from opgate.core._builtin import fixtures_dir
from opgate.core.exec._errors import NotFoundError
from opgate.core.store import NotFound

FIXTURES = fixtures_dir()
DEMO = json.loads((FIXTURES / "demo_workspace.json").read_text(encoding="utf-8"))
FIELD_INFO = json.loads((FIXTURES / "field_info.json").read_text(encoding="utf-8"))
RELAY, FAIR = "10000000-0000-4000-8000-000000000001", "10000000-0000-4000-8000-000000000003"


# -- search_ontology ---------------------------------------------------------------

@pytest.mark.parametrize(("query", "kind", "name"), [
    ("API Spce", "document", "API Spec"),
    ("webhok retrys", "task", "Fix webhook retry storm"),
])
def test_search_ontology_tolerates_typos(read, query, kind, name):
    results = read("onto.search", query=query)["results"]
    assert (results[0]["kind"], results[0]["name"]) == (kind, name)
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True) and all(0 < s <= 1 for s in scores)
    assert set(results[0]) == {"kind", "id", "name", "project_id", "score", "snippet"}


def test_search_ontology_narrows_by_types_and_project(read):
    results = read("onto.search", query="venue", project_id=FAIR, types=["document", "decision"])["results"]
    assert results and all(r["kind"] in ("document", "decision") and r["project_id"] == FAIR for r in results)
    assert len(read("onto.search", query="spec", limit=1)["results"]) == 1


def test_search_ontology_leaves_templates_out_unless_asked(read):
    # "spec" is in the Technical Spec template too; templates are not among the ten kinds.
    assert all(r["kind"] != "template" for r in read("onto.search", query="spec")["results"])


def test_search_ontology_in_unknown_project_is_not_found(read):
    with pytest.raises(NotFound):
        read("onto.search", query="venue", project_id="10000000-0000-4000-8000-000000000099")


# -- templates -------------------------------------------------------------------------

def test_templates_filter_by_scope_and_realm(read):
    projects = read("onto.template.list", scope="project")
    expected = {t["id"] for t in DEMO["templates"] if t["scope"] == "project"}
    assert {t["id"] for t in projects["templates"]} == expected and projects["total"] == len(expected)
    names = [t["name"] for t in projects["templates"]]
    assert names == sorted(names)
    software = read("onto.template.list", realm="software")["templates"]
    assert software and {t["realm"] for t in software} == {"software"}


def test_templates_search_and_limit(read):
    found = read("onto.template.list", search="spec")["templates"]
    assert found[0]["name"] == "Technical Spec"
    one = read("onto.template.list", limit=1)
    assert len(one["templates"]) == 1 and one["total"] == len(DEMO["templates"]) and one["has_more"] is True


# -- field info ----------------------------------------------------------------------

def test_field_info_describes_every_field_of_a_kind(read):
    result = read("util.schema.field_info", entity_type="task")
    assert result == {"entity_type": "task", "fields": FIELD_INFO["task"]}


def test_field_info_describes_one_field(read):
    result = read("util.schema.field_info", entity_type="risk", field_name="impact")
    assert result["field"]["enum_values"] == ["low", "medium", "high", "critical"]
    assert (result["entity_type"], result["field_name"]) == ("risk", "impact")


def test_unknown_field_is_not_found_with_the_valid_names(read):
    with pytest.raises(NotFoundError) as caught:
        read("util.schema.field_info", entity_type="risk", field_name="impakt")
    message = caught.value.message
    assert "Did you mean 'impact'" in message
    assert all(name in message for name in FIELD_INFO["risk"])
    assert caught.value.details["valid"] == list(FIELD_INFO["risk"])


# -- knowledge documents -----------------------------------------------------------------

@pytest.mark.parametrize(("op", "path"), [
    ("util.buildos.overview", "knowledge/overview.json"),
    ("util.buildos.usage_guide", "knowledge/usage_guide.json"),
])
def test_knowledge_documents_come_back_as_they_are(read, op, path):
    document = read(op)
    assert document == json.loads((FIXTURES / path).read_text(encoding="utf-8"))
    assert {"documentTitle", "lastReviewed", "summary", "sections"} <= set(document)
    document["sections"].clear()  # a caller changing its copy changes nothing for the next one
    assert read(op)["sections"]
