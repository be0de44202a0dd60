"""The command line's subcommands, above the app: each module turns one command's
options into a run of the app, a server or a printout, and its exit status.

:mod:`termsolitaire.cli` parses the command line and hands each command to its
module here: :mod:`.play` (a game, the menu, ``replay``), :mod:`.match`,
:mod:`.solve`, :mod:`.opponent`, :mod:`.serve`, :mod:`.web` and :mod:`.db`;
:mod:`.options` holds the options several of them share. Nothing below this
package (the app, its screens and widgets, the rules, the solver, the match
and storage layers) imports it; import-linter checks that (pyproject.toml).
"""
