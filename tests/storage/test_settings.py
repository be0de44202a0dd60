"""Settings: kept between runs, bad values fall back, broken files kept aside."""

from __future__ import annotations

import json

from termsolitaire.storage.paths import paths
from termsolitaire.storage.settings import Settings, load_settings, save_settings


def test_round_trip(tmp_path):
    p = paths(tmp_path)
    s = Settings(card_style="ascii", four_colour=True)
    s.set("spider.suits", 4)
    s.set("spider.time_limit", 15)
    save_settings(p, s)
    assert load_settings(p) == (s, [])
    assert s.game_default("spider", "suits") == 4


def test_settings_written_before_the_declarations_are_read(tmp_path):
    p = paths(tmp_path)
    p.settings.write_text(json.dumps({"version": 1, "spider_suits": 2, "spider_time_limit": 10}))
    s, problems = load_settings(p)
    assert problems == []
    assert (s.game_default("spider", "suits"), s.game_default("spider", "time_limit")) == (2, 10)


def test_defaults_when_missing(tmp_path):
    assert load_settings(paths(tmp_path)) == (Settings(), [])


def test_bad_values_fall_back_one_by_one(tmp_path):
    p = paths(tmp_path)
    p.settings.write_text(json.dumps({"spider_suits": 3, "mouse": False, "four_colour": 1, "x": 1}))
    s, problems = load_settings(p)
    assert s.mouse is False and s.game_default("spider", "suits") == 1
    assert s.four_colour is False
    assert problems == [
        "Settings file: 2 values cannot be used; using the defaults for four_colour=1,"
        " spider.suits=3 (o: the settings)"
    ]


def test_broken_or_future_file_is_kept_aside(tmp_path):
    p = paths(tmp_path)
    for raw in ('{"card_style": "asc', '{"version": 7}', "[1, 2]"):
        p.settings.write_text(raw)
        s, problems = load_settings(p)
        assert s == Settings() and "kept as settings.json.corrupt-" in problems[0]
        assert not p.settings.exists()
        for f in tmp_path.glob("settings.json.corrupt-*"):
            f.unlink()


def test_home_variable_puts_everything_in_one_place(tmp_path, monkeypatch):
    monkeypatch.setenv("TERMSOLITAIRE_HOME", str(tmp_path))
    p = paths()
    assert p.data == p.config == tmp_path
    assert paths(tmp_path / "other").data == tmp_path / "other"
