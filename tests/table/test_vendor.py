"""Vendored third-party files are what their manifests say: each file's sha256, its licence
file beside it; the page's own (served) and the tests' own (never served) kept apart."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from referee.api.table import STATIC

MANIFESTS = [STATIC / "vendor" / "MANIFEST.json",
             Path(__file__).resolve().parent / "vendor" / "MANIFEST.json"]


@pytest.mark.parametrize("manifest", MANIFESTS, ids=["served", "tests"])
def test_every_vendored_file_matches_its_manifest(manifest):
    listed = json.loads(manifest.read_text())["files"]
    folder = manifest.parent
    on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    named = {entry["path"] for entry in listed} | {entry["licence_file"] for entry in listed} | {
        entry[k] for entry in listed for k in ("third_party_licences",) if k in entry}
    assert on_disk - {"MANIFEST.json"} == named  # nothing unlisted, nothing missing
    for entry in listed:
        data = (folder / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["path"]
        assert entry["licence"] and (folder / entry["licence_file"]).stat().st_size > 500
        assert entry["package"] and entry["version"]


def test_the_proof_of_the_check():
    """A changed byte changes the digest the test compares (the check can fail)."""
    entry = json.loads(MANIFESTS[0].read_text())["files"][0]
    data = bytearray((STATIC / "vendor" / entry["path"]).read_bytes())
    data[0] ^= 1
    assert hashlib.sha256(bytes(data)).hexdigest() != entry["sha256"]
