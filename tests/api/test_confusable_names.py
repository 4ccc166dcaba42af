"""Seat names that cannot be mistaken (issue 21 item 5): names whose Unicode TS #39 skeletons
clash are 422 naming both, a name mixing scripts that pass for one another (or digits of two
number systems, a mark twice on a letter, U+FFFD) is 422 naming its seat, and each game's
reserved words (``unknown`` in every game, Coup's characters) are 422 with the game's rule,
in stateless setup and match creation alike.  The skeletons and scripts are ICU's (PyICU):
every expected value below is what TS #39's data says of these characters."""
from __future__ import annotations

import pytest

GAMES = ("coup", "spy", "all-fours", "gnoming")


def seats(game: str, names: list[str]) -> list[str]:
    """``names`` seated in ``game``: Gnoming needs a third player (GN-C2)."""
    return names + ["zed"] if game == "gnoming" and len(names) == 2 else names


def both_paths(client, game: str, names: list[str], lang: str | None = None):
    """The answers of stateless setup and of match creation to the same seats."""
    headers = {"Accept-Language": lang} if lang else {}
    players = seats(game, names)
    return [client.post(f"/v1/games/{game}/setup", json={"players": players, "seed": 1},
                        headers=headers),
            client.post("/v1/matches", json={"game": game, "players": players},
                        headers=headers)]


LATIN_A = "U+0061 (LATIN SMALL LETTER A)"
CYRILLIC_A = "U+0430 (CYRILLIC SMALL LETTER A)"
LOOK_ALIKE = [
    # the findings: Latin "ace" and all-Cyrillic "асе" (each one script, so each alone is
    # fine), dotless ı and i, the digit 1 and the Arabic-Indic ١
    ("ace", "\u0430\u0441\u0435", LATIN_A, CYRILLIC_A),
    ("\u0131", "i", "U+0131 (LATIN SMALL LETTER DOTLESS I)", "U+0069 (LATIN SMALL LETTER I)"),
    ("1", "\u0661", "U+0031 (DIGIT ONE)", "U+0661 (ARABIC-INDIC DIGIT ONE)"),
    # capital I and small l (skeletons keep case: "Ian" is "lan"), and a case fold first:
    # "ACE" folds to "ace", whose skeleton is Cyrillic "асе"'s
    ("Ian", "lan", "U+0049 (LATIN CAPITAL LETTER I)", "U+006C (LATIN SMALL LETTER L)"),
    ("ACE", "\u0430\u0441\u0435", "U+0041 (LATIN CAPITAL LETTER A)", CYRILLIC_A),
    # Burmese: the letter wa and the digit zero are drawn alike
    ("\u101d\u1004\u103a\u1038", "\u1040\u1004\u103a\u1038",
     "U+101D (MYANMAR LETTER WA)", "U+1040 (MYANMAR DIGIT ZERO)"),
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("first,second,one,other", LOOK_ALIKE)
def test_names_that_look_alike_are_422_naming_both(client, game, first, second, one, other):
    for answer in both_paths(client, game, [first, second]):
        assert answer.status_code == 422, (game, first, second)
        problem = answer.get_json()
        assert problem["type"] == "/problems/invalid-input"
        assert problem["errors"] == [{"field": "players", "message": (
            f"{first!r} and {second!r} look alike ({one} and {other} can be taken for one "
            "another, Unicode TS #39): give each player a name the others cannot mistake.")}]


@pytest.mark.parametrize("first,second,one,other", LOOK_ALIKE)
def test_each_look_alike_name_alone_is_a_fine_name(client, first, second, one, other):
    for name in (first, second):
        answer = client.post("/v1/matches", json={"game": "coup", "players": [name, "ben"]})
        assert answer.status_code == 201, name
        assert answer.get_json()["players"] == [name, "ben"]  # kept as sent


MIXED = "The name mixes scripts whose letters can pass for one another: {} and {} (write it " \
        "in one script, or in Latin and one other script but not Cyrillic, Greek or " \
        "Cherokee: digits, spaces and symbols go with any)."
ONE_NAME = [
    # the finding: "аna", a Cyrillic а before Latin "na"
    ("\u0430na", MIXED.format(CYRILLIC_A, "U+006E (LATIN SMALL LETTER N)")),
    ("\u041c\u0430\u0440\u0438\u044f Ivanova",
     MIXED.format("U+041C (CYRILLIC CAPITAL LETTER EM)", "U+0049 (LATIN CAPITAL LETTER I)")),
    ("\u03a3ana", MIXED.format("U+03A3 (GREEK CAPITAL LETTER SIGMA)",
                               "U+0061 (LATIN SMALL LETTER A)")),
    # the finding: U+FFFD, which a decoder leaves where it lost a character
    ("\ufffd", "The name holds U+FFFD (REPLACEMENT CHARACTER), which a decoder leaves where it "
               "could not read a character: send the name as typed, in UTF-8."),
    ("Zo\ufffd", "The name holds U+FFFD (REPLACEMENT CHARACTER), which a decoder leaves where "
                 "it could not read a character: send the name as typed, in UTF-8."),
    ("ana 1\u0661", "The name mixes digits of two number systems: U+0031 (DIGIT ONE) and "
                    "U+0661 (ARABIC-INDIC DIGIT ONE)."),
    ("\u00e1\u0301", "The name puts the combining mark U+0301 (COMBINING ACUTE ACCENT) twice "
                     "on one letter, where the second shows nothing."),  # NFC, yet á́ is á
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name,message", ONE_NAME)
def test_a_name_mixing_what_passes_for_one_another_is_422_naming_its_seat(client, game, name,
                                                                         message):
    for answer in both_paths(client, game, ["ben", name]):
        assert answer.status_code == 422, (game, name)
        problem = answer.get_json()
        assert problem["type"] == "/problems/invalid-input"
        assert problem["errors"] == [{"field": "players[1]", "message": message}]


FINE = ["ခင်မောင်", "မောင် ၂", "ကျော် (Kyaw)", "Ana 2", "A-1 b.c", "Ana 🎲", "❤\ufe0f",
        "山田 たろう", "김민준", "Ελένη", "Дмитрий", "Nguyễn Văn An", "ناصر ١", "नमस्ते"]


@pytest.mark.parametrize("name", FINE)
def test_names_people_type_stay_fine(client, name):
    """Burmese (with Burmese digits, or a Latin nickname: Latin joins one other script),
    Latin with digits, spaces and punctuation, emoji, Japanese (Han with kana is one
    script), Greek or Cyrillic alone, Arabic with its own digits."""
    for game in GAMES:
        for answer in both_paths(client, game, [name, "ben"]):
            assert answer.status_code in (200, 201), (game, name, answer.get_json())


UNKNOWN_RULES = {"coup": "COUP-X1", "spy": "SPY-S2", "all-fours": "AF-D3", "gnoming": "GN-X1"}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", ["unknown", "Unknown",
                                  "\uff35\uff2e\uff2b\uff2e\uff2f\uff37\uff2e",  # ＵＮＫＮＯＷＮ
                                  "unkn\u1d0fwn"])  # a small capital ᴏ
