"""Finding the rule IDs a text cites: ``COUP-A8b`` as written in code, comments and case files,
and ``coup_a8b`` as test names spell them (``test_spy_r1_r3_...`` cites SPY-R1 and SPY-R3)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

from referee.rulebook import RULE_ID

_SNAKE = re.compile(r"(?<![A-Za-z0-9])(coup|spy|af|gn)((?:_[a-z]\d+[a-z]?)+)(?![0-9])", re.I)
_PART = re.compile(r"([a-z])(\d+)([a-z]?)", re.I)


def cited(text: str) -> set[str]:
    """Every rule ID ``text`` cites, in either spelling, as rule IDs (``COUP-A8b``)."""
    found = set(RULE_ID.findall(text))
    for match in _SNAKE.finditer(text):
        for part in match.group(2).split("_")[1:]:
            letter, number, suffix = _PART.fullmatch(part).groups()
            found.add(f"{match.group(1).upper()}-{letter.upper()}{number}{suffix.lower()}")
    return found


def cited_in(paths: Iterable[Path]) -> dict[str, set[Path]]:
    """``{rule ID: the files citing it}`` over ``paths``."""
    where: dict[str, set[Path]] = {}
    for path in paths:
        for rule_id in cited(path.read_text(encoding="utf-8")):
            where.setdefault(rule_id, set()).add(path)
    return where
