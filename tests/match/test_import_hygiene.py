"""The match package is plain Python: importing all of it loads neither textual nor rich."""

from __future__ import annotations

import subprocess
import sys


def test_match_imports_neither_textual_nor_rich() -> None:
    code = (
        "import sys, pkgutil, importlib, termsolitaire.match as m\n"
        "for info in pkgutil.iter_modules(m.__path__):\n"
        "    importlib.import_module(f'termsolitaire.match.{info.name}')\n"
        "s = m.MatchStore(m.Player.make('x'), sys.argv[1])\n"
        "s.open_table(deal=1).start()\n"
        "bad = [n for n in sys.modules if n.split('.')[0] in ('textual', 'rich')]\n"
        "print(len(list(pkgutil.iter_modules(m.__path__))), bad)\n"
    )
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run(
            [sys.executable, "-c", code, d], capture_output=True, text=True, check=True
        )
    count, bad = out.stdout.split(" ", 1)
    assert int(count) >= 10
    assert bad.strip() == "[]"
