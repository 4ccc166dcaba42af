"""Every message text the HTTP layer can answer with, as gettext msgids (``messages.pot``).

Sources, each read from the code so the catalog cannot silently fall behind it:

- problem titles (``referee.api.errors.PROBLEMS``);
- the ``detail`` and field ``message`` texts of every refusal (``Problem(...)``, any
  :class:`~referee.refusals.Refusal` class, ``problem_response(...)``, ``ValidationError(...)``)
  in ``referee/**`` outside the engines (string literals and f-strings; an f-string's
  ``{expr}`` becomes a positional placeholder ``{0}``, ``{1}``…, in order), texts assigned
  to a name that such a call then uses, and the texts a function named ``*_problem`` returns
  (a "why this is refused, or None" helper, e.g. ``name_problem``, whose text a refusal
  then carries), and the texts given to a module's own refusal helpers (a function whose
  refusal call uses one of its parameters, e.g. ``_unauthorized(detail)``);
- the messages of every marshmallow field and validator instance the schemas use (a
  validator's own ``error=`` text included);
- the few texts of werkzeug, webargs and flask-smorest an answer can carry (:data:`EXTERNAL`).

Only texts with a space are messages (``"body"``, ``"If-Match"`` are field names, not text).
``referee contract`` (``python -m referee.contract``) writes ``messages.pot``.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]

EXTERNAL = (
    "Invalid JSON body.",
    "The requested URL was not found on the server. If you entered the URL manually please "
    "check your spelling and try again.",
    "The method is not allowed for the requested URL.",
    "The browser (or proxy) sent a request that this server could not understand.",
    "The server does not support the media type transmitted in the request.",
    "The data value transmitted exceeds the capacity limit.",
)


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def template(node: ast.expr) -> str | None:
    """The msgid of a string literal or f-string (``f"{a} x {b!r}"`` -> ``"{0} x {1}"``);
    implicit concatenation is one literal already.  None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts, index = [], 0
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                parts.append(f"{{{index}}}")
                index += 1
        return "".join(parts)
    return None


def _texts_in(node: ast.AST) -> set[str]:
    found = set()
    for sub in ast.walk(node):
        text = template(sub) if isinstance(sub, (ast.Constant, ast.JoinedStr)) else None
        if text is not None and not any(sub is inner for inner in _fstring_parts(node)):
            found.add(text)
    return found


def _fstring_parts(node: ast.AST) -> list[ast.AST]:
    """The constant pieces inside f-strings (not messages on their own)."""
    parts: list[ast.AST] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.JoinedStr):
            parts += [v for v in sub.values if isinstance(v, ast.Constant)]
            for v in sub.values:
                if isinstance(v, ast.FormattedValue):
                    parts += [c for c in ast.walk(v) if isinstance(c, (ast.Constant,
                                                                       ast.JoinedStr))]
    return parts


def _calls(tree: ast.AST, names: set[str]) -> list[ast.Call]:
    """The calls of ``names`` in ``tree``, and of their class methods
    (``InvalidInput.naming(errors)``)."""
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and (
        _name(n.func) in names
        or isinstance(n.func, ast.Attribute) and _name(n.func.value) in names)]


