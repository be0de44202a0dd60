"""Issue 33: the warm process builds a session's command-line parser before it
forks (``cli.prebuild``), and a session reads its command line with it, once,
exactly as with a parser of its own."""

from __future__ import annotations

import argparse
import shlex
from typing import Any

import pytest

from termsolitaire import cli
from termsolitaire.serve.config import APP_COMMAND
from termsolitaire.serve.warm import SESSION_ARGV


def test_the_prebuilt_command_line_is_the_servers() -> None:
    words = shlex.split(APP_COMMAND)
    assert tuple(words[words.index("termsolitaire") + 1 :]) == SESSION_ARGV


@pytest.mark.parametrize(
    "argv",
    [
        ["match"],
        ["match", "--ascii"],
        ["--four-colour", "match", "--join", "AB12"],
        ["penguin", "--deal", "5"],
    ],
)
def test_main_reads_a_command_line_with_its_prebuilt_parser_once(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[argparse.Namespace, argparse.ArgumentParser]] = []

    def dispatch(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
        seen.append((args, parser))
        return 0

    monkeypatch.setattr(cli, "_dispatch", dispatch)
    monkeypatch.setattr(cli, "PREBUILT", {})
    assert cli.main(argv) == 0  # a parser of its own
    cli.prebuild(argv)
    prebuilt = next(iter(cli.PREBUILT.values()))
    assert cli.main(argv) == 0
    assert not cli.PREBUILT  # taken
    (own_args, own), (args, parser) = seen
    assert parser is prebuilt and parser is not own
    assert vars(args) == vars(own_args)


def test_a_prebuilt_parser_for_another_command_line_is_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cli, "_dispatch", lambda args, parser: 0)
    monkeypatch.setattr(cli, "PREBUILT", {})
    cli.prebuild(["match"])
    assert cli.main(["penguin", "--deal", "5"]) == 0
    assert len(cli.PREBUILT) == 1


def test_the_warm_process_prebuilds_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from termsolitaire.serve import warm

    built: list[Any] = []
    monkeypatch.setattr(cli, "prebuild", built.append)
    monkeypatch.setattr(warm, "preload", lambda database: [])
    monkeypatch.setattr(warm, "fill_holes", lambda: None)
    monkeypatch.setattr(warm.gc, "freeze", lambda: None)
    warm.prepare(False, rehearse=False)
    assert built == [SESSION_ARGV]
