"""The direction of imports between referee's packages (issue 25 item 1; STYLE.md, "A move's
path, visible in the folders"; README "Layout").

Layers, lowest first; a module may import its own layer and the ones below, never above:

0. ``games`` — the pure rules: the standard library, ``referee.games`` itself and
   :data:`GAMES_MAY_USE` only (no Flask, no Redis, no schema library, no I/O);
1. what the match service and the HTTP layer stand on: ``store``, ``i18n``, ``rulebook``,
   ``schemas``, ``registry``, ``ops`` and the small top-level modules (``refusals``,
   ``json_digits``, ``json_text``, the package root);
2. ``matches`` — the match service;
3. ``api`` — the HTTP layer;
   ``contract`` (the OpenAPI document and JSON Schemas made from the API) is at this layer too;
4. ``serving`` — the process: app factory, worker, gunicorn settings, wsgi, the command line;
   and ``referee contract``, the command that writes the generated files from the whole app.

``client`` imports nothing of referee (it is a client of the API, shipped apart).  Every import
counts, also one inside a function: a lazy import is still a dependency.  Each import in
:data:`ALLOWED` is the one exception of its kind, with its reason.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "referee"

LAYERS = {
    "games": 0,
    "referee": 1, "store": 1, "i18n": 1, "rulebook": 1, "schemas": 1, "registry": 1,
    "ops": 1, "refusals": 1, "json_digits": 1, "json_text": 1,
    "matches": 2,
    "api": 3, "contract": 3,
    "serving": 4, "contract.files": 4, "contract.__main__": 4,
}
"""Each top-level package or module of ``referee`` (``"referee"`` is the package root) and
its layer; a dotted key places one module of a package apart from the rest (the contract's
documents are made from the API's schemas at layer 3, as ``/openapi.json`` serves them; its
command, ``referee contract``, builds the whole app)."""
APART = ("client",)
"""Top-level modules outside the layers that may import nothing of referee."""
GAMES_MAY_USE = ("orjson",)
"""Third-party libraries the engines may import: orjson (a fast deep copy of plain JSON data,
:mod:`referee.games.common.jsoncopy`; no I/O)."""
ALLOWED = {
    ("referee.games.common.verdicts", "referee.i18n.verdicts"):
        "Violation.message renders its English sentence for logs, exceptions and tests, "
        "lazily; engines never call it (answers are rendered at the edge)",
}
"""(importing module, imported module) pairs that break the rule on purpose, with why."""


def module_name(path: Path) -> str:
    """``referee/matches/live.py`` -> ``referee.matches.live``; a package's ``__init__.py``
    -> the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(source: str, module: str, is_package: bool) -> list[str]:
    """Every module ``source`` (the text of ``module``) imports, absolute, at any depth of
    the syntax tree (``from a import b`` counts as ``a.b``: ``b`` may be a module)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = module.split(".") if is_package else module.split(".")[:-1]
                here = here[:len(here) - node.level + 1]
                base = ".".join(here + ([node.module] if node.module else []))
            found += [f"{base}.{alias.name}" if alias.name != "*" else base
                      for alias in node.names]
            found.append(base)
    return found


def layer_of(module: str) -> str | None:
    """The key of :data:`LAYERS` / :data:`APART` a ``referee`` module belongs to, else
    ``None`` (a module of another distribution)."""
    parts = module.split(".")
    if parts[0] != "referee":
        return None
    for end in range(len(parts), 1, -1):  # the longest key that names it or a package of it
        key = ".".join(parts[1:end])
        if key in LAYERS or key in APART:
            return key
    return "referee"


def wrong_imports(module: str, targets: list[str]) -> list[str]:
    """What is wrong with ``module`` importing ``targets``, one sentence each."""
    own = layer_of(module)
    wrong = []
    for target in dict.fromkeys(targets):
        top = target.split(".")[0]
        if any(module == m and (target == t or target.startswith(t + "."))
               for m, t in ALLOWED):
            continue
        if own == "games":
            if top == "referee" and not target.startswith("referee.games"):
                wrong.append(f"{module} (games) imports {target}: engines import only games")
            elif top != "referee" and top not in sys.stdlib_module_names \
                    and top not in GAMES_MAY_USE and top != "__future__":
                wrong.append(f"{module} (games) imports {target}: not the standard library")
            continue
        there = layer_of(target)
        if there is None or there == own:
            continue
        if own in APART or there in APART:
            if own in APART:
                wrong.append(f"{module} ({own}) imports {target}: it stands apart")
            continue
        if LAYERS[there] > LAYERS[own]:
            wrong.append(f"{module} ({own}, layer {LAYERS[own]}) imports {target} "
                         f"({there}, layer {LAYERS[there]})")
    return wrong


def every_module() -> dict[str, Path]:
    """Every module of ``referee/`` by dotted name."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def check(modules: dict[str, Path]) -> list[str]:
    """Every wrong import of ``modules`` (see the module docstring)."""
    wrong = []
    for name, path in modules.items():
        wrong += wrong_imports(name, imported(path.read_text(), name,
                                              path.name == "__init__.py"))
    return wrong


