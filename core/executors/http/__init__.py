"""The HTTP executor: ops of an OpenAPI document, run against its server over httpx.

One :class:`HttpExecutor` per upstream, with one pooled client opened once
and closed with the gateway. Requests are built by httpx from the op's
:class:`~opgate.core.catalog.openapi.HttpOperation`; a dry-run is a preview
of that exact request (:func:`curl_command` turns it into a command line).
"""

from ._auth import Credentials
from ._curl import curl_command
from ._executor import HttpExecutor
from ._response import STATUS_ERRORS
from ._retry import backoff_s, retry_after_s

__all__ = ["STATUS_ERRORS", "Credentials", "HttpExecutor", "backoff_s", "curl_command", "retry_after_s"]
