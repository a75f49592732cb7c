"""Who may call: bearer tokens and their roles, and the caller a call runs for.

The authenticated HTTP server checks a request's token with :class:`TokenBook`
and runs the call inside :func:`acting_as` for a :class:`Caller`; the gateway
reads :func:`current_caller` to decide whether the call may write or answer a
confirmation, whose session it belongs to, and whom the call log names.
"""

import typing as _typing

from .._lazy import lazy_attributes as _lazy_attributes
from ._acting import acting_as, current_caller
from ._roles import ROLES, Caller

if _typing.TYPE_CHECKING:
    from ._rates import SharedRate, shared_rate
    from ._tokens import RESERVED_NAMES, TOKEN_PREFIX, VERIFIED_FOR, IssuedToken, TokenBook, TokenError, token_digest

# Tokens and rates serve the HTTP server and `opgate token`; every gateway reads the caller.
__getattr__ = _lazy_attributes(__name__, globals(), {
    **dict.fromkeys(("SharedRate", "shared_rate"), "._rates"),
    **dict.fromkeys(("RESERVED_NAMES", "TOKEN_PREFIX", "VERIFIED_FOR", "IssuedToken", "TokenBook", "TokenError", "token_digest"), "._tokens"),
})

__all__ = [
    "RESERVED_NAMES",
    "ROLES",
    "TOKEN_PREFIX",
    "VERIFIED_FOR",
    "Caller",
    "IssuedToken",
    "SharedRate",
    "TokenBook",
    "TokenError",
    "acting_as",
    "current_caller",
    "shared_rate",
    "token_digest",
]
