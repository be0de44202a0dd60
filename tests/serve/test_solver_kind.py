"""The server says at start whether its solver runs compiled (README, "Faster solver")."""

from __future__ import annotations

import pytest

from termsolitaire.solver import solver_kind


@pytest.mark.asyncio
async def test_the_start_log_says_how_the_solver_runs(serve, caplog) -> None:
    async with serve(prestart=False, solver_workers=0):
        pass
    lines = [r.getMessage() for r in caplog.records if r.name == "termsolitaire.serve"]
    assert f"solver: {solver_kind()}" in lines, lines
