"""Compiled tests of marshmallow validators for :mod:`referee.schemas.fastcheck` (issue 11):
each answers whether the validator raises no ``ValidationError`` for a value, without the call
through marshmallow and its ``try``/``except``; and the memory of the strings a text field's
check passed.  ``tests/api/test_fastcheck_validators.py`` compares each with its validator."""
from __future__ import annotations

from typing import Any, Callable

from marshmallow import ValidationError, validate

from referee.schemas import fields as own

Check = Callable[[Any], bool]


REMEMBERED = 256
"""At most this many strings a text field's check passed are remembered per field (then the
memory is emptied and starts again); only strings of at most :data:`REMEMBERED_CHARS`."""
REMEMBERED_CHARS = 64


def text_only(validator: Callable) -> bool:
    """A validator whose verdict on a string depends on that string alone (a ``Length``, a
    ``OneOf``, the free-text rules), so a string it passed once passes again."""
    return (type(validator) in (validate.Length, validate.OneOf)
            or validator is own.valid_text or validator is own.valid_seat_name)


def remembering(check: Check) -> Check:
    """``check`` of a str field whose validators are all :func:`text_only`, answering at once
    for a string it passed before (the same few names fill a snapshot: All Fours' 40 names
    are 4, each tested for the free-text rules every time).  Only passes are remembered;
    anything else is checked every time."""
    passed: set[str] = set()

    def remembered(value: Any) -> bool:
        if type(value) is str and value in passed:
            return True
        if not check(value):
            return False
        if type(value) is str and len(value) <= REMEMBERED_CHARS:
            if len(passed) >= REMEMBERED:
                passed.clear()
            passed.add(value)
        return True
    return remembered


def validator_test(validator: Callable) -> Check:
    """``test(value) -> bool``: the validator raises no ``ValidationError`` for ``value``.
    ``OneOf`` over strings (card codes…) is a set lookup (its ``value in choices``); a
    ``Length`` or ``Range`` is its own comparisons, in its own order; the free-text validator
    (``fields.valid_text``) is ``text_problem``'s answer, which is what it raises on, and the
    seat-name one (``fields.valid_seat_name``) ``seat_name_problem``'s."""
    if type(validator) is validate.OneOf and all(type(c) is str for c in validator.choices):
        choices = frozenset(validator.choices)
        return lambda value: type(value) is str and value in choices
    if type(validator) is validate.Length:
        return _length_test(validator.min, validator.max, validator.equal)
    if type(validator) is validate.Range:
        return _range_test(validator)
    if validator is own.valid_text:
        return lambda value: own.text_problem(value) is None
    if validator is own.valid_seat_name:
        return lambda value: own.seat_name_problem(value) is None

    def test(value: Any) -> bool:
        try:
            validator(value)
        except ValidationError:
            return False
        return True
    return test


def _length_test(low: int | None, high: int | None, equal: int | None) -> Check:
    """``Length.__call__`` as a test: ``len`` against ``equal``, else ``min`` then ``max``."""
    if equal is not None:
        return lambda value: len(value) == equal
    if low is not None and high is not None:
        return lambda value: low <= len(value) <= high
    if low is not None:
        return lambda value: len(value) >= low
    if high is not None:
        return lambda value: len(value) <= high
    return lambda value: len(value) >= 0  # len still runs (a value without one raises)


def _range_test(bounds: Any) -> Check:
    """``Range.__call__`` as a test: the same comparisons, inclusive or not as it says."""
    low, high = bounds.min, bounds.max
    low_in, high_in = bounds.min_inclusive, bounds.max_inclusive

    def test(value: Any) -> bool:
        if low is not None and (value < low if low_in else value <= low):
            return False
        return not (high is not None and (value > high if high_in else value >= high))
    return test


def only_lengths(validators: tuple) -> bool:
    """Length validators see the same length whatever the items became."""
    return all(type(v) is validate.Length for v in validators)
