"""``docs/rules/<game>.md``: the rulebook rendered as Markdown, both languages side by side.

Generated, never edited by hand: ``referee contract`` writes these files with the OpenAPI
document, and ``referee contract --check`` (the drift test) fails when one differs from the
YAML rulebook.
"""
from __future__ import annotations

from referee.rulebook import FILES, Book, Rule, book

HEADER = ("<!-- Generated from referee/rulebook/{stem}.yaml by `referee contract`; "
          "do not edit. -->\n")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _rule(rule: Rule) -> list[str]:
    tags = ", ".join((rule.source, *rule.also))
    meta = f"*{tags}*"
    if rule.options:
        meta += " · option" + ("s" if len(rule.options) > 1 else "") + ": " + ", ".join(
            f"`{name}`" for name in rule.options)
    rows = [f"| {_cell(rule.text['en'])} | {_cell(rule.text['my'])} |"]
    if rule.beyond_seed:
        rows.append(f"| *Beyond the seed:* {_cell(rule.beyond_seed['en'])} "
                    f"| *မူရင်းစာတမ်းထက် ကျော်သည်:* {_cell(rule.beyond_seed['my'])} |")
    return [f"### {rule.id} — {rule.title['en']} · {rule.title['my']}", "", meta, "",
            "| English | မြန်မာ |", "| --- | --- |", *rows, ""]


def render(game_book: Book) -> str:
    """The Markdown text of one game's rulebook: each rule's English and Burmese side by
    side, with its note where it goes beyond the seed."""
    stem = FILES[game_book.game]
    lines = [HEADER.format(stem=stem).rstrip("\n"),
             f"# {game_book.title['en']} — {game_book.title['my']}", "",
             f"Rules as this service judges them, English and Burmese side by side (`Accept-Language:"
             f" my` on `GET /v1/games/{game_book.game}/rules`). Tags: *seed* — the Burmese seed "
             f"document ({game_book.seed}) states it; *official* — the publisher's or standard "
             "rules fill it in; *decision* — the project's reading, often switched by an option. "
             "*Beyond the seed* marks what a reader of the seed will not find there. The Burmese "
             f"game terms are those of the glossary (`referee/rulebook/glossary/{stem}.yaml`; "
             "see docs/translating.md).", ""]
    current = None
    for rule in game_book.rules.values():
        if rule.section != current:
            current = rule.section
            title = game_book.sections[current]
            lines += [f"## {title['en']} — {title['my']}", ""]
        lines += _rule(rule)
    return "\n".join(lines).rstrip("\n") + "\n"


def expected_docs() -> dict[str, str]:
    """``{"docs/rules/<stem>.md": text}`` for every game's rulebook."""
    return {f"docs/rules/{stem}.md": render(book(game)) for game, stem in FILES.items()}
