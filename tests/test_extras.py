"""``pip install termsolitaire`` plays without the server's packages; ``serve`` and
``web`` without them say in one line what to install (issue 29). The packages'
absence is simulated: ``sys.modules[name] = None`` makes importing them fail."""

from __future__ import annotations

import subprocess
import sys

import pytest

from termsolitaire.cli import main

SERVE_ONLY = ("asyncssh", "textual_serve", "cryptography")


@pytest.mark.parametrize(
    ("argv", "package"),
    [(["serve", "--port", "0"], "asyncssh"), (["web", "--port", "8000"], "textual-serve")],
)
def test_serve_and_web_without_their_extra_say_what_to_install(
    argv: list[str], package: str, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    for name in SERVE_ONLY:
        monkeypatch.setitem(sys.modules, name, None)
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err == (
        f"termsolitaire {argv[0]}: needs {package}, which is not installed: "
        "pip install 'termsolitaire[serve]'\n"
    )


def test_the_game_needs_none_of_the_server_s_packages() -> None:
    """Every module the game, its menu and boards, the match, the solver and the
    printing commands load imports without asyncssh, textual-serve or cryptography."""
    code = (
        "import sys, importlib\n"
        f"for name in {SERVE_ONLY!r}:\n"
        "    sys.modules[name] = None\n"
        "from termsolitaire.cli import build_parser, main\n"
        "build_parser()\n"
        "for m in ('app', 'commands.play', 'commands.match', 'commands.solve',\n"
        "          'commands.opponent', 'screens.menu', 'screens.boards.penguin',\n"
        "          'screens.match.lobby', 'match', 'solver', 'storage.saves'):\n"
        "    importlib.import_module('termsolitaire.' + m)\n"
        "sys.exit(main(['show', 'penguin', '--deal', '1']))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("game: penguin\ndeal: 1\n")
