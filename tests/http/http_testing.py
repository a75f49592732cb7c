"""Shared names for the HTTP executor tests, importable from test modules.

Apart from conftest.py: a test module that imports ``conftest`` gets whichever
conftest was imported first under that name, so ``pytest tests/http tests/mcp``
failed to collect.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
LOOPBACK_DOCUMENT = HERE / "loopback_openapi.json"
API_KEY = "loopback-secret-key-42"

OPENAPI = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "openapi"
TWILIO_DOCUMENT = OPENAPI / "twilio_api_v2010.json"
PETSTORE_DOCUMENT = OPENAPI / "petstore_expanded.yaml"
ACCOUNT_SID = "AC" + "a" * 32
AUTH_TOKEN = "prism-test-auth-token"
