"""The rules of each game, written for players: a page per game.

Each game's page is ``screens/<name>.md`` beside its board; the same text, all
four pages together, is ``docs/rules.md`` in the repository
(:func:`rules_document` makes it; a test checks the two agree). Reached with
``r`` in the menu, from a board's help (``?`` then ``r``), and from the command
palette.
"""

from __future__ import annotations

from importlib.resources import files
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen

from termsolitaire.rules import games, info
from termsolitaire.screens.dialogs.frames import AsciiFrames, Page, markdown
from termsolitaire.widgets.keyline import KeyLine

DOC_HEAD = """# The rules of the four games

Written for players; the same pages are in the program (`r` in the menu, or
`?` then `r` on a board). The contract the code follows, with every point the
sources leave open decided, is RULES.md; where this page and that one
disagree, RULES.md wins and this page is wrong.
"""


RULES_PAGES = "termsolitaire.screens.boards"
"""The package holding each game's page, ``<name>.md``, beside its board."""


def rules_text(name: str) -> str:
    """The rules page of game ``name`` (Markdown); a game declared without one
    gets its declaration's blurb, and a sentence saying there is no page."""
    try:
        return files(RULES_PAGES).joinpath(f"{name}.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        g = info(name)
        return f"# {g.title}\n\n{g.blurb}\n\n*There is no rules page for {g.title} yet.*\n"


def rules_document() -> str:
    """docs/rules.md: every game's page, in menu order."""
    pages = [rules_text(g.name) for g in games()]
    return DOC_HEAD + "\n" + "\n".join(pages)


class RulesScreen(AsciiFrames, ModalScreen[None]):
    """One game's rules; Escape, q or r closes it."""

    CSS_PATH = "rulebook.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,r", "close", "Close the rules", id="rules-close"),
    ]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with Page(id="rules-body"):
            yield markdown(self, rules_text(self.game), id="rules-text")
        yield KeyLine()

    def on_mount(self) -> None:
        self.query_one("#rules-body").focus()
        self.sub_title = info(self.game).title

    def action_close(self) -> None:
        self.dismiss(None)


if __name__ == "__main__":  # python -m termsolitaire.screens.dialogs.rulebook > docs/rules.md
    print(rules_document(), end="")
