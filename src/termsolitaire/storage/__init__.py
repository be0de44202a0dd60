"""Where games, settings and statistics live on disk (no textual import).

- :mod:`.paths`: the data and config directories (platformdirs, or
  ``TERMSOLITAIRE_HOME`` / ``--data-dir`` for both);
- :mod:`.files`: atomic writes and keeping broken files aside;
- :mod:`.saves`: the autosave of each game, checksummed JSON;
- :mod:`.settings`: the player's settings, JSON;
- :mod:`.stats`: finished games and statistics, SQLite.
"""
