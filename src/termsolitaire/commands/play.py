"""Playing: ``termsolitaire [GAME]`` (the menu, or a board) and ``termsolitaire
replay FILE``. The app itself is :class:`termsolitaire.app.SolitaireApp`; this
module builds it from the command line's options and turns how it ended into
the exit status."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from typing import Any

from textual.app import App

from termsolitaire.app import SolitaireApp


def apply_display_options(app: SolitaireApp, args: argparse.Namespace) -> None:
    """The settings give the look; what the command line asks for wins. A terminal
    whose font may lack the cards' glyphs is told how to draw them in ASCII."""
    if getattr(args, "ascii", False):
        app.look = replace(app.look, ascii=True)
    if getattr(args, "four_colour", False):
        app.look = replace(app.look, four_colour=True)
    notice = glyph_notice(os.environ.get("TERM"), app.look.ascii)
    if notice:
        app.services.messages.append(notice)


FONT_LACKS_GLYPHS = ("linux", "vt100", "vt102", "vt220")
"""Terminal types whose fonts lack most of what the cards are drawn with (``▒``,
``▊``, ``▎``): the Linux console's, and the DEC terminals' and those that say
they are one."""


def glyph_notice(term: str | None, ascii: bool) -> str | None:
    """What to tell a player whose terminal type suggests a font without the cards'
    glyphs (None: nothing to tell).

    >>> glyph_notice("linux", ascii=False)
    'TERM=linux: if the cards show boxes or question marks, set Card style to ASCII in Settings'
    >>> glyph_notice("linux", ascii=True), glyph_notice("xterm-256color", ascii=False)
    (None, None)
    """
    if ascii or (term or "").partition("-")[0] not in FONT_LACKS_GLYPHS:
        return None
    return (
        f"TERM={term}: if the cards show boxes or question marks, "
        "set Card style to ASCII in Settings"
    )


NEEDS_TERMINAL = "playing needs a terminal, and {} is not one (show, solve and stats work without)"


def no_terminal() -> bool:
    """True, having said why on stderr, when the app has no terminal here: its
    standard input or output is a pipe, a file or /dev/null. Started there,
    Textual drew into the pipe, or read an end of file at once and ended in a
    traceback. Under textual-serve (``termsolitaire web``) the browser is the
    terminal: Textual's web driver, named by ``TEXTUAL_DRIVER``, uses pipes."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return False
    for name, stream in (("standard input", sys.stdin), ("standard output", sys.stdout)):
        if stream is None or not stream.isatty():
            sys.stderr.write(f"termsolitaire: {NEEDS_TERMINAL.format(name)}\n")
            return True
    if os.environ.get("TERM") == "dumb":  # Emacs' shell: no cursor to move
        sys.stderr.write(f"termsolitaire: {NEEDS_TERMINAL.format('TERM=dumb')}\n")
        return True
    return False


def run(args: argparse.Namespace, game: str | None, variant: dict[str, int]) -> int:
    """Start the app ; the exit status."""
    if no_terminal():
        return 1
    app = SolitaireApp(
        game,
        getattr(args, "deal", None),
        variant,
        time_limit=getattr(args, "time_limit", 0) or 0,
        data_dir=getattr(args, "data_dir", None),
        resume=getattr(args, "deal", None) is None,
        variant_given=bool(getattr(args, "variant_given", False)),
        winnable=bool(getattr(args, "winnable", False)),
    )
    apply_display_options(app, args)
    result = app.run(mouse=app.services.settings.mouse)
    return exit_status(app, result)


def exit_status(app: App[Any], result: object) -> int:
    """The process's exit status: the app's error code after a crash (Textual has
    shown or logged its traceback), else the result it exited with."""
    if app.return_code:
        return app.return_code
    return result if isinstance(result, int) else 0


def looks_like_code(text: str) -> bool:
    """Not a path: letters and digits only (dashes and spaces allowed), as codes are."""
    bare = "".join(text.split()).replace("-", "")
    return bool(bare) and bare.isalnum() and "." not in text


def run_replay(args: argparse.Namespace) -> int:
    """``termsolitaire replay FILE`` (or ``replay CODE``, a share code) ; the exit status."""
    from pathlib import Path

    from termsolitaire.replay import load_replay

    code = not Path(args.file).exists() and looks_like_code(args.file)
    try:
        if not code:
            replay = load_replay(args.file)
        else:  # a share code (issue 31)
            from termsolitaire.commands.share import replay_of_code

            replay = replay_of_code(args.file, getattr(args, "match_dir", None))
    except ValueError as e:
        where = "" if code or str(args.file) in str(e) else f"{args.file}: "
        sys.stderr.write(f"termsolitaire replay: {where}{e}\n")  # as share, solve, board
        return 2  # a bad argument (API.md), as solve's unreadable --position
    if no_terminal():
        return 1
    app = SolitaireApp(data_dir=getattr(args, "data_dir", None), replay=replay)
    apply_display_options(app, args)
    result = app.run(mouse=app.services.settings.mouse)
    return exit_status(app, result)
