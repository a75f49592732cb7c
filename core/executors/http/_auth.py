"""An upstream's credentials: read from the environment once, applied per operation, never shown.

The document's ``securitySchemes`` say how an API authenticates (HTTP
basic, bearer, an API key in a header or the query); the configuration
names the environment variables that hold the secrets. Values are read
when the upstream opens and kept only here: previews, errors and logs get
them masked (:attr:`Credentials.secrets`).
"""

from __future__ import annotations

import base64
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...config._model import AuthConfig


@dataclass(frozen=True)
class AppliedAuth:
    """What authenticating one request adds: headers, query parameters, and the environment variables they came from."""

    headers: dict[str, str] = field(default_factory=dict)
    query: dict[str, str] = field(default_factory=dict)
    scheme: str | None = None
    env: tuple[str, ...] = ()
    kind: str | None = None  # basic, bearer, header, query or cookie: how a person would send it (curl)
    key: str | None = None  # the header, query parameter or cookie an API key goes in


NO_AUTH = AppliedAuth()


class Credentials:
    """The secrets of one upstream and the schemes they fit."""

    def __init__(self, schemes: Mapping[str, dict[str, Any]], config: AuthConfig | None, environ: Mapping[str, str] | None = None):
        environ = os.environ if environ is None else environ
        self._schemes = dict(schemes)
        self._config = config or AuthConfig()
        self._values = {name: environ.get(name, "") for name in self._config.env_names()}
        self.missing = [name for name, value in self._values.items() if not value]

    def _value(self, env: str | None) -> str:
        return self._values.get(env or "", "")

    @property
    def secrets(self) -> list[str]:
        """Every secret value, and the encoded forms they travel in, for the redactor.

        A basic-auth user name is an identifier, not a secret (Twilio's account
        SID is also in every URL); masking it would make previews useless.
        The password and the encoded pair are masked.
        """
        user_env = self._config.username_env
        found = [v for name, v in self._values.items() if v and name != user_env]
        user, password = self._value(self._config.username_env), self._value(self._config.password_env)
        if user or password:
            found.append(base64.b64encode(f"{user}:{password}".encode()).decode())
        return found

    def _apply_scheme(self, name: str, scheme: dict[str, Any]) -> AppliedAuth | None:
        kind, config = scheme.get("type"), self._config
        if kind == "http" and str(scheme.get("scheme", "")).lower() == "basic":
            user, password = self._value(config.username_env), self._value(config.password_env)
            if not user:
                return None
            token = base64.b64encode(f"{user}:{password}".encode()).decode()
            return AppliedAuth({"Authorization": f"Basic {token}"}, {}, name, tuple(n for n in (config.username_env, config.password_env) if n), "basic")
        if kind == "http" and str(scheme.get("scheme", "")).lower() == "bearer" or kind in ("oauth2", "openIdConnect"):
            token = self._value(config.token_env)
            return AppliedAuth({"Authorization": f"Bearer {token}"}, {}, name, (config.token_env,), "bearer", "Authorization") if token else None
        if kind == "apiKey":
            key = self._value(config.api_key_env) or self._value(config.token_env)
            if not key or not isinstance(scheme.get("name"), str):
                return None
            env = (config.api_key_env or config.token_env,)
            if scheme.get("in") == "query":
                return AppliedAuth({}, {scheme["name"]: key}, name, env, "query", scheme["name"])
            if scheme.get("in") == "cookie":
                return AppliedAuth({"Cookie": f"{scheme['name']}={key}"}, {}, name, env, "cookie", scheme["name"])
            return AppliedAuth({scheme["name"]: key}, {}, name, env, "header", scheme["name"])
        return None

    def apply(self, requirements: tuple[dict[str, Any], ...]) -> AppliedAuth:
        """The first of the operation's security alternatives the credentials satisfy (none: send without auth)."""
        for requirement in requirements:
            if not requirement:
                return NO_AUTH  # an empty alternative: auth is optional
            names = list(requirement)
            if self._config.scheme and self._config.scheme not in names:
                continue
            applied = [self._apply_scheme(n, self._schemes.get(n, {})) for n in names]
            if all(applied):
                if len(applied) == 1:
                    return applied[0]
                headers = {k: v for part in applied for k, v in part.headers.items()}
                query = {k: v for part in applied for k, v in part.query.items()}
                return AppliedAuth(headers, query, "+".join(names), tuple(e for p in applied for e in p.env if e))
        return NO_AUTH
