"""Issue 33: Textual's ``get_theme`` reads its registry in place
(textual_hooks.themes_read_in_place): the same theme as Textual's own for every
name, list of names and unknown name, and a theme registered or dropped later
is found or not, as with Textual's."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.theme import Theme

from termsolitaire import textual_hooks
from termsolitaire.app import SolitaireApp

assert textual_hooks.themes_read_in_place()


def textuals(app: App[Any], name: str) -> Theme | None:
    """Textual's own lookup: the first of the names in ``available_themes``."""
    for token in (t.strip() for t in name.split(",")):
        if token in app.available_themes:
            return app.available_themes[token]
    return None


def test_every_name_finds_textuals_theme() -> None:
    app = SolitaireApp(clock=False)
    names = list(app.available_themes)
    asked = [
        *names,
        *(f" {n} " for n in names),
        "nonesuch",
        "",
        f"nonesuch, {names[3]}",
        f"{names[1]},{names[2]}",
        ",",
    ]
    for name in asked:
        assert app.get_theme(name) is textuals(app, name), name
    assert app.current_theme is app.get_theme(app.theme)


def test_a_theme_registered_later_is_found_and_one_dropped_is_not() -> None:
    app = SolitaireApp(clock=False)
    mine = Theme(name="felt-green", primary="#00aa00")
    assert app.get_theme("felt-green") is None
    app.register_theme(mine)
    assert app.get_theme("felt-green") is mine
    app.unregister_theme("felt-green")
    assert app.get_theme("felt-green") is None


class Narrow(App[None]):
    """An app with fewer themes than it registered: Textual's lookup stays."""

    @property
    def available_themes(self) -> dict[str, Theme]:
        return {"textual-dark": self._registered_themes["textual-dark"]}


def test_an_app_with_its_own_available_themes_keeps_textuals_lookup() -> None:
    app = Narrow()
    assert app.get_theme("nord") is None
    assert app.get_theme("nord, textual-dark") is app.available_themes["textual-dark"]
