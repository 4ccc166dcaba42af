"""Reusable marshmallow fields: player names, seeds, modes, card codes."""
from __future__ import annotations

import functools
import unicodedata
from typing import Any

from marshmallow import ValidationError, fields, utils, validate

from referee.schemas.confusables import describe, script_problem, skeleton

MAX_NAME = 64
MAX_PLAYERS = 8
MAX_ITEM_ERRORS = 50
"""A list stops checking its items after this many bad ones (the answer lists at most 50 errors
anyway): a body of thousands of bad items costs no more than one of fifty (issue 12)."""


class List(fields.List):
    """``fields.List`` with bounded work: a ``Length`` validator is applied before any item is
    read (a list too long is refused at once), item checking stops after
    :data:`MAX_ITEM_ERRORS` bad items, and a good item costs the compiled check of
    :mod:`referee.schemas.fastcheck` instead of marshmallow's call (4,000 good rows and one
    bad one: ~1 ms, not ~40: issue 21).  Same schema, same error shapes as ``fields.List``."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not utils.is_collection(value):
            raise self.make_error("invalid")
        for validator in self.validators:
            if isinstance(validator, validate.Length):
                validator(value)
        fast = None if kwargs.get("partial") else self._fast_items()
        result, errors = [], {}
        for index, item in enumerate(value):
            if fast is not None and fast[0](item):
                result.append(fast[1](item))
                continue
            try:
                result.append(self.inner.deserialize(item, **kwargs))
            except ValidationError as error:
                if error.valid_data is not None:
                    result.append(error.valid_data)
                errors[index] = error.messages
                if len(errors) >= MAX_ITEM_ERRORS:
                    break
        if errors:
            raise ValidationError(errors, valid_data=result)
        return result

    def _fast_items(self):
        """The compiled ``(check, read)`` of one item (:func:`fastcheck.item_reader`), made
        once per field; ``None`` when marshmallow must read each item."""
        try:
            return self.__dict__["_fast"]
        except KeyError:
            from referee.schemas.fastcheck import item_reader  # it imports this module
            self.__dict__["_fast"] = found = item_reader(self.inner)
            return found


class Dict(fields.Dict):
    """``fields.Dict`` with bounded work: at most ``max_entries`` entries, refused before any
    key or value is read (``validate.Length``'s message and field), so an object of a
    thousand players costs what one of nine does (issue 21).  The OpenAPI document says
    ``maxProperties``.  Otherwise the same schema and error shapes as ``fields.Dict``."""

    def __init__(self, *args: Any, max_entries: int, **kwargs: Any):
        self.bound = validate.Length(max=max_entries)
        metadata = {"maxProperties": max_entries, **kwargs.pop("metadata", {})}
        super().__init__(*args, metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, dict):
            self.bound(value)
        return super()._deserialize(value, attr, data, **kwargs)


def Seats(values: fields.Field, keys: fields.Field | None = None, **kwargs: Any) -> Dict:
    """An object keyed by the players or their sides (a hand, a layout, coins, a score… each
    player's or side's): at most :data:`MAX_PLAYERS` entries, each key a :func:`PlayerName`
    unless ``keys`` says otherwise."""
    return Dict(keys=keys or PlayerName(), values=values, max_entries=MAX_PLAYERS, **kwargs)


_INVISIBLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
              (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
              (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F),
              (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
              (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
"""Code points that show nothing: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties:
zero-width and bidi marks, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, variation
selectors…) and the blank Braille pattern U+2800.  ``str.isprintable`` lets the Hangul fillers,
U+2800 and the variation selectors through, and ``"Ana"`` + U+3164 looks like ``"Ana"``."""
_EMOJI_STYLE = (0xFE0E, 0xFE0F)
"""Text/emoji presentation selectors: shown as part of the symbol before them (``❤️``)."""


def _invisible(name: str) -> str | None:
    for i, char in enumerate(name):
        point = ord(char)
        if point < 0xAD or not any(low <= point <= high for low, high in _INVISIBLE):
            continue
        if point in _EMOJI_STYLE and i and unicodedata.category(name[i - 1]) == "So":
            continue
        return char
    return None


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be free text a table reads (a player's name, a rollback reason, a
    string seed), or ``None``: it must be printable text (no control, format or bidirectional
    characters such as NUL, ESC, a newline or U+202E, no unassigned code points), in Unicode
    NFC, without leading or trailing white space (so never white space only), with nothing
    that shows nothing (:data:`_INVISIBLE`: U+3164, U+2800, variation selectors except after a
    symbol, a zero-width joiner except between two emoji…), and not starting with a combining mark (so never made of marks only).  Nothing
    is ever fixed silently; the refusal names the field, so the sentence names no field.

    Cheap where it is called most (every name of every snapshot): printable ASCII not padded
    passes at once (ASCII is NFC and holds nothing invisible or combining); other texts'
    answers are remembered (a bounded cache: the same few names come back request after
    request)."""
    if text.isascii() and text.isprintable() and (not text or (
            not text[0].isspace() and not text[-1].isspace())):
        return None
    return _text_problem(text)