def test_every_module_is_in_a_layer():
    """A new top-level module or package must be given its layer here (and its docstring)."""
    tops = {p.relative_to(PACKAGE).parts[0].removesuffix(".py") for p in PACKAGE.glob("*")
            if p.suffix == ".py" or (p / "__init__.py").is_file()}
    assert tops - {"__init__"} <= set(LAYERS) | set(APART)


def test_no_layer_imports_a_higher_one():
    """The whole package, every import (module level or inside a function)."""
    assert check(every_module()) == []


def test_every_exception_is_still_needed():
    """Each pair of :data:`ALLOWED` is still an import of the code (else it must go)."""
    modules = every_module()
    for module, target in ALLOWED:
        path = modules[module]
        assert target in imported(path.read_text(), module, path.name == "__init__.py")


@pytest.mark.parametrize("module, source, expected", [
    ("referee.store.memory", "from referee.matches.service import MatchService\n",
     ["referee.store.memory (store, layer 1) imports referee.matches.service (matches, layer 2)",
      "referee.store.memory (store, layer 1) imports referee.matches.service.MatchService "
      "(matches, layer 2)"]),
    ("referee.matches.live", "def f():\n    from referee.api import errors\n",
     ["referee.matches.live (matches, layer 2) imports referee.api.errors (api, layer 3)",
      "referee.matches.live (matches, layer 2) imports referee.api (api, layer 3)"]),
    ("referee.api.games", "from ..serving import app\n",
     ["referee.api.games (api, layer 3) imports referee.serving.app (serving, layer 4)",
      "referee.api.games (api, layer 3) imports referee.serving (serving, layer 4)"]),
    ("referee.games.coup.rules", "import flask\nfrom referee.games.common import deck\n",
     ["referee.games.coup.rules (games) imports flask: not the standard library"]),
    ("referee.games.spy.rules", "from referee.refusals import InvalidInput\n",
     ["referee.games.spy.rules (games) imports referee.refusals: engines import only games",
      "referee.games.spy.rules (games) imports referee.refusals.InvalidInput: engines "
      "import only games"]),
    ("referee.client", "from referee.registry import GAMES\n",
     ["referee.client (client) imports referee.registry.GAMES: it stands apart",
      "referee.client (client) imports referee.registry: it stands apart"]),
    ("referee.serving.app", "from referee.api import games\nfrom referee import __version__\n"
     "import json, redis\n", []),
    ("referee.games.gnoming.apply", "import orjson\nfrom collections import Counter\n", []),
])
def test_the_check_finds_an_upward_import(module, source, expected):
    """Proof the check can fail: upward imports (module level, lazy, relative), a web library
    in an engine, a service module in an engine, the client leaning on the package; and
    passes what is allowed."""
    found = wrong_imports(module, imported(source, module, False))
    assert sorted(found) == sorted(expected)


PACKAGES = sorted(p.parent for p in PACKAGE.glob("*/__init__.py"))


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_each_package_says_what_it_holds_and_may_import(package):
    """Each package's ``__init__`` docstring names what it may import (README "Layout")."""
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
    assert "May import:" in doc, f"{package.name}/__init__.py: no 'May import:' sentence"
