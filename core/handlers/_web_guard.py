"""Which network addresses the web tools may reach, checked before every connection.

A page chosen by a model must not become a way into the machine or the network
the gateway runs in (server-side request forgery). The host of every hop is
resolved here, every address it resolves to is checked, and the fetch then
connects to one of exactly those checked addresses, so a DNS answer that
changes between the check and the connection cannot slip past.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Union

from ..exec._errors import InternalError, NotFoundError, PermissionDenied
from ..settings import WebSettings

IPAddress = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]
IPNetwork = Union[ipaddress.IPv4Network, ipaddress.IPv6Network]

HOW_TO_ALLOW = "set allow_private_addresses in the gateway's web settings to reach private hosts"


def _embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (mapped, 6to4, Teredo), which is what it really reaches."""
    if isinstance(ip, ipaddress.IPv4Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    return None


def address_kind(ip: IPAddress) -> str | None:
    """Why ``ip`` is not a public address (``"loopback"``, ``"private"`` ...), or ``None`` if it is one."""
    embedded = _embedded_ipv4(ip)
    if embedded is not None and (kind := address_kind(embedded)):
        return kind
    checks = (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("reserved", ip.is_reserved),
        ("private", ip.is_private),
        ("non-public", not ip.is_global),
    )
    return next((kind for kind, hit in checks if hit), None)


@dataclass(frozen=True)
class AddressGuard:
    """Allows public addresses, plus every address if ``allow_private``, plus ``allowed_networks``.

    ``allowed_networks`` opens single ranges (a local search proxy, a test
    server) without opening the whole private space.
    """

    allow_private: bool = False
    allowed_networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def from_settings(cls, web: WebSettings) -> AddressGuard:
        return cls(allow_private=web.allow_private_addresses)

    @classmethod
    def allowing(cls, *networks: str) -> AddressGuard:
        """A guard that refuses private addresses except those in ``networks`` (``"127.0.0.1/32"``)."""
        return cls(allowed_networks=tuple(ipaddress.ip_network(n) for n in networks))

    def refusal(self, ip: IPAddress) -> str | None:
        """Why ``ip`` may not be reached, or ``None`` when it may."""
        if self.allow_private or any(ip.version == net.version and ip in net for net in self.allowed_networks):
            return None
        kind = address_kind(ip)
        return f"{ip} is a {kind} address" if kind else None

    def check(self, host: str, addresses: Iterable[IPAddress]) -> None:
        """Raise :class:`PermissionDenied` unless every address ``host`` resolved to is allowed."""
        for ip in addresses:
            reason = self.refusal(ip)
            if reason:
                raise PermissionDenied(f"refused to reach {host}: {reason}; web tools only reach public addresses ({HOW_TO_ALLOW})", host=host, address=str(ip))


def _getaddrinfo(host: str, port: int) -> list[IPAddress]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    seen: dict[IPAddress, None] = {}
    for _family, _type, _proto, _name, sockaddr in infos:
        # Strip an IPv6 zone ("fe80::1%eth0"): the address alone decides.
        seen.setdefault(ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0]), None)
    return list(seen)


def resolve(host: str, port: int, timeout_s: float) -> list[IPAddress]:
    """Every address ``host`` resolves to, within ``timeout_s``.

    getaddrinfo has no timeout of its own, so it runs in a daemon thread that is
    abandoned (not joined) when the time is up.
    """
    outcome: dict[str, object] = {}

    def work() -> None:
        try:
            outcome["addresses"] = _getaddrinfo(host, port)
        except BaseException as exc:  # handed back to the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=work, name=f"resolve {host}", daemon=True)
    thread.start()
    thread.join(timeout_s)
    if thread.is_alive():
        raise InternalError(f"looking up {host} took longer than {timeout_s:g} s; try again later", retryable=True, host=host)
    error = outcome.get("error")
    if isinstance(error, socket.gaierror):
        if error.errno == socket.EAI_AGAIN:
            raise InternalError(f"looking up {host} failed for now ({error.strerror}); try again later", retryable=True, host=host)
        raise NotFoundError(f"the host {host} does not exist (DNS lookup failed: {error.strerror}); check the address", host=host)
    if isinstance(error, BaseException):
        raise InternalError(f"looking up {host} failed: {error}", host=host)
    addresses = outcome.get("addresses") or []
    if not addresses:
        raise NotFoundError(f"the host {host} has no addresses; check the address", host=host)
    return addresses  # type: ignore[return-value]


def resolve_checked(host: str, port: int, guard: AddressGuard, timeout_s: float) -> list[IPAddress]:
    """The addresses of ``host``, after checking that the guard allows every one of them."""
    addresses = resolve(host, port, timeout_s)
    guard.check(host, addresses)
    return addresses