_JOINER = "\u200d"
"""ZERO WIDTH JOINER: invisible, except inside an emoji ZWJ sequence (``👩‍💻``, ``🏳️‍🌈``), which
shows one symbol (Unicode TS #51)."""


def _without_emoji_joiners(text: str) -> str:
    """``text`` without the joiners that join two emoji (:data:`_JOINER` between a symbol, its
    skin-tone modifier or emoji selector U+FE0F, and a symbol): what is checked for showing
    nothing and for being printable; any other joiner stays, and is refused."""
    if _JOINER not in text:
        return text
    kept = []
    for i, char in enumerate(text):
        if (char == _JOINER and 0 < i < len(text) - 1
                and unicodedata.category(text[i + 1]) == "So"
                and (unicodedata.category(text[i - 1]) in ("So", "Sk")
                     or text[i - 1] == "\ufe0f")):
            continue
        kept.append(char)
    return "".join(kept)


@functools.lru_cache(maxsize=4096)
def _text_problem(text: str) -> str | None:
    if text != text.strip():
        return "The text must not start or end with white space."
    shown = _without_emoji_joiners(text)
    if not shown.isprintable():
        bad = next(c for c in shown if not c.isprintable())
        return (f"The text must be printable: U+{ord(bad):04X} "
                f"({unicodedata.name(bad, unicodedata.category(bad))}) is not.")
    if not unicodedata.is_normalized("NFC", text):
        return "The text must be in Unicode NFC (composed) form."
    bad = _invisible(shown)
    if bad is not None:
        return (f"The text must not hold characters that show nothing: U+{ord(bad):04X} "
                f"({unicodedata.name(bad, unicodedata.category(bad))}) is one.")
    if text and unicodedata.category(text[0]).startswith("M"):
        return (f"The text must start with a letter, digit or symbol, not the combining mark "
                f"U+{ord(text[0]):04X} ({unicodedata.name(text[0], 'mark')}).")
    return None


def seat_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a seat, or ``None``: the free-text rules (:func:`text_problem`),
    then Unicode TS #39's checks of one name (:func:`referee.schemas.confusables.script_problem`:
    no scripts mixed beyond Latin plus one other that is not Cyrillic, Greek or Cherokee, no
    digits of two number systems, no mark twice on one letter, no U+FFFD)."""
    return text_problem(name) or script_problem(name)


name_problem = seat_name_problem
"""A seat's name: :func:`seat_name_problem`."""


NAME_PATTERN = r"^\S(.*\S)?$"
"""The part of :func:`text_problem` a JSON Schema pattern can say: no white space at the ends."""

TEXT_RULES = ("printable characters (no control, format or bidi characters such as NUL, ESC, "
              "a newline or U+202E, nothing invisible such as U+3164 or U+2800), Unicode NFC, "
              "no white space at either end, not starting with a combining mark")

NAME_RULES = ("a player's name: 1-64 printable characters (no control, format or bidi "
              "characters, nothing invisible such as U+3164 or U+2800), Unicode NFC, no white "
              "space at either end, not starting with a combining mark")

SEAT_RULES = (NAME_RULES + "; one script (Latin may join one other script, not Cyrillic, "
              "Greek or Cherokee; digits, spaces, punctuation and emoji go with any), digits "
              "of one number system, no U+FFFD (Unicode TS #39, moderately restrictive); "
              "names in one game differ after case and compatibility folding (NFKC: Ana, ANA "
              "and ＡＮＡ clash) and do not look alike (TS #39 confusable skeletons: ana and "
              "Cyrillic аna, ı and i, 1 and ١ clash)")


