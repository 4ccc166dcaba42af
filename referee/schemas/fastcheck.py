"""A fast "certainly valid" test for a marshmallow schema, compiled once (issue 11).

``Schema.validate`` walks a snapshot through marshmallow's per-field machinery (about a third
of a stateless call's CPU for a mid-game snapshot: every card of every list is a ``Field``
call, a validator call through ``And`` and an error store).  :func:`checker` compiles a schema
into plain closures that answer one question: would ``schema.validate(data)`` find nothing?

The answer is one-sided: ``True`` only when marshmallow would accept ``data``; ``False`` means
"not sure", and the caller then runs marshmallow itself, so every refusal (its fields and
messages) is marshmallow's own.  No check is skipped: each field's type test mirrors its
``_deserialize`` exactly for the JSON types it accepts (anything else answers "not sure"), its
own validators are called as they are, ``required``/``allow_none`` and unknown keys
(``RAISE``) are tested like ``Schema._deserialize`` does.  A field, validator or schema this
module does not know (a custom ``_deserialize``, hooks such as ``@validates_schema``,
``pre_load``) is handed to marshmallow for that value (``field.deserialize``), so the answer
stays marshmallow's.  ``tests/api/test_state_fastcheck.py`` compares both on played-out and
mutated snapshots of every game.

:func:`loader` goes one step further for data that is loaded (``load_action``, and request
bodies through the :class:`FastLoad` schema mixin, ``@blp.arguments``): data the checker
accepts is read as marshmallow reads a valid value (``tests/api/test_state_fastcheck.py``
compares both on actions, ``tests/api/test_fast_load.py`` on trick-sheet bodies).
"""
from __future__ import annotations

from typing import Any, Callable

from marshmallow import RAISE, INCLUDE, Schema, ValidationError, fields, missing

from referee.schemas import fields as own
from referee.schemas.validator_tests import (Check, only_lengths, remembering, text_only,
                                             validator_test)


_MISSING = object()


def checker(schema: Schema) -> Check:
    """``check(data) -> bool``: ``True`` only if ``schema.validate(data)`` returns no error
    (then marshmallow need not run); ``False`` when unsure."""
    check = _schema_check(schema, schema.unknown)
    if check is None:
        return lambda data: not schema.validate(data)
    return check


def loader(schema: Schema) -> Callable[[Any], dict | None]:
    """``load(data)``: what ``schema.load(data)`` returns (a new ``dict``, its keys in the
    schema's field order) when :func:`checker` is sure marshmallow accepts ``data``, each field
    read as marshmallow reads a valid value (:func:`_schema_reader`: a missing field given its
    ``load_default``, nested schemas read in turn); ``None`` when unsure or for a schema the
    reader does not mirror: the caller then runs ``schema.load``, whose answer (or errors) it
    is."""
    check = _schema_check(schema, schema.unknown)
    read = _schema_reader(schema)
    if check is None or read is None:
        return lambda data: None

    def load(data: Any) -> dict | None:
        return read(data) if check(data) else None
    return load


def _schema_check(schema: Schema, unknown: str) -> Check | None:
    """A check for a schema without hooks and with a single object (``many`` false), or
    ``None`` (then marshmallow decides)."""
    if schema.many or any(schema._hooks.values()) or unknown not in (RAISE, INCLUDE):
        return None
    entries = []
    for name, field in schema.load_fields.items():
        key = field.data_key if field.data_key is not None else name
        entries.append((key, field.required, _checked(field)[0]))
    keys = frozenset(key for key, _, _ in entries)
    closed = unknown == RAISE

    def check(data: Any) -> bool:
        if not isinstance(data, dict):  # a Mapping, read as marshmallow reads it
            return False
        if closed and not keys.issuperset(data):
            return False
        for key, required, ok in entries:
            value = data.get(key, _MISSING)
            if value is _MISSING:
                if required:
                    return False
            elif not ok(value):
                return False
        return True
    return check


def _delegate(field: fields.Field) -> Check:
    """Ask marshmallow (the field's own ``deserialize``) about one value."""
    def check(value: Any) -> bool:
        try:
            field.deserialize(value)
        except ValidationError:
            return False
        return True
    check.delegates = True  # type: ignore[attr-defined]
    return check


def item_reader(field: fields.Field) -> tuple[Check, Callable[[Any], Any]] | None:
    """``(check, read)`` of one value of ``field``: ``check(value)`` true only when
    ``field.deserialize(value)`` raises nothing, ``read(value)`` then what it returns; ``None``
    when this module does not mirror the field (its check would ask marshmallow anyway).  A
    list reads its good items so (:class:`referee.schemas.fields.List`)."""
    check = _checked(field)[0]
    read = _reader(field)
    if read is None or getattr(check, "delegates", False):
        return None
    return check, read


