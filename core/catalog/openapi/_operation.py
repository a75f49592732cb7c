"""What an HTTP op sends: the operation, and where each of its arguments goes.

The catalogue builds these from the document and the HTTP executor builds
requests from them; neither reads the document again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Where an argument goes in the request.
PATH = "path"
QUERY = "query"
HEADER = "header"
BODY = "body"  # the whole request body (JSON, text)
FORM = "form"  # one field of a form-encoded or multipart body
FILE = "file"  # a multipart file part, given as a local path
LOCATIONS = (PATH, QUERY, HEADER, BODY, FORM, FILE)

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
IDEMPOTENT_METHODS = READ_METHODS | {"PUT", "DELETE"}


# How a parameter's array or object is written (OpenAPI's ``style``): the default of each location.
DEFAULT_STYLES = {PATH: "simple", QUERY: "form", HEADER: "simple"}
# A parameter given by ``content`` (a media type) instead of ``schema``: its value is sent as JSON text.
CONTENT_STYLE = "content"


@dataclass(frozen=True)
class ArgumentPlace:
    """One argument: its name in the arguments (``arg``) and on the wire (``name``), and where it goes.

    ``style`` and ``explode`` are the parameter's serialization: in the query,
    ``form`` with ``explode`` repeats the key for each item (an object's members
    become keys), without it joins them with commas; ``pipeDelimited`` and
    ``spaceDelimited`` join with ``|`` and a space; ``deepObject`` sends
    ``name[member]=value``. In a path or a header, ``simple`` joins with commas.
    A parameter described by ``content`` is sent as JSON text (``CONTENT_STYLE``).
    """

    arg: str
    name: str
    location: str
    explode: bool = True
    style: str | None = None


@dataclass(frozen=True)
class HttpOperation:
    """One operation of an HTTP API, ready to be turned into requests."""

    method: str
    path: str
    operation_id: str | None
    places: tuple[ArgumentPlace, ...]
    content_type: str | None = None
    # Alternatives of {scheme name: scopes}; empty: the API's default applies; [{}]: no auth.
    security: tuple[dict[str, Any], ...] | None = None
    servers: tuple[str, ...] = ()

    @property
    def target(self) -> str:
        """The binding target: ``METHOD /path``, unique within a document."""
        return f"{self.method} {self.path}"

    @property
    def is_read(self) -> bool:
        return self.method in READ_METHODS

    @property
    def is_idempotent(self) -> bool:
        return self.method in IDEMPOTENT_METHODS

    def places_in(self, location: str) -> list[ArgumentPlace]:
        return [p for p in self.places if p.location == location]


@dataclass
class HttpApi:
    """An API described by one OpenAPI document: its servers, auth schemes and operations by target."""

    name: str
    source: str
    servers: tuple[str, ...]
    security_schemes: dict[str, dict[str, Any]]
    security: tuple[dict[str, Any], ...]
    operations: dict[str, HttpOperation] = field(default_factory=dict)

    def operation(self, target: str) -> HttpOperation | None:
        return self.operations.get(target)

    def security_for(self, operation: HttpOperation) -> tuple[dict[str, Any], ...]:
        return self.security if operation.security is None else operation.security
