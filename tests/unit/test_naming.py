"""Tool names become ops by the taxonomy tables and special cases of the spec."""

import pytest

from opgate.core.catalog import ToolDefinition
from opgate.core.registry import name_tool, singular, words_of

# The mapping tables of the spec (seed 000, sections 3 and 5.2), every row.
SPEC_TABLE = {
    "list_onto_tasks": "onto.task.list",
    "list_onto_goals": "onto.goal.list",
    "list_onto_documents": "onto.document.list",
    "list_onto_milestones": "onto.milestone.list",
    "list_onto_risks": "onto.risk.list",
    "list_onto_requirements": "onto.requirement.list",
    "list_onto_plans": "onto.plan.list",
    "list_onto_projects": "onto.project.list",
    "list_task_documents": "onto.task.docs.list",
    "search_onto_tasks": "onto.task.search",
    "search_onto_projects": "onto.project.search",
    "search_onto_documents": "onto.document.search",
    "search_ontology": "onto.search",
    "get_onto_project_details": "onto.project.get",
    "get_onto_project_graph": "onto.project.graph.get",
    "get_onto_task_details": "onto.task.get",
    "get_onto_goal_details": "onto.goal.get",
    "get_onto_plan_details": "onto.plan.get",
    "get_onto_document_details": "onto.document.get",
    "get_onto_milestone_details": "onto.milestone.get",
    "get_onto_risk_details": "onto.risk.get",
    "get_onto_requirement_details": "onto.requirement.get",
    "get_document_tree": "onto.document.tree.get",
    "get_document_path": "onto.document.path.get",
    "get_entity_relationships": "onto.entity.relationships.get",
    "get_linked_entities": "onto.entity.links.get",
    "create_onto_task": "onto.task.create",
    "create_onto_goal": "onto.goal.create",
    "create_onto_plan": "onto.plan.create",
    "create_onto_document": "onto.document.create",
    "create_onto_project": "onto.project.create",
    "create_task_document": "onto.task.doc.create_or_attach",
    "update_onto_task": "onto.task.update",
    "update_onto_project": "onto.project.update",
    "update_onto_goal": "onto.goal.update",
    "update_onto_plan": "onto.plan.update",
    "update_onto_document": "onto.document.update",
    "update_onto_milestone": "onto.milestone.update",
    "update_onto_risk": "onto.risk.update",
    "update_onto_requirement": "onto.requirement.update",
    "delete_onto_task": "onto.task.delete",
    "delete_onto_document": "onto.document.delete",
    "delete_onto_goal": "onto.goal.delete",
    "delete_onto_plan": "onto.plan.delete",
    "link_onto_entities": "onto.edge.link",
    "unlink_onto_edge": "onto.edge.unlink",
    "reorganize_onto_project_graph": "onto.project.graph.reorganize",
    "move_document_in_tree": "onto.document.tree.move",
    "get_field_info": "util.schema.field_info",
    "web_search": "util.web.search",
    "web_visit": "util.web.visit",
    "get_buildos_overview": "util.buildos.overview",
    "get_buildos_usage_guide": "util.buildos.usage_guide",
}


def _tool(name: str, namespace: str = "", **kw) -> ToolDefinition:
    return ToolDefinition(name=name, description="", parameters={"type": "object"}, namespace=namespace, **kw)


@pytest.mark.parametrize(("tool_name", "op"), sorted(SPEC_TABLE.items()))
def test_spec_tables_hold_exactly(tool_name, op):
    assert name_tool(_tool(tool_name)).op == op


def test_special_cases_apply_only_to_the_builtin_namespace():
    assert name_tool(_tool("web_search", namespace="loom")).op == "loom.web.search"


@pytest.mark.parametrize(
    ("name", "namespace", "hint", "op"),
    [
        ("list_issues", "mcp.github", None, "mcp.github.issue.list"),
        ("create_or_update_file", "mcp.github", None, "mcp.github.file.create_or_update"),
        ("actions_get", "mcp.github", None, "mcp.github.action.get"),
        ("CreateBulkConsents", "twilio", "accounts_v1.CreateBulkConsents", "twilio.accounts_v1.bulk_consent.create"),
        ("FetchCall", "twilio", "api_v2010.FetchCall", "twilio.api_v2010.call.fetch"),
        ("ask_user", "loom", None, "loom.ask_user"),
        ("", "weird", None, "weird._"),
        ("Ünïcode tool!!", "weird", None, "weird.unicode_tool"),
    ],
)
def test_general_names_get_a_sensible_place(name, namespace, hint, op):
    assert name_tool(_tool(name, namespace=namespace, op_hint=hint)).op == op


