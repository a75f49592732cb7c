"""OpenAPI 3.0 and 3.1 documents as catalogues whose ops run over HTTP.

:func:`read_openapi` turns each operation into a tool bound to the HTTP
executor (``Binding("http", upstream=<namespace>, target="METHOD /path")``)
and gives the :class:`HttpApi` that the executor builds requests from.
"""

from ._arguments import SAFE_KEY, safe_alias
from ._document import OpenApiDocument, OpenApiError, check_version, load_document, looks_like_openapi
from ._load import ApiPolicy, read_openapi
from ._operation import BODY, CONTENT_STYLE, FILE, FORM, HEADER, LOCATIONS, PATH, QUERY, ArgumentPlace, HttpApi, HttpOperation

__all__ = [
    "BODY",
    "CONTENT_STYLE",
    "FILE",
    "FORM",
    "HEADER",
    "LOCATIONS",
    "PATH",
    "QUERY",
    "SAFE_KEY",
    "ApiPolicy",
    "check_version",
    "ArgumentPlace",
    "HttpApi",
    "HttpOperation",
    "OpenApiDocument",
    "OpenApiError",
    "load_document",
    "looks_like_openapi",
    "read_openapi",
    "safe_alias",
]
