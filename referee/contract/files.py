"""The committed contract files: ``openapi.yaml``, ``schemas/**.json`` and ``docs/rules/*.md``
(the rulebook, from ``referee/rulebook/*.yaml``) at the repo root, and the message template
``referee/i18n/locales/messages.pot`` (every text of the HTTP layer, from the code).

``referee contract`` (or ``python -m referee.contract``) rewrites them from the code;
``--check`` only compares and lists the files that differ (the drift test does the same).
Rerun it whenever a schema, an endpoint, the game registry or a rulebook file changes.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.contract.jsonschema import json_schemas
from referee.contract.openapi import document, render_yaml
from referee.contract.messages import pot_text
from referee.rulebook.docs import expected_docs

ROOT = Path(__file__).resolve().parents[2]
"""The repository root (where ``openapi.yaml`` and ``schemas/`` live)."""


def render_schema(schema: dict[str, Any]) -> str:
    """A JSON Schema file's text: keys sorted, two-space indent, trailing newline."""
    return json.dumps(schema, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def expected_files() -> dict[str, str]:
    """``{path relative to the repo root: text}`` of every contract file, from the code."""
    from referee.serving.app import create_app

    doc = document(create_app({"TESTING": True, "REDIS_URL": None}))
    files = {"openapi.yaml": render_yaml(doc)}
    for name, schema in json_schemas(doc).items():
        files[f"schemas/{name}"] = render_schema(schema)
    files.update(expected_docs())
    files["referee/i18n/locales/messages.pot"] = pot_text()
    return files


def _committed_schemas(root: Path) -> set[str]:
    folder = root / "schemas"
    return {str(p.relative_to(root)) for p in folder.rglob("*.json")} if folder.is_dir() else set()


def drift(root: Path = ROOT) -> list[str]:
    """Contract files under ``root`` that differ from the code (missing, changed, or a
    ``schemas/`` file the code no longer produces), sorted."""
    return _drift(root, expected_files())


def _drift(root: Path, expected: dict[str, str]) -> list[str]:
    changed = [name for name, text in expected.items()
               if not (root / name).is_file() or (root / name).read_text() != text]
    stale = _committed_schemas(root) - set(expected)
    return sorted(changed + list(stale))


def write(root: Path = ROOT) -> list[str]:
    """Rewrite every contract file under ``root`` and delete stale ``schemas/`` files;
    returns what changed (as :func:`drift` would have listed it)."""
    expected = expected_files()
    changed = _drift(root, expected)
    for name in _committed_schemas(root) - set(expected):
        (root / name).unlink()
    for name, text in expected.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text() != text:
            path.write_text(text)
    return changed


def main(argv: list[str] | None = None) -> int:
    """``referee contract [--check] [--root DIR]``: write (or check) the contract files
    (OpenAPI, JSON Schemas, the rulebook's docs/rules).
    Exit status 1 with ``--check`` when any file differs."""
    import argparse

    parser = argparse.ArgumentParser(prog="referee contract", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on drift")
    parser.add_argument("--root", type=Path, default=ROOT, help="repository root")
    args = parser.parse_args(argv)
    if args.check:
        differ = drift(args.root)
        for name in differ:
            print(f"out of date: {name}")
        if differ:
            print("run `referee contract` (or `python -m referee.contract`) and commit the result")
        return 1 if differ else 0
    for name in write(args.root):
        print(f"wrote {name}")
    return 0
