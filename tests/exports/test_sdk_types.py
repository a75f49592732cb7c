"""Every export, parsed by the providers' own SDK types (openai, anthropic, google-genai, mcp), offline.

The built-in catalogue goes through ``export`` as a host would call it. The
GitHub, Loom and Twilio catalogues are read from files with nothing behind
them, so their ops are browse-only and never offered to a model; their
typed tools are built from every record and laid out by ``format_tools``,
the same code ``export`` ends in, so each real schema is checked.
"""

from __future__ import annotations

import pytest
from provider_sdk_types import sdk_violations

from opgate.core import Gateway
from opgate.core.modes import GENERIC_TOOLS, MODES, PROVIDERS, STRICT_PROVIDERS, ToolRouter, export, format_tools, gateway_tools, typed_tool

DEFERRING = ("anthropic", "openai-responses")
COMBINATIONS = [
    (provider, mode, strict)
    for provider in PROVIDERS
    for mode in MODES
    for strict in ((False, True) if provider in STRICT_PROVIDERS else (False,))
    if mode != "deferred" or provider in DEFERRING
]


def _label(combination) -> str:
    provider, mode, strict = combination
    return f"{provider}-{mode}{'-strict' if strict else ''}"


@pytest.fixture(scope="module")
def builtin(tmp_path_factory):
    gateway = Gateway(db_path=tmp_path_factory.mktemp("sdk") / "w.db")
    yield gateway
    gateway.close()


@pytest.fixture(scope="module", params=["github", "loom", "twilio"])
def catalogue(request, real_catalog_paths):
    return request.param, Gateway.from_catalogs([real_catalog_paths[request.param]], call_log=False)


def _specs(gateway: Gateway, mode: str):
    records = list(gateway.registry)
    if mode == "gateway":
        return gateway_tools(gateway)
    if mode == "hybrid":  # a full lane: the cap's worth of typed tools, then the generic pair
        return [*(typed_tool(r) for r in records[:16]), *GENERIC_TOOLS]
    return [typed_tool(r, defer_loading=mode == "deferred") for r in records]


@pytest.mark.parametrize("combination", COMBINATIONS, ids=_label)
def test_builtin_exports_parse_with_the_sdk_types(builtin, combination):
    provider, mode, strict = combination
    tools = export(builtin, provider, mode, router=ToolRouter(builtin), turn="move the API Spec doc under Engineering", strict=strict)
    assert tools
    assert sdk_violations(provider, tools) == []


@pytest.mark.parametrize("combination", COMBINATIONS, ids=_label)
def test_real_catalogue_exports_parse_with_the_sdk_types(catalogue, combination):
    name, gateway = catalogue
    provider, mode, strict = combination
    tools = format_tools(_specs(gateway, mode), provider, mode, strict=strict, group_summaries=gateway.registry.group_summaries).tools
    violations = sdk_violations(provider, tools)
    assert violations == [], f"{name}: {len(violations)} violations, first: {violations[:5]}"


def test_the_combinations_left_out_are_refused(builtin):
    for provider in PROVIDERS:
        for mode in MODES:
            if (provider, mode, False) in COMBINATIONS:
                continue
            with pytest.raises(ValueError, match="deferred"):
                export(builtin, provider, mode)
    with pytest.raises(ValueError, match="strict"):
        export(builtin, "anthropic", "full", strict=True)


def test_the_checker_catches_what_the_sdks_reject():
    null_in_enum = {"type": "object", "properties": {"state": {"type": "string", "enum": ["a", None]}}}
    assert sdk_violations("gemini-openapi", [{"function_declarations": [{"name": "t", "parameters": null_in_enum}]}])
    assert sdk_violations("gemini", [{"name": "t", "parameters_json_schema": {}}])  # a bare declaration, not a Tool
    assert sdk_violations("openai-responses", [{"type": "function", "name": "t", "parameters": {}}])  # strict is required
    assert sdk_violations("openai", [{"type": "function", "function": {"name": "t", "parameters": {}, "defer": True}}])
    assert sdk_violations("anthropic", [{"name": "t", "input_schema": {"properties": {}}}])  # no type: object
