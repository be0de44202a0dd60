"""Shared test setup.

NO_COLOR and TEXTUAL_THEME change how Textual draws, so snapshots would differ
from machine to machine: clear both before anything imports textual.
"""

import os

os.environ.pop("NO_COLOR", None)
os.environ.pop("TEXTUAL_THEME", None)

from hypothesis import settings

# Long property and fuzz runs: TERMSOLITAIRE_FULL=1 asks for the full size;
# CI takes a smaller sample so the whole suite stays within minutes (30, not 60,
# since 2026-12-07: CI ran at half the speed on that day's machines; each run
# draws new examples, so the runs together still cover what 60 did).
settings.register_profile("ci", max_examples=30, deadline=None)
settings.register_profile("full", max_examples=1000, deadline=None)
settings.load_profile("full" if os.environ.get("TERMSOLITAIRE_FULL") else "ci")

FULL = bool(os.environ.get("TERMSOLITAIRE_FULL"))


import pytest  # noqa: E402

OFF_SWITCH = pytest.mark.skipif(not FULL, reason="a switch left off: TERMSOLITAIRE_FULL=1 runs it")
"""For the tests of a search's switches left off (the opponent's ``LEVELS``
fields no level sets, Stjernen's ``restart.COURSE_PROBES``; each 8-20 CPU-s of
pure-Python search): they run in the full run, which is the run to make before
a switch is turned on."""


@pytest.fixture(autouse=True)
def _private_home(tmp_path_factory, monkeypatch):
    """Every test gets its own TERMSOLITAIRE_HOME: no test touches the real data
    directory or sees another test's saves."""
    monkeypatch.setenv("TERMSOLITAIRE_HOME", str(tmp_path_factory.mktemp("home")))
    # The file backend unless a test asks for a database (tests/postgres.py). Set,
    # then removed: so whatever the test sets (``main(["--database", …])`` writes
    # os.environ itself) is undone after it.
    for name in (
        "TERMSOLITAIRE_DATABASE",
        "TERMSOLITAIRE_PLAYER_ID",
        "TERMSOLITAIRE_MATCH_DIR",
        "TERMSOLITAIRE_DAILY_ZONE",
    ):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    # No background searches unless a test asks (tests/screens/test_solving.py):
    # they would make snapshots depend on timing and load the machine.
    monkeypatch.setenv("TERMSOLITAIRE_SOLVER_HELP", "0")


@pytest.fixture
def full_knowledge_help() -> None:
    """The setting "fair hints" off: the solver's help sees every card (issue 35;
    for the tests of the full-knowledge help, written before fair hints)."""
    home = os.environ["TERMSOLITAIRE_HOME"]
    with open(os.path.join(home, "settings.json"), "w", encoding="utf-8") as f:
        f.write('{"version": 1, "fair_hints": false}\n')


@pytest.fixture(scope="session")
def postgres_url():
    """A fresh PostgreSQL database for this test session (tests/postgres.py), dropped
    after; the tests that ask for it skip with one line when there is no server."""
    from .postgres import fresh_database

    yield from fresh_database()


@pytest.fixture
def postgres(postgres_url):
    """The session's database, emptied for this test."""
    from .postgres import reset

    reset(postgres_url)
    return postgres_url


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request, monkeypatch):  # type: ignore[no-untyped-def]
    """The match store's database, for a test that runs on both: the SQLite file, or
    PostgreSQL (a fresh database per test session, emptied per test:
    tests/postgres.py). A module that needs more of it overrides it, asking for
    this one by the same name."""
    if request.param == "postgresql":
        monkeypatch.setenv("TERMSOLITAIRE_DATABASE", request.getfixturevalue("postgres"))
    return str(request.param)


def pytest_terminal_summary(terminalreporter):  # type: ignore[no-untyped-def]
    """One line saying why the PostgreSQL tests skipped (however many they were)."""
    from .postgres import SKIP_PREFIX

    reasons = [
        r.longrepr[2]
        for r in terminalreporter.stats.get("skipped", [])
        if isinstance(r.longrepr, tuple) and SKIP_PREFIX in r.longrepr[2]
    ]
    if reasons:
        why = reasons[0].split(SKIP_PREFIX, 1)[1]
        terminalreporter.write_line(f"{len(reasons)} PostgreSQL tests skipped: {why}")


def pytest_xdist_auto_num_workers(config):  # type: ignore[no-untyped-def]
    """``-n auto`` (README's test command) starts two workers a core, not one.

    About a third of the suite's time is spent waiting, not computing: on ptys,
    SSH servers and their timeouts, a child's fsyncs. With one worker a core the
    workers kept 1.26 of 2 cores busy (docs/journal/2026-12-06-lead23.md); a second worker a core
    computes while the first waits. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still
    decides when set (xdist reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return 2 * len(os.sched_getaffinity(0))


def pytest_report_header() -> str:
    """Whether these tests run the compiled solver (an editable install with
    TERMSOLITAIRE_COMPILE=1 leaves .so files in src/ that do not follow edits:
    README, "Faster solver")."""
    from termsolitaire.solver.compiled import solver_kind

    return f"termsolitaire solver: {solver_kind()}"
