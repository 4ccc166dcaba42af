"""The rulebook (``referee/rulebook/*.yaml``) against the code, the tests and the engines."""
from __future__ import annotations

import pytest
import yaml

from referee.registry import GAMES, _entries
from referee.rulebook import FILES, FOLDER, RulebookError, all_ids, book, find, parse
from referee.rulebook.citations import cited, cited_in
from referee.rulebook.docs import expected_docs
from tests.conftest import REPO

RULE_TESTS = [p for p in (REPO / "tests").rglob("*.py")
              if not {"rulebook", "i18n"} & set(p.relative_to(REPO / "tests").parts)]
"""Test modules that test rules (the rulebook's and i18n's own tests name IDs as data)."""
CASE_FILES = sorted((REPO / "tests" / "cases").glob("*/*.json"))


def test_every_built_in_game_has_a_rulebook():
    assert {entry.name for entry in _entries()} == set(FILES)


def test_code_cites_only_rule_ids_the_rulebook_has():
    """Every rule ID in referee/** (verdicts, docstrings, comments) is in the rulebook."""
    code = cited_in(p for p in (REPO / "referee").rglob("*.py"))
    unknown = {rule: sorted(str(p.relative_to(REPO)) for p in paths)
               for rule, paths in code.items() if rule not in all_ids()}
    assert not unknown, f"rule IDs cited in the code but missing from the rulebook: {unknown}"
    assert len(code) > 80  # the scan really reads the engines (they cite most rules)


def test_every_rule_is_named_by_a_test():
    """Each rule of the rulebook is named by a test (in its name or a comment) or by a case
    file that test_cases runs."""
    named = set(cited_in(RULE_TESTS)) | set(cited_in(CASE_FILES))
    missing = sorted(all_ids() - named)
    assert not missing, f"rules no test names: {missing}"


def test_citation_scan_finds_both_spellings_and_can_fail():
    """The scanner behind the two tests above: upper-case IDs, chained test-name IDs, and
    nothing else (so a rule no test names is really reported)."""
    assert cited("def test_spy_r1_r3_exposure(): pass  # COUP-A8b, AF-X1") == {
        "SPY-R1", "SPY-R3", "COUP-A8b", "AF-X1"}
    assert cited("def test_coup_a8b_examine_order(): ...") == {"COUP-A8b"}
    assert cited("coupon_a1 gnome_d3 AF-P 7 SPY_Q") == set()
    assert "GN-D3" not in cited("def test_gn_d1_hazard_flips(): ...")


def test_every_option_is_documented_on_the_rule_it_switches():
    """The engines' option tables and the rulebook agree: each option is listed on the rule
    its OptionSpec names, and every option the rulebook lists exists in that game."""
    for name, entry in GAMES.items():
        if name not in FILES:
            continue  # a game registered at run time (the conformance self-test's toy)
        game_book = book(name)
        for option, spec in entry.engine.options.items():
            assert option in game_book.rule(spec.rule).options, (name, option, spec.rule)
        listed = {opt for rule in game_book.rules.values() for opt in rule.options}
        assert listed == set(entry.engine.options), name


def test_rules_have_both_languages_and_a_source_tag():
    for game in FILES:
        for rule in book(game).rules.values():
            assert rule.source in ("seed", "official", "decision")
            assert any("\u1000" <= ch <= "\u109f" for ch in rule.text["my"]), rule.id
            assert rule.text["en"] != rule.text["my"] and rule.title["en"], rule.id


def test_find_by_id_across_games():
    assert find("COUP-A8b").title["en"] == "Inquisitor — examine"
    assert find("AF-P3").game == "all-fours"
    assert find("OPTIONS") is None and find("COUP-Z1") is None


@pytest.mark.parametrize("change, problem", [
    (lambda r: r["text"].pop("my"), "non-empty text"),
    (lambda r: r["text"].update(my="only English"), "Myanmar script"),
    (lambda r: r.update(source="folklore"), "source tags"),
    (lambda r: r.update(section="nowhere"), "unknown section"),
    (lambda r: r.update(id="AF-P1"), "not a rule ID of this game"),
])
def test_malformed_rulebook_is_refused(change, problem):
    """parse() refuses what the format forbids (so the shipped files are really checked)."""
    data = yaml.safe_load((FOLDER / "coup.yaml").read_text(encoding="utf-8"))
    change(data["rules"][0])
    with pytest.raises(RulebookError, match=problem):
        parse("coup", data)


def test_duplicate_rule_id_is_refused():
    data = yaml.safe_load((FOLDER / "spy.yaml").read_text(encoding="utf-8"))
    data["rules"].append(data["rules"][0])
    with pytest.raises(RulebookError, match="twice"):
        parse("spy", data)


def test_docs_rules_are_generated_from_the_rulebook_and_document_every_rule():
    """docs/rules/<game>.md is exactly the rendering of the YAML (the contract drift test
    checks the same through `referee contract --check`) and holds every rule ID."""
    for path, text in expected_docs().items():
        assert (REPO / path).read_text(encoding="utf-8") == text, f"run `referee contract`: {path}"
    for game, stem in FILES.items():
        text = (REPO / "docs" / "rules" / f"{stem}.md").read_text(encoding="utf-8")
        for rule in book(game).rules.values():
            assert f"### {rule.id} — {rule.title['en']}" in text
            assert rule.text["my"] in text
