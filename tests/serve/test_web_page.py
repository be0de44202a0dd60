"""``termsolitaire web``'s page asks no other server for anything, fonts included
(issue 30: textual-serve's own page loads Roboto Mono from Google Fonts)."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import textual_serve

from termsolitaire.commands.web import PAGE, templates_dir

OWN = "http://127.0.0.1:8000/"
FETCHED = re.compile(r"""(?:href|src)=["']([^"']+)["']|url\(["']?([^"')]+)""")


def fetched_elsewhere(page: str, own: str) -> list[str]:
    """The addresses the page makes a browser fetch from a server other than ``own``."""
    urls = [a or b for a, b in FETCHED.findall(page)]
    return [u for u in urls if re.match(r"(?i)(https?:)?//", u) and not u.startswith(own)]


def rendered(folder: Path) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder))
    return env.get_template(PAGE).render(
        font_size=16,
        app_websocket_url="ws://127.0.0.1:8000/ws",
        config={"static": {"url": f"{OWN}static/"}},
        application={"name": "termsolitaire"},
    )


def test_textual_serves_own_page_fetches_a_font_from_the_internet() -> None:
    """The reason for ours: if this starts failing, textual-serve fixed it."""
    page = rendered(Path(textual_serve.__file__).parent / "templates")
    assert any("fonts.googleapis.com" in u for u in fetched_elsewhere(page, OWN))


def test_our_page_fetches_nothing_from_another_server(tmp_path: Path) -> None:
    page = rendered(templates_dir(tmp_path))
    assert fetched_elsewhere(page, OWN) == []
    assert not re.search(r"(?i)https?://[^\"')\s]*font", page.replace(OWN, ""))
    font = re.search(r"@font-face\s*{[^}]*url\(\"([^\"]+)\"", page)
    assert font is not None and "Roboto Mono" in page
    assert font.group(1).startswith(f"{OWN}static/fonts/")
    served = (
        Path(textual_serve.__file__).parent / "static" / font.group(1).removeprefix(f"{OWN}static/")
    )
    assert served.is_file()  # the font is one textual-serve ships and serves
    assert "textual-terminal" in page  # still textual-serve's page


def documented_default(section: str, option: str) -> str:
    """The default docs/serve.md gives ``option`` in the options table of the section
    whose heading names ``section`` (its first code span)."""
    text = (Path(__file__).parents[2] / "docs" / "serve.md").read_text(encoding="utf-8")
    parts = [p for p in re.split(r"(?m)^#+ ", text) if p.strip()]
    body = next(p for p in parts if section in p.splitlines()[0] and f"`{option}" in p)
    row = next(r for r in body.splitlines() if r.startswith(f"| `{option}"))
    return re.findall(r"`([^`]*)`", row.split("|")[2])[0]


def test_docs_and_help_agree_on_the_app_command() -> None:
    """Issue 30: docs/serve.md and ``serve --help`` / ``web --help`` give the same
    ``--app-command`` default (the lobby over SSH, the menu in a browser)."""
    from termsolitaire.cli import build_parser

    parser = build_parser(["serve", "web"])
    for command, heading in (("serve", "Options"), ("web", "termsolitaire web")):
        args = parser.parse_args([command])
        assert documented_default(heading, "--app-command") == args.app_command, command