def _is(field: fields.Field, method: str, owner: type) -> bool:
    return getattr(type(field), method) is getattr(owner, method)


def _plain(field: fields.Field) -> bool:
    """The field runs marshmallow's ordinary ``deserialize`` (missing/None/validators) with no
    per-field pre/post-load functions."""
    return (_is(field, "deserialize", fields.Field) and _is(field, "_validate", fields.Field)
            and _is(field, "_validate_missing", fields.Field)
            and not field.pre_load and not field.post_load)


def _checked(field: fields.Field) -> tuple[Check, bool]:
    """``(check, identity)``: a check of one present value of ``field`` (its type as its
    ``_deserialize`` accepts it, then its validators; ``allow_none`` as ``Field.deserialize``
    applies it), and whether a value it accepts
    deserializes to an equal value (then a containing field's validators may see the value
    sent)."""
    typed = _type_check(field) if _plain(field) else None
    if typed is None:
        return _delegate(field), False
    base, identity = typed
    validators = tuple(field.validators)
    if validators and not identity and not only_lengths(validators):
        return _delegate(field), False  # its validators see a transformed value
    allow_none = field.allow_none
    tests = tuple(validator_test(v) for v in validators)
    if not tests:
        if not allow_none:  # every base test refuses None (its type is none of theirs)
            return base, identity

        def check(value: Any) -> bool:
            if value is None:
                return True
            return base(value)
        return check, identity

    if len(tests) == 1:
        test = tests[0]

        def check_one(value: Any) -> bool:
            if value is None:
                return allow_none
            return base(value) and test(value)
        return check_one, identity

    def check_validated(value: Any) -> bool:
        if value is None:
            return allow_none
        if not base(value):
            return False
        for test in tests:
            if not test(value):
                return False
        return True
    if _scalar_type(field) is str and all(text_only(v) for v in validators):
        return remembering(check_validated), identity
    return check_validated, identity


def _type_check(field: fields.Field) -> tuple[Check, bool] | None:
    """``(check, identity)`` for the value's type and contents, ``identity`` true when the
    value deserialized equals the value sent (so validators may see the sent value); ``None``
    for a field this module does not know."""
    scalar = _scalar_type(field)
    if scalar is not None:
        return (lambda value: type(value) is scalar), True  # an int is never a bool here
    if isinstance(field, fields.List) and (_is(field, "_deserialize", fields.List)
                                           or _is(field, "_deserialize", own.List)):
        return _list_check(field)
    if isinstance(field, fields.Dict) and _is(field, "_deserialize", fields.Mapping) \
            and field.mapping_type is dict:
        return _dict_check(field)
    if isinstance(field, own.Dict) and _is(field, "_deserialize", own.Dict) \
            and field.mapping_type is dict:
        check, identity = _dict_check(field)
        most = field.bound.max
        return (lambda value: check(value) and len(value) <= most), identity
    if isinstance(field, fields.Nested) and _is(field, "_deserialize", fields.Nested) \
            and _is(field, "_load", fields.Nested) and not field.many:
        schema = field.schema
        inner = _schema_check(schema, field.unknown or schema.unknown)
        return (inner, False) if inner is not None else None
    return None


def _scalar_type(field: fields.Field) -> type | None:
    """``str``, ``int`` or ``bool`` for a String, Integer or StrictBoolean field (whose
    ``_deserialize`` accepts every value of exactly that type, returned as it is)."""
    if isinstance(field, fields.String) and _is(field, "_deserialize", fields.String):
        return str
    if isinstance(field, fields.Integer) and _is(field, "_deserialize", fields.Number) \
            and _is(field, "_validated", fields.Integer) and _is(field, "_format_num",
                                                                  fields.Number):
        return int
    if isinstance(field, own.StrictBoolean) and _is(field, "_deserialize", own.StrictBoolean):
        return bool
    return None


def _members(field: fields.Field) -> Callable[[Any], bool] | None:
    """For a scalar field with no validator but a ``OneOf`` of strings: ``test(items)``, true
    when every item of the collection ``items`` is certainly a value ``field`` accepts, tested
    by the C loops of sets (the items' exact types, or the items themselves among the
    choices); ``None`` for any other field."""
    from marshmallow import validate
    scalar = _scalar_type(field) if _plain(field) else None
    if scalar is None:
        return None
    none = {type(None)} if field.allow_none else set()
    validators = tuple(field.validators)
    if not validators:
        types = frozenset({scalar, *none})
        return lambda items: types.issuperset(map(type, items))
    if len(validators) == 1 and type(validators[0]) is validate.OneOf and scalar is str \
            and all(type(c) is str for c in validators[0].choices):
        choices = frozenset(validators[0].choices) | ({None} if none else set())

        def among(items: Any) -> bool:  # an item of another type equals no choice
            try:
                return choices.issuperset(items)
            except TypeError:  # an unhashable item: a list or an object
                return False
        return among
    return None


