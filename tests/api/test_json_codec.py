"""The orjson fast paths change no byte of any answer and no verdict on any body.

``FastJSONProvider`` must write exactly what Flask's default provider writes (key order,
``ensure_ascii``, floats, errors); ``fast_loads`` must either decline or give exactly what
``json.loads`` gives, for bodies that pass every request guard (``limits.checked_loads``)."""
from __future__ import annotations

import datetime
import decimal
import json
import uuid

import orjson
import pytest
from flask import Flask
from flask.json.provider import DefaultJSONProvider
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.api.errors import Problem
from referee.api.json_codec import (_NOT_BRACKET, _TO_SQUARE, FastJSONProvider, _quick_brackets,
                                    fast_loads)
from referee.api.limits import MAX_DEPTH, checked_loads

scalars = (st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text())
# NaN and infinities reach an answer only from a body: see the test of non-finite numbers.
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=25)


def providers(sort_keys=False, ensure_ascii=True):
    app = Flask(__name__)
    fast, slow = FastJSONProvider(app), DefaultJSONProvider(app)
    for provider in (fast, slow):
        provider.sort_keys, provider.ensure_ascii = sort_keys, ensure_ascii
    return app, fast, slow


def same_response(value, **options):
    app, fast, slow = providers(**options)
    with app.app_context():
        assert fast.response(value).get_data() == slow.response(value).get_data()


