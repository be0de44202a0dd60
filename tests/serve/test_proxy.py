"""The PROXY protocol (issue 32, acceptance 4): headers v1 and v2 as the spec
writes them, and ``serve --proxy-protocol`` limiting by the address in them."""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
import struct

import pytest

from termsolitaire.serve.proxy import V2_SIGNATURE, Header, ProxyError, parse

# ----------------------------------------------------------------- v1, the spec's lines

V1_EXAMPLES = [
    (
        b"PROXY TCP4 192.168.0.1 192.168.0.11 56324 443\r\n",
        Header(("192.168.0.1", 56324), ("192.168.0.11", 443)),
    ),
    (
        b"PROXY TCP4 255.255.255.255 255.255.255.255 65535 65535\r\n",
        Header(("255.255.255.255", 65535), ("255.255.255.255", 65535)),
    ),
    (
        b"PROXY TCP6 ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\n".replace(
            b"f...f", b":".join([b"ffff"] * 6)
        ),
        Header(
            ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 65535),
            ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 65535),
        ),
    ),
    (b"PROXY UNKNOWN\r\n", Header(None, None)),
    (
        b"PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\n".replace(
            b"f...f", b":".join([b"ffff"] * 6)
        ),
        Header(None, None),
    ),
]


@pytest.mark.parametrize(("line", "header"), V1_EXAMPLES)
def test_v1_the_specs_examples(line: bytes, header: Header) -> None:
    assert len(line) <= 107
    assert parse(line + b"SSH-2.0-client\r\n") == (header, len(line))
    for cut in range(len(line)):  # arriving a byte at a time: wait for the rest
        assert parse(line[:cut]) == (None, 0)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"SSH-2.0-OpenSSH_9.6\r\n", "no PROXY protocol header"),
        (b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n", "bad PROXY v1 line"),
        (b"PROXY TCP4 1.2.3.400 5.6.7.8 1 2\r\n", "bad address"),
        (b"PROXY TCP4 ::1 5.6.7.8 1 2\r\n", "not an IPv4 address"),
        (b"PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n", "bad port"),
        (b"PROXY TCP4 1.2.3.4 5.6.7.8 01 2\r\n", "bad port"),
        (b"PROXY TCP4 " + b"1" * 120, "longer than 107"),
    ],
)
def test_v1_what_is_not_a_header(data: bytes, why: str) -> None:
    with pytest.raises(ProxyError, match=why):
        parse(data)


# ----------------------------------------------------------------- v2, the spec's layout


def v2(command: int, family: int, body: bytes) -> bytes:
    return V2_SIGNATURE + struct.pack("!BBH", 0x20 | command, family, len(body)) + body


def tcp4(src: str, dst: str, sport: int, dport: int) -> bytes:
    a, b = ipaddress.IPv4Address(src).packed, ipaddress.IPv4Address(dst).packed
    return a + b + struct.pack("!HH", sport, dport)


def test_v2_tcp4_tcp6_local_and_unspec() -> None:
    h = v2(1, 0x11, tcp4("192.168.0.1", "192.168.0.11", 56324, 443))
    assert len(h) == 28
    assert parse(h + b"SSH-2.0-x") == (Header(("192.168.0.1", 56324), ("192.168.0.11", 443)), 28)
    six = ipaddress.IPv6Address("2001:db8::1").packed + ipaddress.IPv6Address("::1").packed
    h6 = v2(1, 0x21, six + struct.pack("!HH", 1234, 22))
    assert parse(h6) == (Header(("2001:db8::1", 1234), ("::1", 22)), 52)
    local = v2(0, 0x00, b"")  # the balancer's own health check
    assert parse(local) == (Header(None, None), 16)
    assert parse(v2(1, 0x00, b"")) == (Header(None, None), 16)


def test_v2_tlvs_after_the_addresses_are_skipped() -> None:
    tlv = bytes([0x04]) + struct.pack("!H", 3) + b"abc"  # PP2_TYPE_NOOP
    h = v2(1, 0x11, tcp4("10.0.0.1", "10.0.0.2", 1, 2) + tlv)
    assert parse(h + b"rest") == (Header(("10.0.0.1", 1), ("10.0.0.2", 2)), len(h))


def test_v2_arriving_in_pieces_waits_for_the_rest() -> None:
    h = v2(1, 0x11, tcp4("10.0.0.1", "10.0.0.2", 1, 2))
    for cut in range(len(h)):
        assert parse(h[:cut]) == (None, 0)


@pytest.mark.parametrize(
    ("header", "why"),
    [
        (V2_SIGNATURE + bytes([0x11, 0x11, 0, 12]) + bytes(12), "version 1"),
        (V2_SIGNATURE + bytes([0x22, 0x11, 0, 12]) + bytes(12), "command 2"),
        (v2(1, 0x11, bytes(6)), "family 0x11 with 6 bytes"),
        (v2(1, 0x31, bytes(216)), "family 0x31"),  # AF_UNIX: no address for the limits
    ],
)
def test_v2_what_is_refused(header: bytes, why: str) -> None:
    with pytest.raises(ProxyError, match=why):
        parse(header)


# ----------------------------------------------------------------- behind the balancer


async def _through(h, key, header: bytes):  # type: ignore[no-untyped-def]
    """An SSH connection that starts with ``header``, as from a balancer."""
    sock = socket.create_connection(("127.0.0.1", h.port))
    sock.sendall(header)
    sock.setblocking(False)
    return await h.connect(key, sock=sock)


@pytest.mark.asyncio
@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty")
async def test_the_per_address_rate_holds_behind_the_proxy(serve, key) -> None:  # type: ignore[no-untyped-def]
    """Every connection comes from 127.0.0.1 (the balancer); the limit counts the
    players' addresses from the headers: 203.0.113.7 is refused its third, while
    198.51.100.2 (a v2 header) still gets in; a connection with no header is closed."""
    ann = b"PROXY TCP4 203.0.113.7 127.0.0.1 40000 2222\r\n"
    bob = v2(1, 0x11, tcp4("198.51.100.2", "127.0.0.1", 40001, 2222))
    async with serve(proxy_protocol=True, ip_burst=2, ip_per_minute=1) as h:
        h.register(key, "ann")
        for _ in range(2):
            r = await (await _through(h, key, ann)).run(encoding=None)
            assert b"needs a terminal" in r.stdout  # admitted past the rate (then no pty)
        conn = await _through(h, key, ann)
        process = await conn.create_process(term_type="xterm", encoding=None)
        out = await asyncio.wait_for(process.stdout.read(), 10.0)
        assert b"Too many connections from 203.0.113.7" in out
        assert h.logged(r"^refuse session=\d+ ip=203\.0\.113\.7 key=SHA256:\S+ why='per-address")
        r = await (await _through(h, key, bob)).run(encoding=None)
        assert b"needs a terminal" in r.stdout
        reader, writer = await asyncio.open_connection("127.0.0.1", h.port)
        writer.write(b"SSH-2.0-OpenSSH_9.6\r\n")
        assert await asyncio.wait_for(reader.read(), 10.0) == b""  # refused at once
        writer.close()
        await h.wait_logged(r"^refuse ip=127\.0\.0\.1 why='no PROXY protocol header'")
