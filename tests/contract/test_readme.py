"""The README's client example runs as written (against a live server) and prints what the
README says it prints."""
from __future__ import annotations

import contextlib
import io
import re

from tests.contract.helpers import REPO

README_URL = "http://127.0.0.1:8000"


def _example(heading="### Python client"):
    section = (REPO / "README.md").read_text().split(heading, 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    output = re.search(r"```text\n(.*?)```", section, re.DOTALL).group(1)
    return code, output


def test_readme_client_example_runs_and_prints_what_it_says(base_url):
    code, expected = _example()
    assert code.count(README_URL) == 1  # the only change: the live server's address
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code.replace(README_URL, base_url), "README.md", "exec"), {})
    assert printed.getvalue() == expected


def test_readme_languages_example_runs_and_prints_what_it_says(base_url):
    """The verdict in both languages of "Rules and languages" (AF-B1, its title in English and
    Burmese, the rule's Burmese text)."""
    code, expected = _example("## Rules and languages")
    assert code.count(README_URL) == 1
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code.replace(README_URL, base_url), "README.md", "exec"), {})
    assert printed.getvalue() == expected
