"""Engines return message codes, never sentences (issue 13): every code an engine can return has
a text in every language, and no engine builds a violation from an English sentence.

The scan reads the source (``ast``) of ``referee/games``: the code argument of every
``violation(rule, code, …)``, ``Problems.flag(rule, code, …)`` and ``Violation(…, code=…)`` call,
and every ``Violation(rule, "sentence", …)`` / ``Problems.add(rule, "sentence", …)`` call (the
English-only form that has no code).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from referee.i18n import LANGUAGES
from referee.i18n.catalogs import catalog

GAMES_DIR = Path(__file__).resolve().parents[2] / "referee" / "games"
GAME_PACKAGES = sorted(p.name for p in GAMES_DIR.iterdir()
                       if p.is_dir() and p.name not in ("common", "__pycache__"))


def _calls(source: str):
    """``(kind, code or None, lineno)`` of each violation-building call in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
            node.func, "id", None)
        keywords = {k.arg: k.value for k in node.keywords}
        if name in ("violation", "flag") and len(node.args) >= 2:
            yield "code", _literal(node.args[1]), node.lineno
        elif name == "Violation" and "code" in keywords:
            yield "code", _literal(keywords["code"]), node.lineno
        elif name in ("Violation", "add") and len(node.args) >= 2 and isinstance(
                node.args[1], (ast.Constant, ast.JoinedStr)) and _is_rule(node.args[0]):
            yield "sentence", None, node.lineno


def _literal(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _is_rule(node) -> bool:
    """A first argument that is a rule ID (a literal or a name such as ``rule``/``spec.rule``):
    ``set.add(x, y)`` and friends are not violation calls."""
    return not (isinstance(node, ast.Constant) and not isinstance(node.value, str))


def scan(folder: Path) -> tuple[dict[str, list[str]], list[str]]:
    """``({code: [file:line]}, [file:line of each English-sentence call])`` of every file under
    ``folder``."""
    codes: dict[str, list[str]] = {}
    sentences: list[str] = []
    for path in sorted(folder.rglob("*.py")):
        found, said = scan_file(path)
        for code, places in found.items():
            codes.setdefault(code, []).extend(places)
        sentences += said
    return codes, sentences


def test_every_engine_code_has_a_text_in_every_language():
    """A code an engine returns but a catalog lacks would answer an unrenderable verdict."""
    codes, _ = scan(GAMES_DIR)
    assert codes
    for lang in LANGUAGES:
        known = {m.id for m in catalog(lang, "verdicts") if m.id and m.string}
        missing = {code: places for code, places in codes.items() if code not in known}
        assert not missing, f"verdicts catalogs of {lang} lack: {missing}"


STILL_SENTENCES: set[str] = set()
"""Game packages whose messages are not codes yet (issue 13, in progress): their test is a strict
xfail, so converting a package makes it pass and forces its name out of this set."""


@pytest.mark.parametrize("package", ["common", "base.py", *[
    pytest.param(game, marks=pytest.mark.xfail(strict=True, reason="messages still sentences"))
    if game in STILL_SENTENCES else game for game in GAME_PACKAGES]])
def test_engines_return_codes_not_sentences(package):
    path = GAMES_DIR / package
    codes, sentences = scan_file(path) if path.is_file() else scan(path)
    assert not sentences, f"violations built from English sentences: {sentences}"


def scan_file(path: Path) -> tuple[dict[str, list[str]], list[str]]:
    """:func:`scan` of one file."""
    codes: dict[str, list[str]] = {}
    sentences = []
    where = path.relative_to(GAMES_DIR) if path.is_relative_to(GAMES_DIR) else path.name
    for kind, code, line in _calls(path.read_text(encoding="utf-8")):
        if kind == "sentence":
            sentences.append(f"{where}:{line}")
        elif code is not None:  # a forwarded code (a variable) is checked where it is written
            codes.setdefault(code, []).append(f"{where}:{line}")
    return codes, sentences


def test_the_scan_finds_sentences_and_codes(tmp_path):
    """The scan can fail: it sees an English-sentence violation and a code."""
    sample = tmp_path / "sample.py"
    sample.write_text('problems.add("AF-P3", f"{p} must follow suit.", "action.card")\n'
                      'v = violation("AF-P3", "allfours.play.must_follow", card="2D")\n'
                      'seen.add(3, 4)\n')
    codes, sentences = scan_file(sample)
    assert sentences == ["sample.py:1"]
    assert codes == {"allfours.play.must_follow": ["sample.py:2"]}
