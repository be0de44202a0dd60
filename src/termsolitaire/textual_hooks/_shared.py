"""What more than one group of hooks reads: a sentinel for a dict's missing key and
the bound of the hooks' caches.
"""

from __future__ import annotations

from typing import Any

_MATCHED_MOST = 20_000
"""Past this many places, :data:`.stylesheet._MATCHED` starts again (a bound, never
reached by a session: a login and every board are some 500); so does each other
cache here kept by place, stylesheet, theme or class (:data:`.messages._DISPATCH`,
:data:`.stylesheet._SET_AS`...)."""


_MISSING: Any = object()
"""What a cache's dict gives for a key it does not hold (no ``KeyError`` made)."""
