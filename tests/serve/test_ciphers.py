"""The ciphers the server offers: the ones asyncssh runs cheaply (AES-GCM, AES-CTR),
not chacha20-poly1305, which it builds in Python for every packet (serve/server.py's
CIPHERS: a client that lists it first would otherwise get it, and the server
would pay for it at every key and frame)."""

from __future__ import annotations

import os

import asyncssh
import pytest

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pty"),
]

OPENSSH_ORDER = (
    "chacha20-poly1305@openssh.com",
    "aes128-ctr",
    "aes192-ctr",
    "aes256-ctr",
    "aes128-gcm@openssh.com",
    "aes256-gcm@openssh.com",
)
"""What an OpenSSH client asks for, in its order (ssh_config's default Ciphers)."""


async def test_a_client_that_prefers_chacha_gets_aes_and_plays(serve, key) -> None:
    async with serve() as h:
        h.register(key, "alice")
        conn = await h.connect(key, encryption_algs=OPENSSH_ORDER)
        assert conn.get_extra_info("send_cipher") == "aes128-ctr"
        assert conn.get_extra_info("recv_cipher") == "aes128-ctr"
        screen = await h.session(conn=conn)
        await screen.wait_for("Spider match lobby")
        asyncssh_default = await h.connect(key)
        assert asyncssh_default.get_extra_info("send_cipher") == "aes256-gcm@openssh.com"


async def test_a_client_with_chacha_alone_is_refused_at_key_exchange(serve, key) -> None:
    async with serve() as h:
        h.register(key, "alice")
        with pytest.raises(asyncssh.KeyExchangeFailed):
            await h.connect(key, encryption_algs=["chacha20-poly1305@openssh.com"])
