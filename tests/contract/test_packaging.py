"""The packages as pip builds them from a fresh checkout (``./dev`` installs the server and the
Python client editable): each editable install prints no setuptools warning, and each wheel
holds exactly the files of its package that git tracks (for the server: the code, the
rulebooks and glossary, the catalogs, the table page) and its metadata — nothing more,
nothing left out.  The installs go into a throwaway venv (pip's ``--python``), never into the
running one."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECTS = {"referee": ("", "referee"), "referee_client": ("clients/python", "referee_client")}
"""Distribution (as its wheel is named) -> (its folder, its package)."""
METADATA = {"METADATA", "RECORD", "WHEEL", "top_level.txt"}


def _tracked(folder: str, *paths: str) -> list[str]:
    done = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=ROOT / folder,
                          capture_output=True, check=True)
    return [p for p in done.stdout.decode().split("\0") if p]


@pytest.fixture(scope="module", params=sorted(PROJECTS))
def checkout(request, tmp_path_factory) -> tuple[str, Path]:
    """A project as a fresh checkout holds it: its tracked files as the working tree has them
    (no build/, no egg-info left by an earlier install)."""
    folder, package = PROJECTS[request.param]
    copy = tmp_path_factory.mktemp(request.param)
    for name in _tracked(folder, "pyproject.toml", "README.md", package):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / folder / name, copy / name)
    return request.param, copy


def _pip(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    done = subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_the_editable_install_of_a_fresh_checkout_prints_no_setuptools_warning(
        checkout, tmp_path):
    """setuptools' meta-path finder (a flat layout without ``package-dir``) ended every
    install with a BuildBackendWarning ("Editable installation… Please be careful with
    folders…"); the .pth of ``package-dir = {"" = "."}`` says nothing.  (pip's own
    ``WARNING:`` lines about the machine's index are not the package's.)"""
    name, copy = checkout
    target = tmp_path / "venv"
    venv.create(target, with_pip=False)
    done = _pip("--python", str(target / "bin" / "python"), "install", "-q", "--no-deps",
                "-e", str(copy))
    said = [line for line in done.stderr.splitlines() if "Warning" in line or "!!" in line]
    assert said == []


def test_the_wheel_holds_every_tracked_file_of_the_package_and_nothing_else(
        checkout, tmp_path):
    name, copy = checkout
    _pip("wheel", "-q", "--no-deps", "-w", str(tmp_path), str(copy))
    [wheel] = tmp_path.glob(f"{name}-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {n for n in names if ".dist-info/" not in n} == set(
        _tracked(PROJECTS[name][0], PROJECTS[name][1]))
    assert {n.split("/", 1)[1] for n in names if ".dist-info/" in n} == METADATA | (
        {"entry_points.txt"} if name == "referee" else set())
