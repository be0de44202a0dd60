"""The console script ``termsolitaire`` (and ``python -m termsolitaire``): the
command line, with the cyclic collector paused from its very first import
(:mod:`termsolitaire.collector`; the command line's own imports set off some
fifteen young collections, about 3 ms of a board's launch) and the dataclasses
made from then on compiling their methods at their first call
(:mod:`termsolitaire.lazy_dataclasses`; 7% of a board's launch)."""

from __future__ import annotations

from termsolitaire import collector


def launching() -> None:
    """What the console script does before the command line's first import."""
    collector.pause()
    # dataclasses (and inspect, typing) imported with the collector off: before
    # it, their imports set off some twenty young collections, 12M instructions
    from termsolitaire import lazy_dataclasses

    lazy_dataclasses.defer()


def main() -> int:
    launching()
    try:
        from termsolitaire.cli import main as command_line
    except BaseException:
        collector.resume()
        raise
    return command_line()