def _list_check(field: fields.List) -> tuple[Check, bool]:
    item, identity = _checked(field.inner)
    members = _members(field.inner)
    if members is not None:
        def check_members(value: Any) -> bool:
            return type(value) is list and members(value)
        return check_members, identity

    def check(value: Any) -> bool:
        return type(value) is list and all(map(item, value))
    return check, identity


def _dict_check(field: fields.Dict) -> tuple[Check, bool]:
    keys, same_keys = _checked(field.key_field) if field.key_field is not None else (None, True)
    values, same_values = (_checked(field.value_field) if field.value_field is not None
                           else (None, True))

    members = _members(field.value_field) if field.value_field is not None else None
    if members is not None:
        values = lambda items: members(items.values())  # noqa: E731
    elif values is not None:
        each = values
        values = lambda items: all(map(each, items.values()))  # noqa: E731

    def check(value: Any) -> bool:
        if not isinstance(value, dict):
            return False
        if keys is not None and not all(map(keys, value)):
            return False
        return values is None or values(value)
    return check, same_keys and same_values


def _schema_reader(schema: Schema) -> Callable[[Any], dict] | None:
    """``read(data)``: what ``schema.load(data)`` returns for ``data`` that :func:`checker`
    accepted (each present field read as marshmallow reads a valid value, a missing one given
    its ``load_default``), or ``None`` for a schema holding what this does not mirror (hooks,
    ``many``, ``INCLUDE``, a field of another kind): then marshmallow loads."""
    if schema.many or any(schema._hooks.values()) or schema.unknown != RAISE:
        return None
    entries = []
    for name, field in schema.load_fields.items():
        read = _reader(field)
        attribute = field.attribute or name
        if read is None or "." in attribute:
            return None
        key = field.data_key if field.data_key is not None else name
        entries.append((key, attribute, read, field.load_default))

    def load(data: Any) -> dict:
        out = {}
        for key, attribute, read, default in entries:
            if key in data:
                out[attribute] = read(data[key])
            elif default is not missing:
                out[attribute] = default() if callable(default) else default
        return out
    return load


def _same(value: Any) -> Any:
    return value


def _reader(field: fields.Field) -> Callable[[Any], Any] | None:
    """How a valid value of ``field`` is read (``None`` stays ``None``), or ``None``."""
    read = _inner_reader(field) if _plain(field) else None
    if read is None or read is _same:
        return read
    return lambda value: None if value is None else read(value)


def _inner_reader(field: fields.Field) -> Callable[[Any], Any] | None:
    if _scalar_type(field) is not None:
        return _same  # a str, an int or a bool of exactly that type is read as itself
    if isinstance(field, fields.List) and (_is(field, "_deserialize", fields.List)
                                           or _is(field, "_deserialize", own.List)):
        item = _reader(field.inner)
        if item is None:
            return None
        return list if item is _same else lambda value: [item(v) for v in value]
    if isinstance(field, fields.Dict) and (_is(field, "_deserialize", fields.Mapping)
                                           or _is(field, "_deserialize", own.Dict)) \
            and field.mapping_type is dict:
        keys = _reader(field.key_field) if field.key_field is not None else _same
        values = _reader(field.value_field) if field.value_field is not None else _same
        if keys is None or values is None:
            return None
        if keys is _same and values is _same:
            return dict
        return lambda value: {keys(k): values(v) for k, v in value.items()}
    if isinstance(field, fields.Nested) and _is(field, "_deserialize", fields.Nested) \
            and _is(field, "_load", fields.Nested) and not field.many \
            and (field.unknown or field.schema.unknown) == RAISE:
        return _schema_reader(field.schema)
    return None


class FastLoad:
    """A ``Schema`` mixin: ``load`` answers without marshmallow's walk when :func:`loader`
    is sure of marshmallow's answer (certainly valid data, a schema it mirrors);
    otherwise (and for any ``many``, ``partial`` or ``unknown`` argument) marshmallow loads,
    so every refusal is its own.  ``tests/api/test_fast_load.py`` compares both."""

    def load(self, data, *, many=None, partial=None, unknown=None):
        """``Schema.load``, answered at once for certainly valid data."""
        if many is None and partial is None and unknown is None:
            found = loader_of(self)(data)
            if found is not None:
                return found
        return super().load(data, many=many, partial=partial, unknown=unknown)


_FAST: dict[int, tuple] = {}
"""Per schema instance (kept alive here, so an id is never reused): its :func:`loader`."""


def loader_of(schema: Schema) -> Callable[[Any], dict | None]:
    """:func:`loader` of ``schema``, compiled once per schema instance."""
    fast = _FAST.get(id(schema))
    if fast is None:
        fast = _FAST[id(schema)] = (loader(schema), schema)
    return fast[0]
