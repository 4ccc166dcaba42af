"""The compiled validator tests of ``referee.schemas.validator_tests`` (``Length``, ``Range``, the
free-text validator) answer "passes" exactly when marshmallow's validator raises nothing, for
every bound form the validators take and values at, inside and outside each bound (issue 11:
a fast path is proven equal to the slow one)."""
from __future__ import annotations

import pytest
from marshmallow import ValidationError, validate

from referee.schemas.validator_tests import validator_test
from referee.schemas.fields import valid_seat_name, valid_text

LENGTHS = [validate.Length(1, 64), validate.Length(0, 4), validate.Length(min=2),
           validate.Length(max=3), validate.Length(equal=2), validate.Length()]
RANGES = [validate.Range(1), validate.Range(0), validate.Range(0, 10000), validate.Range(max=5),
          validate.Range(1, 5, min_inclusive=False), validate.Range(1, 5, max_inclusive=False),
          validate.Range(-3, 3, min_inclusive=False, max_inclusive=False), validate.Range()]
SIZED = ["", "a", "ab", "abc", "abcd", "x" * 64, "x" * 65, [], [1], [1, 2], [1, 2, 3, 4, 5],
         {}, {"a": 1, "b": 2, "c": 3}]
NUMBERS = [-10**30, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 9999, 10000, 10001, 2**64]
TEXTS = ["ana", "Ana Lee", "", " ana", "ana ", "ana\u202e", "ana\x00", "\u3164", "e\u0301",
         "\u00e9", "\u0301a", "❤\ufe0f", "a\ufe0f", "名前", "\u2800", "a\nb", "x" * 200,
         "\u0430na", "ana\ufffd", "1\u0661", "ခင်မောင်", "ကျော် (Kyaw)", "a\u0301\u0301"]


def raises_nothing(validator, value) -> bool:
    try:
        validator(value)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("validator", LENGTHS + RANGES + [valid_text, valid_seat_name],
                         ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_each_compiled_validator_test_is_the_validator(validator):
    values = SIZED if isinstance(validator, validate.Length) else \
        NUMBERS if isinstance(validator, validate.Range) else TEXTS
    test = validator_test(validator)
    assert [test(v) for v in values] == [raises_nothing(validator, v) for v in values]
    assert any(test(v) for v in values)  # both answers are seen
    assert not all(test(v) for v in values) or validator in (LENGTHS[-1], RANGES[-1])


def test_a_remembered_name_check_answers_as_the_check_every_time():
    """The player-name check (Length(1, 64) and the free-text rules) remembers the names it
    passed: asked again and again, in any order, past the memory's bound (it is emptied and
    starts again), it answers what the unremembered check does, and never passes a name
    because another passed."""
    from referee.schemas.fastcheck import _checked, _delegate
    from referee.schemas.fields import PlayerName
    from referee.schemas.validator_tests import REMEMBERED

    field = PlayerName()
    check = _checked(field)[0]
    plain = _delegate(field)  # marshmallow's own deserialize, every time
    names = TEXTS + [None, 3, ["ana"], "x" * 64, "Ana", "ANA"]
    many = [f"p{i}" for i in range(REMEMBERED + 10)] + [f" p{i}" for i in range(20)]
    for value in names * 3 + many + names + many[::-1] + names:
        assert check(value) is plain(value), value
    assert check("ana") and not check(" ana") and not check("ana\u202e")


def _fields_of(schema, seen=None):
    """Every field of ``schema``, nested schemas', lists' items and dicts' keys and values."""
    from marshmallow import fields as ma_fields
    seen = set() if seen is None else seen
    todo = list(schema.load_fields.values())
    while todo:
        field = todo.pop()
        if id(field) in seen:
            continue
        seen.add(id(field))
        yield field
        if isinstance(field, ma_fields.List):
            todo.append(field.inner)
        elif isinstance(field, ma_fields.Dict):
            todo += [f for f in (field.key_field, field.value_field) if f is not None]
        elif isinstance(field, ma_fields.Nested) and not field.many:
            yield from _fields_of(field.schema, seen)


def test_every_compiled_field_check_answers_none_as_marshmallow():
    """A field's compiled check of ``null`` (a field refusing it hands back its bare type
    test, which must refuse it too) is marshmallow's answer, for every field of every game's
    snapshot, action and request schemas."""
    from referee.registry import GAMES
    from referee.schemas.allfours import ScoreRequestSchema
    from referee.schemas.common import ActionRequestSchema, LegalActionsRequestSchema
    from referee.schemas.fastcheck import _checked, _delegate

    schemas = [ScoreRequestSchema(), ActionRequestSchema(), LegalActionsRequestSchema()]
    for entry in GAMES.values():
        schemas += [entry.schemas.StateSchema()] + [cls() for cls in
                                                   entry.schemas.ACTION_SCHEMAS.values()]
    checked = 0
    for schema in schemas:
        for field in _fields_of(schema):
            assert _checked(field)[0](None) is _delegate(field)(None), (schema, field)
            checked += 1
    assert checked > 100