def test_an_op_the_source_assigns_wins():
    assert name_tool(_tool("anything", op="custom.thing.run")).op == "custom.thing.run"


def test_words_and_singulars():
    assert words_of("CreateIncomingPhoneNumberTollFree") == ["create", "incoming", "phone", "number", "toll", "free"]
    assert [singular(w) for w in ("issues", "categories", "branches", "status", "analysis", "news")] == [
        "issue", "category", "branch", "status", "analysis", "news",
    ]


@pytest.mark.parametrize(("name", "words"), [
    ("ünïcødé", ["unicode"]),
    ("Straße_lesen", ["strasse", "lesen"]),
    ("łódź_list", ["lodz", "list"]),
    ("Æble-Œuvre", ["aeble", "oeuvre"]),
])
def test_latin_letters_that_do_not_decompose_are_spelled_not_dropped(name, words):
    assert words_of(name) == words


@pytest.mark.parametrize(("name", "words"), [
    ("Αρχεία", ["archeia"]),  # ELOT 743: χ ch, ει ei
    ("ΑΡΧΕΙΟ_λίστα", ["archeio", "lista"]),  # capitals spelled in capitals: "ChEIO" would split at the h
    ("Ευρώπη", ["evropi"]),  # ευ ev, η i; the accent goes
    ("ουρανός", ["ouranos"]),
    ("αϋπνία", ["aypnia"]),  # the diaeresis keeps α and υ apart
    ("Μπάλα", ["mpala"]),
    ("ὁδός", ["odos"]),  # polytonic breathings go with the accents
    ("ЖУРНАЛ_читать", ["zhurnal", "chitat"]),  # BGN/PCGN: ж zh, ч ch; ь silent
    ("получитьСписок", ["poluchit", "spisok"]),  # a capital inside the name still splits it
    ("создать_задачу", ["sozdat", "zadachu"]),
    ("Київ", ["kiyiv"]),  # Ukrainian ї
])
def test_greek_and_cyrillic_letters_are_transliterated(name, words):
    assert words_of(name) == words


@pytest.mark.parametrize(("name", "words"), [
    ("搜索", ["u641cu7d22"]),
    ("get用户", ["get", "u7528u6237"]),  # a run of code points is a word of its own
    ("検索が", ["u691cu7d22u304c"]),  # kana's voicing mark is part of the letter: が is not か
    ("खोज", ["u916u94bu91c"]),  # a vowel sign is spelled with its letter
    ("검색", ["uac80uc0c9"]),  # Hangul by syllable, not by its decomposed jamo
    ("بحث", ["u628u62du62b"]),
    ("١٢٣_list", ["123", "list"]),  # digits of any script are digits
    ("ﬁle", ["file"]),
])
def test_letters_of_other_scripts_are_spelled_by_code_point(name, words):
    assert words_of(name) == words


def test_names_in_other_scripts_get_distinct_ops_that_do_not_move_when_a_tool_is_added():
    """All of an upstream's Chinese tools were one op, '_', and the others '_2', '_3' by sort order."""
    names = ["搜索", "创建文档", "删除文档", "Αναζήτηση", "Поиск", "بحث"]
    ops = [name_tool(_tool(n, namespace="up")).op for n in names]
    assert len(set(ops)) == len(ops) and "up._" not in ops, ops
    assert name_tool(_tool("Поиск", namespace="up")).op == "up.poisk"
    assert name_tool(_tool("Αναζήτηση", namespace="up")).op == "up.anazitisi"
    assert name_tool(_tool("list_用户", namespace="up")).op == "up.u7528u6237.list"


def test_irregular_plurals_name_their_entity():
    # An OpenAPI path /shelves/{shelfId} was named lib.shelve.get; /statuses gave "statuse".
    assert [singular(w) for w in ("shelves", "statuses", "aliases", "people", "indices", "leaves", "archives", "drives")] == [
        "shelf", "status", "alias", "person", "index", "leaf", "archive", "drive",
    ]