def valid_text(text: str) -> None:
    """A marshmallow validator of free text (:func:`text_problem`): ``ValidationError`` with
    the reason, so the answer is 422 naming the field."""
    problem = text_problem(text)
    if problem is not None:
        raise ValidationError(problem)


def valid_seat_name(name: str) -> None:
    """A marshmallow validator of a seat's name (:func:`seat_name_problem`):
    ``ValidationError`` with the reason, so the answer is 422 naming the field."""
    problem = seat_name_problem(name)
    if problem is not None:
        raise ValidationError(problem)


def name_key(name: str) -> str:
    """What two names must not share, and what a reserved name is compared by: the name under
    Unicode's compatibility caseless match (The Unicode Standard, 3.13, D146:
    NFKD(casefold(NFKD(casefold(NFD(name))))), here composed again as NFKC), so ``Ana``,
    ``ANA`` and full-width ``ＡＮＡ`` (U+FF21…) clash and ``ＨＯＳＴ`` is ``host``.  The
    name itself is kept as sent (and must be NFC, :func:`text_problem`)."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFD", name).casefold())
    return unicodedata.normalize("NFKC", folded.casefold())


def name_keys(name: str) -> tuple[tuple[str, str], ...]:
    """What ``name`` must share with no other name of its game, each tagged by kind: its
    :func:`name_key` (``ANA`` is ``ana``), its TS #39 skeleton (``аna`` with a Cyrillic ``а``
    is ``ana``; ``Ian`` is ``lan``) and its key's skeleton (``АNA`` is ``ana``)."""
    key = name_key(name)
    return (("key", key), ("skeleton", skeleton(name)), ("folded", skeleton(key)))


def look_alike(names: list[str]) -> tuple[str, str] | None:
    """The first two of ``names`` (in order) that share one of their :func:`name_keys`, or
    ``None``."""
    seen: dict[tuple[str, str], str] = {}
    for name in names:
        keys = name_keys(name)
        for key in keys:
            if key in seen:
                return seen[key], name
        for key in keys:
            seen.setdefault(key, name)
    return None


def _difference(first: str, second: str) -> tuple[str, str]:
    """The first characters where two names differ (the last ones if one starts the other)."""
    return next(((a, b) for a, b in zip(first, second) if a != b), (first[-1], second[-1]))


def PlayerName(**kwargs: Any) -> fields.String:
    """A player's name: 1–64 printable characters in NFC, not padded (:func:`text_problem`);
    where a name only refers to a seat (an action's ``player``, a snapshot's keys)."""
    metadata = {"pattern": NAME_PATTERN, "description": NAME_RULES, **kwargs.pop("metadata", {})}
    return fields.String(validate=[validate.Length(1, MAX_NAME), valid_text],
                         metadata=metadata, **kwargs)


def SeatName(**kwargs: Any) -> fields.String:
    """A seat's name as a setup or snapshot lists it: a :func:`PlayerName` that also passes
    Unicode TS #39's checks of one name (:func:`seat_name_problem`)."""
    metadata = {"pattern": NAME_PATTERN, "description": SEAT_RULES, **kwargs.pop("metadata", {})}
    return fields.String(validate=[validate.Length(1, MAX_NAME), valid_seat_name],
                         metadata=metadata, **kwargs)


def distinct_names(names: list[str]) -> None:
    """A validator of a seat list: each name once after case and compatibility folding
    (:func:`name_key`), and no two names alike by their TS #39 skeletons
    (:func:`look_alike`); ``ValidationError`` naming both names otherwise."""
    keys = [name_key(name) for name in names]
    if len(set(keys)) != len(keys):
        raise ValidationError("Each player must be named once (names that differ only "
                              "in case or in compatibility forms, such as full-width "
                              "ＡＮＡ and ana, count as one).")
    pair = look_alike(names)
    if pair is not None:
        first, second = pair
        one, other = _difference(first, second)
        raise ValidationError(f"{first!r} and {second!r} look alike ({describe(one)} and "
                              f"{describe(other)} can be taken for one another, Unicode "
                              f"TS #39): give each player a name the others cannot mistake.")


