"""Checks of the ``options`` kept in a submitted snapshot, the same for every game."""
from __future__ import annotations

import dataclasses

from typing import Any, Callable

from referee.games.base import RefereeError, Violation, violation


def snapshot_option_problems(options: Any, resolve_options: Callable[[Any], dict], rule: str,
                             where: str = "state.options") -> list[Violation]:
    """Return what is wrong with a snapshot's ``options``: not an object, an unknown or invalid
    option (``resolve_options``, the engine's check, decides), or one missing (a snapshot keeps
    every option resolved).  ``rule`` is cited for the shape problems."""
    if not isinstance(options, dict):
        return [violation(rule, "options.snapshot_not_object", where)]
    try:
        complete = resolve_options(options)
    except RefereeError as error:
        return [dataclasses.replace(
                    v, field=f"{where.rsplit('.', 1)[0]}.{v.field}" if v.field else where)
                for v in error.violations]
    return [violation(rule, "options.snapshot_lacks", f"{where}.{key}", option=key)
            for key in sorted(set(complete) - set(options))]
