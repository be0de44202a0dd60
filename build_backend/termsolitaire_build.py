"""The build backend: setuptools' own, plus mypy when the solver is to be compiled.

``pip install .`` builds pure Python, with setuptools alone. With
``TERMSOLITAIRE_COMPILE=1`` in the environment the modules listed in
``compiled-modules.txt`` are compiled by mypyc (``setup.py``), so the build
needs mypy too, and only then: this module adds it to what the build asks for.
Everything else is ``setuptools.build_meta`` unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the hooks this module does not change)

COMPILE_ENV = "TERMSOLITAIRE_COMPILE"
ASKING_ENV = "TERMSOLITAIRE_BUILD_ASKING"
"""Set while setuptools runs ``setup.py`` only to learn what the build needs
(mypy is not there yet) or the package's metadata (compiling then would be
done twice): ``setup.py`` compiles nothing then."""
MYPY = "mypy>=1.10"


def wanted() -> bool:
    """Whether the installer asked for the compiled solver."""
    return os.environ.get(COMPILE_ENV, "").strip() not in ("", "0")


def _asking(hook: Callable[..., Any], *args: Any) -> Any:
    os.environ[ASKING_ENV] = "1"
    try:
        return hook(*args)
    finally:
        del os.environ[ASKING_ENV]


def _requires(hook: Callable[[Any], list[str]], config_settings: Any) -> list[str]:
    found: list[str] = _asking(hook, config_settings)
    return [*found, MYPY] if wanted() else found


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Any = None) -> str:
    return str(
        _asking(_setuptools.prepare_metadata_for_build_wheel, metadata_directory, config_settings)
    )


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: Any = None
) -> str:
    return str(
        _asking(
            _setuptools.prepare_metadata_for_build_editable, metadata_directory, config_settings
        )
    )