def Players(min_players: int, max_players: int, **kwargs: Any) -> fields.List:
    """The seated players in seat/play order: each a :func:`SeatName`, distinct by
    :func:`distinct_names` (``ana`` and full-width ``ａｎａ`` clash, so do ``ana`` and
    Cyrillic ``аna``)."""
    metadata = {"uniqueItems": True,
                "description": "the players in seat/play order; each named once: names differ "
                               "after case and compatibility (NFKC) folding (Ana, ANA and "
                               "full-width ＡＮＡ clash) and do not look alike (Unicode TS #39 "
                               "skeletons: ana and Cyrillic аna, ı and i, 1 and ١ clash)",
                **kwargs.pop("metadata", {})}
    return List(SeatName(), required=True, metadata=metadata,
                validate=[validate.Length(min_players, max_players), distinct_names], **kwargs)


def Mode(**kwargs: Any) -> fields.String:
    """``digital`` (the service knows every card) or ``table`` (real cards, some unknown)."""
    if not kwargs.get("required"):
        kwargs.setdefault("load_default", "digital")
    return fields.String(validate=validate.OneOf(["digital", "table"]), **kwargs)


def Options(**kwargs: Any) -> fields.Dict:
    """Game options by name; names and types are checked against the game's option table."""
    return fields.Dict(keys=fields.String(), load_default=dict, **kwargs)


SEED_RULE = ("The seed must be an integer from 0 to 2**256 - 1 (such as 42, not 42.0) or a "
             "string of 1-128 characters.")
"""The one sentence of a seed of the wrong type or size, whatever its JSON type (README
"Match errors"); a string of the right size that breaks the free-text rules gets that rule's
own sentence."""


class Seed(fields.Field):
    """A shuffle seed: a non-negative integer (up to 256 bits) or a string of 1–128
    characters under the free-text rules (:func:`text_problem`).
    Its JSON Schema says so (``type: [integer, string]``, plus ``null`` where ``allow_none``),
    so a schema-valid seed is an accepted one.  Anything else — ``42.0``, ``true``, ``-1``,
    ``2**256``, ``""``, a list, ``null`` where it is not allowed — is refused with
    :data:`SEED_RULE` (422 naming the field)."""

    default_error_messages = {"invalid": SEED_RULE, "null": SEED_RULE}

    def __init__(self, **kwargs: Any):
        metadata = {"type": ["integer", "string"], "minimum": 0, "maximum": 2**256 - 1,
                    "minLength": 1,
                    "maxLength": 128, "pattern": NAME_PATTERN,
                    "description": f"an integer, or a string: {TEXT_RULES}",
                    **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, int) and not isinstance(value, bool):
            if 0 <= value and value.bit_length() <= 256:
                return value
        elif isinstance(value, str) and 1 <= len(value) <= 128:
            valid_text(value)  # the free-text rules of a name (NUL, bidi, padding…)
            return value
        raise self.make_error("invalid")


class AsciiInteger(fields.Integer):
    """A non-negative integer of a query string or header, written in ASCII digits only:
    ``"7"``; ``"+7"``, ``" 7"``, ``"７"`` (full-width) or ``"٧"`` are refused, not read as 7
    (``int()`` would take them).  At most 19 digits are read (any bound of these fields is
    below 10**19), so a long number costs nothing; its range is the field's ``Range``."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and not (value.isascii() and value.isdigit()
                                           and len(value) <= 19):
            raise ValidationError("Must be a whole number written in ASCII digits (0-9), "
                                  "at most 19 of them.")
        return super()._deserialize(value, attr, data, **kwargs)


class Code(fields.String):
    """A string restricted to a fixed set of codes (cards, characters…), with a helpful message."""

    def __init__(self, codes, what: str, **kwargs: Any):
        self.codes = tuple(codes)
        super().__init__(validate=validate.OneOf(self.codes, error=f"Not a {what}: {{input}}."),
                         **kwargs)


def action_schema(kind: str, doc: str, **extra: Any) -> type:
    """Return a Schema class for action ``kind``: ``type`` (must equal ``kind``), ``player``
    (required) and the ``extra`` fields; ``doc`` becomes its docstring (the OpenAPI text)."""
    from marshmallow import Schema

    attrs = {"type": fields.String(required=True, validate=validate.Equal(kind)),
             "player": PlayerName(required=True), **extra, "__doc__": doc}
    return type(f"{kind.title().replace('_', '')}ActionSchema", (Schema,), attrs)


class StrictBoolean(fields.Boolean):
    """JSON ``true`` or ``false`` only: ``"yes"``, ``"true"``, ``1`` are refused, not coerced."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("Must be true or false.")
        return value
