"""The terminal and its keys: bindings read and made at run time (a key typed
ahead, a dialog's answers), mouse reporting switched while the app runs, the
terminal's size as the driver reads it; and the private names of Textual's Linux
driver that :mod:`termsolitaire.terminal.driver` reaches into (its input loop,
signal handlers and writer).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from typing import Any

HOOKS: tuple[tuple[str, str, str], ...] = (
    ("textual.dom", "DOMNode", "_bindings"),
    ("textual.binding", "BindingsMap", "key_to_bindings"),
    ("textual.binding", "BindingsMap", "bind"),
    ("textual.app", "App", "_driver"),
    ("textual.app", "App", "_on_key"),
    ("textual.app", "App", "_on_resize"),
    ("textual.app", "App", "_handle_exception"),
    ("textual.driver", "Driver", "_mouse"),
    ("textual.driver", "Driver", "_app"),
    ("textual.driver", "Driver", "_loop"),
    ("textual.driver", "Driver", "_debug"),
    ("textual.driver", "Driver", "_auto_restart"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_get_terminal_size"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_enable_mouse_support"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_disable_mouse_support"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_sigcont_application"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_sigtstp_application"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_must_signal_resume"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_file"),
    ("textual.drivers.linux_driver", "LinuxDriver", "_writer_thread"),
    ("textual.drivers.linux_driver", "LinuxDriver", "exit_event"),
    ("textual.drivers.linux_driver", "LinuxDriver", "run_input_thread"),
    ("textual._xterm_parser", "XTermParser", "feed"),
    ("textual._xterm_parser", "XTermParser", "tick"),
)
"""(module, class, attribute): the private names of Textual used here and in
:mod:`termsolitaire.terminal.driver`, a part of :data:`termsolitaire.textual_hooks.HOOKS`."""


def key_bindings(node: Any, key: str) -> Iterable[Any]:
    """The bindings ``node`` has for ``key`` (its own, as Textual resolved them);
    from its ``BINDINGS`` list when Textual's map is gone."""
    found = getattr(getattr(node, "_bindings", None), "key_to_bindings", None)
    if isinstance(found, dict):
        return tuple(found.get(key, ()))
    from textual.binding import Binding

    return tuple(
        b
        for b in getattr(node, "BINDINGS", ())
        if isinstance(b, Binding) and key in (k.strip() for k in b.key.split(","))
    )


def bind_key(screen: Any, key: str, action: str, description: str = "") -> bool:
    """Bind ``key`` to ``action`` on ``screen`` at run time (a dialog's answers),
    shown on its key line with ``description`` (none: not shown); False when
    Textual no longer lets it (the dialog's buttons still answer)."""
    bind = getattr(getattr(screen, "_bindings", None), "bind", None)
    if bind is None:
        return False
    bind(key, action, description, show=bool(description))
    return True


def set_mouse(app: Any, on: bool) -> bool:
    """Switch the terminal's mouse reporting now; False when the driver cannot
    (the setting then takes effect at the next start)."""
    driver = getattr(app, "_driver", None)
    enable = getattr(driver, "_enable_mouse_support", None)
    disable = getattr(driver, "_disable_mouse_support", None)
    if driver is None or enable is None or disable is None or not hasattr(driver, "_mouse"):
        return False
    if on:
        driver._mouse = True
        enable()
    else:
        disable()
        driver._mouse = False
    return True


def terminal_size(driver: Any) -> tuple[int, int]:
    """The terminal's size as the driver reads it (else as the OS says)."""
    read = getattr(driver, "_get_terminal_size", None)
    if read is not None:
        width, height = read()
        return int(width), int(height)
    size = shutil.get_terminal_size()
    return size.columns, size.lines
