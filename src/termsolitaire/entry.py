"""The console script ``termsolitaire`` (and ``python -m termsolitaire``): the
command line, with the cyclic collector paused from its very first import
(:mod:`termsolitaire.collector`; the command line's own imports set off some
fifteen young collections, about 3 ms of a board's launch)."""

from __future__ import annotations

from termsolitaire import collector


def main() -> int:
    collector.pause()
    try:
        from termsolitaire.cli import main as command_line
    except BaseException:
        collector.resume()
        raise
    return command_line()
