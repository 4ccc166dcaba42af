"""Several field errors in one 422 come in one order, the same in every worker process: the
order the request holds the fields (marshmallow finds unknown fields through a ``set``, whose
order follows the process's string hash, ``PYTHONHASHSEED``)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import REPO

ALLFOURS = "/v1/games/all-fours"
# every body mixes unknown fields with wrongly typed known ones, in no alphabetical order
SETUP = {"zeta": 1, "players": ["ana", "ben"], "kappa": 2, "seed": True, "alpha": 3,
         "mode": "digital", "mu": 4, "dealer": 7, "beta": 5, "nu": 6, "omega": 7}
SETUP_FIELDS = ["zeta", "kappa", "seed", "alpha", "mu", "dealer", "beta", "nu", "omega"]
ACTION = {"type": "stand", "zulu": 1, "player": "ana", "echo": 2, "tango": 3, "bravo": 4,
          "x-ray": 5, "lima": 6}
ACTION_FIELDS = ["action.zulu", "action.echo", "action.tango", "action.bravo", "action.x-ray",
                 "action.lima"]
MATCH = {"game": "all-fours", "players": ["ana", "ben"], "sierra": 1, "seed": 9,
         "delta": 2, "dealer": ["ana"], "hotel": 3, "charlie": 4, "papa": 5}
MATCH_FIELDS = ["sierra", "delta", "dealer", "hotel", "charlie", "papa"]

SCRIPT = """
import json, sys
from referee.serving.app import create_app
from referee.registry import GAMES
requests = json.loads(sys.argv[1])
client = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
entry = GAMES["all-fours"]
state = entry.engine.setup({**entry.example_setup, "mode": "digital",
                            "options": entry.engine.resolve_options({})}, 5)
for path, body in requests:
    if path.endswith("/validate"):
        body = {"state": state, "action": body}
    answer = client.post(path, json=body)
    sys.stdout.write("ANSWER " + answer.get_data(as_text=True) + "\\n")
"""


def _answers(hash_seed: str) -> list[str]:
    requests = [(f"{ALLFOURS}/setup", SETUP), (f"{ALLFOURS}/validate", ACTION),
                ("/v1/matches", MATCH)]
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "REFEREE_RATE_LIMITS": "off"}
    done = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(requests)], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    return [line[7:] for line in done.stdout.splitlines() if line.startswith("ANSWER ")]


def test_the_same_bad_input_gets_the_same_answer_byte_for_byte_whatever_the_hash_seed():
    """Each process its own string hash: the same three bad requests, the same three bodies (the
    problem's ``instance`` is the request path, so nothing else may differ); the fields of
    each in the order the request sent them (unknown ones were in ``set`` order)."""
    runs = {seed: _answers(seed) for seed in ("0", "1", "2", "3", "4")}
    first = runs["0"]
    assert len(first) == 3
    for seed, answers in runs.items():
        assert answers == first, f"PYTHONHASHSEED={seed} answered differently"
    setup, action, match = (json.loads(text) for text in first)
    assert [e["field"] for e in setup["errors"]] == SETUP_FIELDS
    assert [e["field"] for e in action["errors"]] == ACTION_FIELDS
    assert [e["field"] for e in match["errors"]] == MATCH_FIELDS
    assert setup["errors"][0] == {"field": "zeta", "message": "Unknown field."}
    assert match["errors"][2] == {"field": "dealer", "message": "Not a valid string."}


def test_query_errors_come_in_the_order_the_query_names_them(client):
    """Two bad query parameters, named ``wait`` first: listed so (the schema declares
    ``after`` first, which marshmallow's order followed)."""
    match = client.post("/v1/matches", json={"game": "all-fours",
                                             "players": ["ana", "ben"]}).get_json()
    answer = client.get(f"/v1/matches/{match['id']}/events?wait=soon&after=x")
    assert answer.status_code == 422
    assert [e["field"] for e in answer.get_json()["errors"]] == ["query.wait", "query.after"]
