"""Info: a player's match record, and this player's friends and ignore lists.

Shows one player's record (wins, losses and draws, overall and per opponent,
as the store keeps it) and below it the friends and ignore lists. ``p`` shows
another player's record (by name or id); ``f`` puts the player shown on the
friends list, ``g`` on the ignore list, ``u`` takes them off either. The
store's refusals (an unknown name, oneself) show in one line.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from termsolitaire.match import MatchError, Player, Record
from termsolitaire.match.services import MatchServices
from termsolitaire.screens.dialogs.ask import AskScreen
from termsolitaire.screens.dialogs.frames import AsciiFrames
from termsolitaire.widgets.keyline import KeyLine


def record_table(record: Record) -> Table:
    """One row per opponent, most played first."""
    table = Table(box=None, padding=(0, 1), expand=False)
    table.add_column("Against")
    for heading in ("played", "won", "lost", "drawn"):
        table.add_column(heading, justify="right")
    for other, t in record.opponents:
        table.add_row(other.name, str(t.played), str(t.wins), str(t.losses), str(t.draws))
    return table


def overall_text(record: Record) -> str:
    t = record.overall
    if not t.played:
        return f"{record.player.name} has no finished match yet"
    return (
        f"{t.played} match{'es' if t.played != 1 else ''}: {t.wins} won, "
        f"{t.losses} lost, {t.draws} drawn"
    )


class PlayersScreen(AsciiFrames, Screen[None]):
    """A player's record (``who``; this player by default) and the lists."""

    CSS_PATH = "players.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "other", "Another player", id="players-other"),
        Binding("f", "befriend", "Befriend", id="players-befriend"),
        Binding("g", "ignore", "Ignore", id="players-ignore"),
        Binding("u", "unlist", "Off the lists", id="players-unlist"),
        Binding("escape,q,Q", "close", "Back", id="players-close"),
    ]

    def __init__(self, match: MatchServices, who: Player | None = None) -> None:
        super().__init__()
        self.match = match
        self.who = who or match.me

    def compose(self) -> ComposeResult:
        with Vertical(id="players"):
            yield Static("", id="headline")
            yield Static("", id="overall")
            with VerticalScroll(id="record-box"):
                yield Static("", id="record")
            yield Static("", id="lists")
            yield Static("", id="note")
        yield KeyLine()

    def on_mount(self) -> None:
        self.show()

    def note(self, text: str) -> None:
        self.query_one("#note", Static).update(text)

    def show(self) -> None:
        store = self.match.store
        try:
            record = store.record(self.who.id)
            rating = store.rating(self.who.id)
            friends = store.friends()
            ignored = store.ignored()
        except MatchError as e:
            self.note(e.reason)
            return
        you = " (you)" if self.who.id == self.match.me.id else ""
        provisional = " (provisional)" if rating.provisional else ""
        self.query_one("#headline", Static).update(
            f"Match record: {self.who.name}{you} · rating {rating.text()}{provisional}"
        )
        self.query_one("#overall", Static).update(overall_text(record))
        self.query_one("#record", Static).update(record_table(record) if record.opponents else "")
        names = ", ".join(p.name for p in friends) or "nobody yet"
        hidden = ", ".join(p.name for p in ignored) or "nobody"
        self.query_one("#lists", Static).update(
            f"Your friends: {names}\nYou ignore: {hidden} (their tables and invitations "
            "are not shown to you)"
        )

    def action_other(self) -> None:
        def look_up(text: str) -> str | None:
            try:
                self.who = self.match.store.find_player(text)
            except MatchError as e:
                return e.reason
            return None

        def shown(answer: str | None) -> None:
            if answer is not None:
                self.note("")
                self.show()

        self.app.push_screen(
            AskScreen("Whose record?", look_up, placeholder="a player's name or id"), shown
        )

    def _change(self, what: str) -> None:
        store = self.match.store
        who = self.who.id
        try:
            if what == "friend":
                player = store.add_friend(who)
                said = f"{player.name} is on your friends list"
            elif what == "ignore":
                player = store.ignore(who)
                said = f"You ignore {player.name} now"
            else:
                player = self._unlist(who)
                said = f"{player.name} is on neither of your lists now"
        except MatchError as e:
            self.note(e.reason)
            return
        self.show()
        self.note(said)

    def _unlist(self, who: str) -> Player:
        store = self.match.store
        if any(p.id == who for p in store.ignored()):
            return store.unignore(who)
        return store.remove_friend(who)

    def action_befriend(self) -> None:
        self._change("friend")

    def action_ignore(self) -> None:
        self._change("ignore")

    def action_unlist(self) -> None:
        self._change("off")

    def action_close(self) -> None:
        self.app.pop_screen()