def test_unknown_is_reserved_in_every_game(client, game, name):
    """Every game has table mode, where a face-down card nobody named is "unknown" (the
    finding: "unknown" as a Coup seat); compared as names are, look-alikes too."""
    for answer in both_paths(client, game, ["ben", name]):
        assert answer.status_code == 422, (game, name)
        problem = answer.get_json()
        assert problem["type"] == "/problems/invalid-setup"
        assert [(e["field"], e["rule"]) for e in problem["errors"]] == [
            ("players[1]", UNKNOWN_RULES[game])]
        assert problem["errors"][0]["message"].startswith(
            f"{name!r} cannot name a player: \"unknown\" is ")


@pytest.mark.parametrize("name", ["captain", "Duchess", "INQUISITOR", "ambassador", "assassin",
                                  "countess"])
def test_coup_reserves_its_characters_names(client, name):
    """Claims, blocks and proofs name characters (COUP-S2, B1, C2): a seat called "captain"
    would read as the Captain; all six, whichever exchanger the game uses."""
    for answer in both_paths(client, "coup", ["ben", name]):
        assert answer.status_code == 422, name
        problem = answer.get_json()
        assert problem["errors"] == [{
            "field": "players[1]", "rule": "COUP-S2",
            "message": f"{name!r} cannot name a player: it is a character's name, which "
                       "claims, blocks and proofs say (COUP-S2), so a seat so named would be "
                       "ambiguous."}]


@pytest.mark.parametrize("game,names", [
    ("coup", ["duke", "ben"]),  # no Duke here: Coup with the Inquisitor has the Duchess
    ("all-fours", ["AS", "JD"]),  # card codes, and initials
    ("gnoming", ["M", "H", "3"]),  # Mulligan, Hazard, a card value
    ("spy", ["spy", "safe_1"]),  # a spy's target is a seat, an answer's card a card
])
def test_card_names_stay_fine_where_no_field_confuses_them(client, game, names):
    for answer in both_paths(client, game, names):
        assert answer.status_code in (200, 201), (game, names, answer.get_json())


@pytest.mark.parametrize("name", ["h\u1d0fst", "__\u24e1eferee__"])  # hᴏst, ⓡ
def test_a_look_alike_of_a_reserved_name_is_reserved(client, name):
    for answer in both_paths(client, "spy", ["ben", name]):
        assert answer.status_code == 422, name
        assert answer.get_json()["errors"] == [{"field": "players",
                                                "message": f"{name!r} is reserved"}]


def test_the_refusals_speak_burmese(client):
    clash, mixed, unknown = (both_paths(client, "coup", names, lang="my")[1].get_json()
                             for names in (["ace", "\u0430\u0441\u0435"], ["ben", "\u0430na"],
                                           ["ben", "unknown"]))
    assert clash["errors"][0]["message"] == (
        f"'ace' နှင့် '\u0430\u0441\u0435' သည် တူလွန်းသည် ({LATIN_A} နှင့် {CYRILLIC_A} ကို "
        "တစ်ခုနှင့်တစ်ခု မှားယွင်းထင်မှတ်နိုင်သည်၊ Unicode နည်းပညာစံ #39): ကစားသမားတစ်ဦးစီကို "
        "အခြားသူများ မမှားနိုင်သော အမည် ပေးပါ။")
    assert clash["detail"] == "players: " + clash["errors"][0]["message"]
    assert mixed["errors"][0]["message"].startswith(
        f"အမည်တွင် စာလုံးချင်း မှားယွင်းထင်မှတ်နိုင်သော အက္ခရာစနစ်များ ရောနေသည်: {CYRILLIC_A} "
        "နှင့် U+006E (LATIN SMALL LETTER N) (")
    assert mixed["detail"] == "players[1]: " + mixed["errors"][0]["message"]
    assert unknown["errors"][0]["message"] == (
        "'unknown' ကို ကစားသမားအမည်အဖြစ် မသုံးနိုင်ပါ: \"unknown\" သည် ဒိုင်လူကြီးကို မပြောရသေးသော "
        "မှောက်ထားသောကတ် (မသိသောကတ်) ကို ဆိုလိုသဖြင့် ထိုအမည်ရှိ ထိုင်ခုံသည် ရှုပ်ထွေးစေမည် (COUP-X1)။")
