"""The All Fours trick-sheet scorer (/table/score) in a real browser: a hand entered by tapping
cards is scored by the service (POST /v1/games/all-fours/score), with the reason for each point
and the renege the sheet proves (AF-I1), in English and Burmese."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.table.conftest import needs_browser

pytestmark = needs_browser

# The README's Quick start hand (tests/cases/allfours/real-hand-1.json): X = kiri and lena
# (seats 0 and 2), Y = tano and omar; the page sends no sides, so the service names them A, B.
PLAYERS = ["kiri", "tano", "lena", "omar"]
TRICKS = [("tano", ["9S", "4C", "AS", "3H"]), ("omar", ["JC", "10C", "QC", "AC"]),
          ("lena", ["7C", "9C", "5H", "4D"]), ("tano", ["JH", "7D", "6H", "10H"]),
          ("lena", ["QH", "8D", "7H", "4H"]), ("omar", ["JS", "2D", "8H", "JD"])]
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def card_label(code: str) -> str:
    """The English name the page gives a card button (the verdicts' term.card.allfours)."""
    rank = RANKS.get(code[:-1], code[:-1])
    return f"the {rank} of {SUITS[code[-1]]}"


def tap(page, code: str) -> None:
    page.get_by_role("button", name=card_label(code), exact=True).click()


def enter_sheet(page, players, dealer, beg, kicks, tricks) -> None:
    page.select_option('[data-key="count"]', str(len(players)))
    for i, name in enumerate(players):
        page.fill(f'[data-key="player-{i}"]', name)
        page.press(f'[data-key="player-{i}"]', "Tab")
    page.select_option('[data-key="dealer"]', str(players.index(dealer)))
    page.select_option('[data-key="beg"]', beg)
    for code in kicks:
        page.get_by_role("button", name="Enter a kick").click()
        tap(page, code)
    for i, (leader, cards) in enumerate(tricks):
        page.select_option(f'[data-key="leader-{i}"]', str(players.index(leader)))
        for code in cards:
            tap(page, code)


def test_the_quick_start_hand_is_scored_with_a_reason_for_each_point(server, phone):
    page = phone("en")
    page.goto(f"{server}/table/score")
    enter_sheet(page, PLAYERS, "kiri", "give_one", ["QD"], TRICKS)
    # a card once on the sheet cannot be tapped again
    assert page.get_by_role("button", name=card_label("QD"), exact=True).is_disabled()
    page.get_by_role("button", name="Score this hand").click()
    result = page.get_by_role("region", name="The score")
    result.wait_for()
    text = result.inner_text()
    # X (kiri + lena, side A) 4 points: High JD, Low 2D, Jack, Game 30 to 6; Y (B) give one
    rows = [r.inner_text().split("\t") for r in result.locator("tbody tr").all()]
    assert [row[:2] for row in rows] == [["A", "4"], ["B", "1"]]
    assert "High: J♦ dealt to lena" in text
    assert "Low: 2♦ dealt to kiri" in text
    assert "Jack: dealt to lena, won by lena: 1" in text
    assert "Game: A 30 · B 6 → A" in text
    assert "The sheet proves no renege." in text
    assert page.problems == []


def test_a_renege_the_sheet_proves_is_shown_with_its_rule(server, phone):
    """tests/cases/allfours/renege-2p.json: ben fails to follow hearts in trick 5 and plays a
    heart in trick 6 (AF-P3, proven: AF-I1)."""
    import json
    from tests.conftest import CASES_DIR
    case = json.loads((CASES_DIR / "allfours" / "renege-2p.json").read_text())
    sheet = case["sheet"]
    page = phone("en")
    page.goto(f"{server}/table/score")
    enter_sheet(page, sheet["players"], sheet["dealer"], sheet["beg"], sheet["kicks"],
                [(t["leader"], t["cards"]) for t in sheet["tricks"]])
    page.get_by_role("button", name="Score this hand").click()
    alert = page.locator(".reneges")
    alert.wait_for()
    # hand-worked: ana leads JH in trick 5, ben plays QC though he holds a heart (AF-P3); his
    # 5H in trick 6 proves it; the rules' titles come from GET /v1/games/all-fours/rules
    assert case["expect"]["reneges"] == [{"player": "ben", "trick": 5}]
    assert alert.locator("li strong").inner_text() == "AF-I1"
    line = alert.locator("li").inner_text()
    assert ("ben broke AF-P3 (Follow suit or trump) in trick 5, proven by the 5 of hearts in "
            "trick 6.") in line
    assert "Renege" in line  # the rule's title, from GET /v1/games/all-fours/rules


def test_an_inconsistent_sheet_shows_the_service_s_problems(server, phone):
    page = phone("en")
    page.goto(f"{server}/table/score")
    enter_sheet(page, ["ana", "ben"], "ana", "stand", ["4S"], [("ana", ["7D", "3S"])])
    page.get_by_role("button", name="Score this hand").click()
    problem = page.get_by_role("alert")
    problem.wait_for()
    assert "AF-X1" in problem.inner_text()  # a hand of one trick is not a whole hand


def test_the_scorer_speaks_burmese_and_remembers_the_choice(server, phone):
    page = phone("my")
    page.goto(f"{server}/table/score")
    expect(page.locator("h1")).to_have_text("လေးခုလုံး လှည့်ကွက်စာရွက်")  # from the browser
    assert page.evaluate("document.documentElement.lang") == "my"
    page.select_option('[data-key="lang"]', "en")
    expect(page.locator("h1")).to_have_text("All Fours trick sheet")
    page.reload()
    expect(page.locator("h1")).to_have_text("All Fours trick sheet")  # kept in localStorage
    assert page.evaluate("localStorage.getItem('referee.table.lang')") == "en"
