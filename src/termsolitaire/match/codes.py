"""Join codes: short, unambiguous, hard to guess.

A code is eight characters from 30 that cannot be mistaken for one another
(no 0/O, 1/I/L or U), shown as two groups of four: ``7KQM-3XRT``. There are
30**8 (about 6.6e11) codes, drawn with :mod:`secrets`; the store also limits
wrong tries per player. Reading is forgiving: case, spaces and dashes do not
matter, and the look-alikes 0, O, 1, I, L are told apart from a typo.

>>> normalise(" 7kqm 3xrt ")
'7KQM3XRT'
>>> show("7KQM3XRT")
'7KQM-3XRT'
"""

from __future__ import annotations

import secrets

from .errors import BadCode

ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8


def new_code() -> str:
    """A fresh random code (normalised form, no dash)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def show(code: str) -> str:
    """The code as shown to players: ``ABCD-EFGH``."""
    return f"{code[:4]}-{code[4:]}"


def normalise(text: str) -> str:
    """The code in ``text``, or :class:`BadCode` saying what is wrong with it."""
    code = "".join(text.split()).replace("-", "").upper()
    if not code:
        raise BadCode("Type the table's code, like 7KQM-3XRT")
    odd = sorted({c for c in code if c not in ALPHABET})
    if odd:
        shown = " ".join(odd)
        hint = " (codes have no 0, O, 1, I, L or U)" if set(odd) & set("0O1ILU") else ""
        raise BadCode(f"{text.strip()!r} is not a table code: it has {shown}{hint}")
    if len(code) != LENGTH:
        raise BadCode(
            f"{text.strip()!r} is not a table code: codes have {LENGTH} characters, like 7KQM-3XRT"
        )
    return code