@settings(max_examples=400, deadline=None)
@given(values, st.booleans(), st.booleans())
def test_responses_are_byte_for_byte_flasks(value, sort_keys, ensure_ascii):
    try:
        same_response(value, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
    except TypeError:  # sorting mixed keys: both must then fail alike
        app, fast, slow = providers(sort_keys=sort_keys)
        with app.app_context(), pytest.raises(TypeError):
            slow.response(value)


@pytest.mark.parametrize("value", [
    {"b": 1, "a": [1e-05, 1e16, 0.5, -0.0]},     # floats: Python's repr, not orjson's
    {"name": "Zoë", "del": "\x7f", "ctl": "\x01\n"},  # escapes of ensure_ascii
    {1: "int key", None: "null key"},             # keys json.dumps converts
    [2**64, -2**63 - 1],                          # past 64 bits
    {"when": datetime.date(2026, 12, 1), "id": uuid.UUID(int=7),
     "price": decimal.Decimal("1.50")},           # Flask's own conversions
    "\ud800",
])
def test_cases_orjson_writes_differently_still_match_flask(value):
    same_response(value)


def test_the_comparison_can_fail():
    """orjson alone does differ from json.dumps on these: the byte checks above mean it."""
    assert orjson.dumps([1e-05]) != json.dumps([1e-05], separators=(",", ":")).encode()
    assert orjson.dumps("\x7f") != json.dumps("\x7f").encode()


def test_errors_stay_flasks():
    app, fast, slow = providers()
    loop: list = []
    loop.append(loop)
    with app.app_context():
        for provider in (fast, slow):
            with pytest.raises(ValueError, match="Circular"):
                provider.response(loop)
            with pytest.raises(TypeError):
                provider.response({"x": object()})


def outcome(raw: bytes):
    """What the standard-library guard makes of ``raw``: the data, or the problem."""
    try:
        return ("ok", checked_loads(raw))
    except Problem as problem:
        return ("problem", problem.slug, problem.detail)


@settings(max_examples=400, deadline=None)
@given(values)
def test_fast_loads_gives_json_loads_or_declines(value):
    raw = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    fast = fast_loads(raw, MAX_DEPTH)
    if fast is not None:
        assert outcome(raw) == ("ok", fast)
        assert json.dumps(fast) == json.dumps(json.loads(raw))  # -0.0, int vs float alike


@pytest.mark.parametrize("raw", [
    b"[" * 65 + b"]" * 65,                        # too deep: 400 nested deeper (MAX_DEPTH)
    b"[" * 64 + b"]" * 64,                        # exactly the limit: fine
    b'{"a": "[[[[" }', b'["]]]]", [[1]]]',         # brackets inside strings do not count
    b"12345678901234567890123", b"-9223372036854775809",  # past 64 bits: ints, not floats
    b"1" * 4301, b"1" * 81, b"-" + b"1" * 81,      # 422: more than MAX_INT_DIGITS (80)
    b'"\xed\xa0\x80"', b'"\\ud800"',             # lone surrogates: 422 naming the field
    b'{"a": NaN}', b"1e400", b'{"a": 1,}', b"[1]]", b'["a]', b"\xef\xbb\xbf[1]",
    b'{"a": 1, "a": 2}', b"[1.5, -0, 0.1]", b' {"x": [true, false, null]} ',
])
def test_guard_verdicts_unchanged(raw):
    """Every body gets the guard's old verdict: the fast path answers only for bodies that
    the standard library accepts, with the same data (else it declines)."""
    fast = fast_loads(raw, MAX_DEPTH)
    if fast is None:
        return
    assert outcome(raw) == ("ok", fast)
    assert [type(x) for x in _leaves(fast)] == [type(x) for x in _leaves(json.loads(raw))]


def test_fast_path_is_taken_for_a_game_snapshot():
    raw = json.dumps({"state": {"players": ["ana", "ben"], "hands": {"ana": ["AS", "10D"]},
                                "score": {"A": 3}}, "action": {"type": "play"}}).encode()
    assert fast_loads(raw, MAX_DEPTH) == json.loads(raw)
    assert fast_loads(b"[" * 65 + b"]" * 65, MAX_DEPTH) is None  # the depth rule declines
    for raw in (b'{"a": ["]"], "b": "[["}', b'{"id": "12345678901234567890", "n": [1]}'):
        assert fast_loads(raw, MAX_DEPTH) == json.loads(raw)  # by the exact walk


def exact_brackets(raw: bytes) -> bytes | None:
    """The brackets outside the strings of ``raw`` (no backslashes) by splitting on its
    quotes, as ``[``/``]``; ``None`` when a string is not closed (the slow, exact walk)."""
    parts = raw.split(b'"')
    if len(parts) % 2 == 0:
        return None
    return b"".join(parts[::2]).translate(_TO_SQUARE, _NOT_BRACKET)


bracketed = st.text(alphabet='[]{}"a:, ', max_size=8)
bracket_values = st.recursive(st.none() | bracketed, lambda inner: st.lists(inner, max_size=4)
                              | st.dictionaries(bracketed, inner, max_size=4), max_leaves=20)


@settings(max_examples=500, deadline=None)
@given(bracket_values | st.text(alphabet='[]{}"a', max_size=30))
def test_quick_brackets_are_the_exact_walks_or_decline(value):
    """The fast skeleton (no split on quotes) is the exact one whenever it answers, for JSON
    whose strings hold brackets and quotes and for broken text (an odd number of quotes)."""
    raw = value.encode() if isinstance(value, str) else json.dumps(value).encode()
    if b"\\" in raw:
        return
    quick = _quick_brackets(raw)
    if quick is not None:
        assert quick == exact_brackets(raw)


@pytest.mark.parametrize("raw, quick", [
    (b'{"a": [1, "b"], "c": {}}', b"[[][]]"),      # no bracket in a string: answered
    (b'{"a": "]", "b": ["["]}', None),             # brackets in strings: the exact walk
    (b'["a", "b]', None),                          # a string not closed
    (b'["]", "["]', None),                         # the quotes of two strings side by side
])
def test_quick_brackets_cases(raw, quick):
    assert _quick_brackets(raw) == quick
    if quick is not None:
        assert quick == exact_brackets(raw)


def _leaves(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


@pytest.mark.parametrize("raw", [b'{"a": NaN}', b"[1e400, 2]", b'{"b": -Infinity}'])
def test_non_finite_numbers_in_a_body_are_echoed_as_json_dumps_writes_them(raw):
    """orjson would write NaN as null: a body with one makes its request write with
    json.dumps (the guard notes it), so the product's echo stays byte for byte Flask's."""
    app, fast, slow = providers()
    with app.test_request_context(data=raw, content_type="application/json"):
        data = checked_loads(raw)
        assert fast.response(data).get_data() == slow.response(data).get_data()
    with app.app_context():  # without the note orjson differs: the check above can fail
        assert fast.response(data).get_data() != slow.response(data).get_data()


def test_arguments_are_parsed_from_the_guarded_body_with_one_schema_instance(client,
                                                                          monkeypatch):
    """The body is parsed once (by the guard) and ``@blp.arguments`` schemas are built once."""
    from referee.api import limits
    from referee.api.parsing import Blueprint, ParsedBodyParser
    from referee.schemas.common import LegalActionsRequestSchema
    parser = Blueprint.ARGUMENTS_PARSER
    assert isinstance(parser, ParsedBodyParser)
    assert parser._get_schema(LegalActionsRequestSchema, None) is \
        parser._get_schema(LegalActionsRequestSchema, None)
    # the guard's parse is what webargs loads: make it differ from the raw body to tell
    monkeypatch.setattr(limits, "fast_loads", lambda raw, depth: {"state": [1]})
    answer = client.post("/v1/games/coup/legal-actions", json={"state": {}})
    assert answer.status_code == 422
    assert answer.get_json()["errors"] == [{"field": "state",
                                           "message": "Not a valid mapping type."}]
