"""The play controller: everything a board does between a key and the rules core.

Plain, typed Python with no Textual import: :class:`~.controller.Controller`
(the game session, the hand, the clock, the solver's advice and one explicit
:class:`~.modes.Mode`), the :mod:`.tables` the actions go through (the game,
or a seat at a match table), and :mod:`.session` (saving, statistics, the
clock). The screens render the controller's state and turn each
:class:`~.outcome.Outcome` into what the player sees.
"""
