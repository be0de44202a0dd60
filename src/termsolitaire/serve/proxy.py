"""The PROXY protocol (v1 and v2): the player's address behind a TCP balancer.

A balancer (HAProxy ``send-proxy``/``send-proxy-v2``, a cloud load balancer)
opens its own connection to ``serve``; the first bytes on it say whose
connection it carries. With ``serve --proxy-protocol`` every connection must
start with such a header, and the address in it is the one the per-address
limits and the log see. A connection without one is refused (anyone reaching
the port directly could otherwise pose as any address).

Only the header is read here (the spec: haproxy.org/download/2.9/doc/proxy-protocol.txt);
TLVs after v2's addresses are skipped.

>>> parse(b"PROXY TCP4 192.168.0.1 192.168.0.11 56324 443\\r\\nSSH-2.0-x")
(Header(source=('192.168.0.1', 56324), destination=('192.168.0.11', 443)), 47)
>>> parse(b"PROXY TCP4 192.168")  # more to come
(None, 0)
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("termsolitaire.serve")

V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
V1_MAX = 107
"""The longest v1 line, CRLF included (the spec's figure)."""
V2_MAX = 16 + 65535
HEADER_TIMEOUT = 5.0
"""Seconds a connection has to send its header before it is closed."""

Address = tuple[str, int]


class ProxyError(ValueError):
    """Not a PROXY protocol header; ``str(e)`` says what was wrong."""


@dataclass(frozen=True)
class Header:
    """Whose connection this is: ``source`` (the player) and ``destination`` (the
    balancer's front); both None for a LOCAL or UNKNOWN header (a health check)."""

    source: Address | None
    destination: Address | None


def parse(data: bytes) -> tuple[Header | None, int]:
    """The header at the start of ``data`` and its length in bytes; ``(None, 0)``
    while it is incomplete. ProxyError when ``data`` does not start with one."""
    if data[: len(V2_SIGNATURE)] == V2_SIGNATURE[: len(data)]:
        return _parse_v2(data) if len(data) >= 16 else (None, 0)
    if data[:6] == b"PROXY "[: len(data)]:
        return _parse_v1(data)
    raise ProxyError("no PROXY protocol header")


def _parse_v1(data: bytes) -> tuple[Header | None, int]:
    end = data.find(b"\r\n", 0, V1_MAX)
    if end < 0:
        if len(data) >= V1_MAX:
            raise ProxyError("PROXY v1 line longer than 107 bytes")
        return None, 0
    try:
        words = data[:end].decode("ascii").split(" ")
    except UnicodeDecodeError:
        raise ProxyError("PROXY v1 line is not ASCII") from None
    if len(words) >= 2 and words[1] == "UNKNOWN":
        return Header(None, None), end + 2
    if len(words) != 6 or words[1] not in ("TCP4", "TCP6"):
        raise ProxyError(f"bad PROXY v1 line {data[:end]!r}")
    version = 4 if words[1] == "TCP4" else 6
    source = (_address(words[2], version), _port(words[4]))
    destination = (_address(words[3], version), _port(words[5]))
    return Header(source, destination), end + 2


def _address(text: str, version: int) -> str:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        raise ProxyError(f"bad address {text!r} in a PROXY header") from None
    if address.version != version:
        raise ProxyError(f"{text!r} is not an IPv{version} address")
    return str(address)


def _port(text: str) -> int:
    if not text.isdigit() or (len(text) > 1 and text[0] == "0") or int(text) > 65535:
        raise ProxyError(f"bad port {text!r} in a PROXY header")
    return int(text)


def _parse_v2(data: bytes) -> tuple[Header | None, int]:
    ver_cmd, family, length = struct.unpack("!BBH", data[12:16])
    if ver_cmd >> 4 != 2:
        raise ProxyError(f"PROXY v2 header of version {ver_cmd >> 4}")
    command = ver_cmd & 0x0F
    if command not in (0, 1):
        raise ProxyError(f"PROXY v2 header with command {command}")
    total = 16 + length
    if len(data) < total:
        return None, 0
    body = data[16:total]
    if command == 0:  # LOCAL: the balancer's own connection (a health check)
        return Header(None, None), total
    if family == 0x11 and length >= 12:  # TCP over IPv4
        src, dst, sport, dport = struct.unpack("!4s4sHH", body[:12])
        return Header(
            (str(ipaddress.IPv4Address(src)), sport), (str(ipaddress.IPv4Address(dst)), dport)
        ), total
    if family == 0x21 and length >= 36:  # TCP over IPv6
        src, dst, sport, dport = struct.unpack("!16s16sHH", body[:36])
        return Header(
            (str(ipaddress.IPv6Address(src)), sport), (str(ipaddress.IPv6Address(dst)), dport)
        ), total
    if family >> 4 == 0:  # UNSPEC: addresses unknown
        return Header(None, None), total
    raise ProxyError(f"PROXY v2 header of family {family:#04x} with {length} bytes")


class _Proxied:
    """The real transport, answering ``peername`` with the header's source."""

    def __init__(self, transport: asyncio.Transport, peer: Address | None) -> None:
        self._transport = transport
        self._peer = peer

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        if name == "peername" and self._peer is not None:
            return self._peer
        return self._transport.get_extra_info(name, default)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class _HeaderFirst(asyncio.Protocol):
    """Reads the header, then hands the connection to the SSH protocol."""

    def __init__(self, factory: Callable[[str, int], asyncio.Protocol]) -> None:
        self.factory = factory
        self.buffer = b""
        self.transport: asyncio.Transport | None = None
        self.inner: asyncio.Protocol | None = None
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.timer = asyncio.get_running_loop().call_later(
            HEADER_TIMEOUT, self._refuse, f"no PROXY header within {HEADER_TIMEOUT:g} s"
        )

    def _refuse(self, why: str) -> None:
        if self.transport is not None:
            peer = self.transport.get_extra_info("peername")
            log.info("refuse ip=%s why=%r (closed at once)", peer[0] if peer else "?", why)
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)
            return
        self.buffer += data
        try:
            header, used = parse(self.buffer)
        except ProxyError as e:
            self._refuse(str(e))
            return
        if header is None:
            if len(self.buffer) > V2_MAX:
                self._refuse("PROXY header too long")
            return
        if self.timer is not None:
            self.timer.cancel()
        assert self.transport is not None
        rest, self.buffer = self.buffer[used:], b""
        local = self.transport.get_extra_info("sockname") or ("", 0)
        self.inner = self.factory(str(local[0]), int(local[1]))
        self.inner.connection_made(_Proxied(self.transport, header.source))  # type: ignore[arg-type]
        if rest:
            self.inner.data_received(rest)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


class ProxyListener:
    """What ``asyncssh.create_server(tunnel=...)`` listens through: a TCP server
    whose connections start with a PROXY header (v1 or v2)."""

    async def create_server(
        self, factory: Callable[[str, int], asyncio.Protocol], host: str, port: int
    ) -> asyncio.Server:
        loop = asyncio.get_running_loop()
        return await loop.create_server(lambda: _HeaderFirst(factory), host, port)
