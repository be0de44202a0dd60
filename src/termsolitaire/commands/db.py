"""``termsolitaire db``: the PostgreSQL database's schema and moving files into it.

- ``db upgrade``: apply the migrations the database lacks (:mod:`.schema`);
- ``db import DATA_DIR``: move one host's files into the database
  (:mod:`.transfer`), printing a count of what moved; run again, it moves nothing;
- ``db status``: the schema version, and whether it is the latest.

The database is ``--database URL``, else ``$TERMSOLITAIRE_DATABASE``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from termsolitaire.storage.backend import backend_of, database_url
from termsolitaire.storage.files import StorageError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = "The shared PostgreSQL database (--database URL or TERMSOLITAIRE_DATABASE)."
    # before the action or after it (README writes `db upgrade | status | import
    # DATA_DIR [--database URL]`; only the first was understood)
    database = argparse.ArgumentParser(add_help=False)
    for parser in (database, p):
        parser.add_argument(
            "--database", metavar="URL", default=argparse.SUPPRESS, help="postgresql://… URL"
        )
    sub = p.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    sub.add_parser("upgrade", help="create or upgrade the schema", parents=[database])
    sub.add_parser("status", help="print the schema version", parents=[database])
    imp = sub.add_parser(
        "import", help="move a data directory's files into the database", parents=[database]
    )
    imp.add_argument("directory", metavar="DATA_DIR", type=Path, help="the data directory")
    imp.add_argument(
        "--owner",
        metavar="ID",
        help="whose are the files at the top of DATA_DIR (default local:USER); "
        "players/*/ under it are each their key's",
    )


def run(args: argparse.Namespace) -> int:
    import psycopg

    url = database_url(getattr(args, "database", None))
    try:
        if backend_of(url) != "postgresql" or url is None:
            raise ValueError(
                "no database: give --database postgresql://… or TERMSOLITAIRE_DATABASE"
            )
        from termsolitaire.storage import schema
        from termsolitaire.storage.postgres import opened

        with opened(url) as conn:
            if args.db_command == "status":
                now = schema.version(conn)
                state = "up to date" if now == schema.LATEST else f"latest is {schema.LATEST}"
                print(f"schema {now} ({state})")
            elif args.db_command == "upgrade":
                for m in schema.upgrade(conn):
                    print(f"applied {m.version}: {m.why}")
                print(f"schema {schema.LATEST}")
            else:
                from termsolitaire.storage.transfer import import_dir

                moved = import_dir(conn, args.directory, args.owner)
                print(moved.text())
    except psycopg.Error as e:
        sys.stderr.write(f"termsolitaire db: {str(e).strip().splitlines()[0]}\n")
        return 1
    except (ValueError, StorageError) as e:
        sys.stderr.write(f"termsolitaire db: {e}\n")
        return 1
    return 0