def _source_messages(path: Path, calls: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = calls | _refusal_helpers(tree, calls)
    found = {text for call in _calls(tree, calls) for text in _texts_in(call)}
    for func in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        if func.name.endswith("_problem"):
            for node in ast.walk(func):
                if isinstance(node, ast.Return) and node.value is not None:
                    found |= _texts_in(node.value)
        raised = _calls(func, calls)
        used = {n.id for call in raised for n in ast.walk(call) if isinstance(n, ast.Name)}
        for call in raised:
            found |= _texts_in(call)
        for node in ast.walk(func):
            targets = (node.targets if isinstance(node, ast.Assign) else [node.target]
                       if isinstance(node, ast.AugAssign) else [])
            if any(isinstance(t, ast.Name) and t.id in used for t in targets):
                found |= _texts_in(node.value)
    return found


def _refusal_helpers(tree: ast.AST, calls: set[str]) -> set[str]:
    """Functions of this module that build a refusal from a parameter (``def _bad_ticket(
    detail): return Refusal("unauthorized", detail, ...)``): their callers' texts are answers."""
    helpers = set()
    for func in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        params = {a.arg for a in func.args.args + func.args.kwonlyargs}
        for call in _calls(func, calls):
            if params & {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}:
                helpers.add(func.name)
    return helpers


def _marshmallow_messages() -> set[str]:
    from marshmallow import Schema, fields, validate

    from referee import schemas  # noqa: F401  (the package's schema modules)
    import importlib
    import pkgutil

    seen: set[type] = set()
    todo: list[fields.Field] = []
    for module in pkgutil.iter_modules(schemas.__path__):
        mod = importlib.import_module(f"referee.schemas.{module.name}")
        for value in vars(mod).values():
            if isinstance(value, type) and issubclass(value, Schema):
                todo += value._declared_fields.values()
            if isinstance(value, dict):  # ACTION_SCHEMAS
                for inner in value.values():
                    if isinstance(inner, type) and issubclass(inner, Schema):
                        todo += inner._declared_fields.values()
    found: set[str] = {Schema.error_messages.get("unknown", "Unknown field."),
                       "Unknown field.", "Invalid input type."}
    while todo:
        field = todo.pop()
        for cls in type(field).__mro__:
            if cls in seen or not issubclass(cls, fields.Field):
                continue
            seen.add(cls)
            found |= set(getattr(cls, "default_error_messages", {}).values())
        for attr in ("inner", "key_field", "value_field"):
            if getattr(field, attr, None) is not None:
                todo.append(getattr(field, attr))
        if isinstance(field, fields.Nested) and isinstance(field.nested, type):
            todo += field.nested._declared_fields.values()
        for validator in field.validators:
            found |= _validator_messages(validator, validate)
    return found


def _validator_messages(validator, validate) -> set[str]:
    """The texts a validator instance can raise, as templates (``{min}`` etc. left for the
    values); a custom ``error`` replaces them all."""
    if getattr(validator, "error", None):
        return {validator.error}
    names = {k for cls in type(validator).__mro__ if issubclass(cls, validate.Validator)
             for k in vars(cls) if k.startswith("message") or k == "default_message"}
    texts = {getattr(validator, k) for k in names}
    return {t for t in texts if isinstance(t, str) and "_op}" not in t
            and t not in (validate.Range.message_gt, validate.Range.message_gte,
                          validate.Range.message_lt, validate.Range.message_lte)}


def refusal_calls() -> set[str]:
    """Names of the calls whose texts are answers: ``Problem``, ``problem_response``,
    ``ValidationError`` and every :class:`~referee.refusals.Refusal` class."""
    import referee.api.errors  # noqa: F401  (defines Problem, a Refusal)
    from referee.refusals import Refusal

    names, todo = {"problem_response", "ValidationError"}, [Refusal]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo += cls.__subclasses__()
    return names


def messages() -> list[str]:
    """Every msgid of the HTTP layer, sorted (see the module docstring)."""
    from referee.api.errors import PROBLEMS

    found = {title for _, title in PROBLEMS.values()} | set(EXTERNAL)
    calls = refusal_calls()
    for path in sorted(PACKAGE.rglob("*.py")):
        if not {"games", "i18n", "contract"} & set(path.relative_to(PACKAGE).parts):
            found |= _source_messages(path, calls)
    found |= _marshmallow_messages()
    return sorted(text for text in found if " " in text.strip())


def pot_text() -> str:
    """The text of ``referee/i18n/locales/messages.pot`` (no header dates, so it is stable)."""
    import io

    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    template = Catalog(project="referee", domain="messages")
    for msgid in messages():
        template.add(msgid)
    buffer = io.BytesIO()
    write_po(buffer, template, omit_header=True, width=0, sort_output=True)
    return buffer.getvalue().decode("utf-8")
