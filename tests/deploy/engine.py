"""The container engine for the deploy tests: whether ``docker`` answers (``./dev test-deploy``
starts Debian's dockerd first), the registry-free base image (``deploy/base-image.sh``) and a
wheelhouse of every Python dependency built by the host's pip, so ``docker build`` needs no
network."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BASE_TAG = "referee-base:bookworm"
CACHE = Path(os.environ.get("REFEREE_CACHE") or Path.home() / ".cache" / "referee")


def why_no_engine() -> str | None:
    """Why no container engine can be used here (``None`` when ``docker info`` answers)."""
    if shutil.which("docker") is None:
        return "no docker command (./dev test-deploy installs Debian's docker.io)"
    done = subprocess.run(["docker", "info"], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        return ("the Docker engine does not answer (./dev test-deploy starts dockerd as root): "
                + (done.stderr.strip().splitlines() or ["?"])[-1])
    return None


def docker(*args: str, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``docker args…``; its output (text) is in the result; failures raise with it."""
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"docker {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done


def base_image() -> str:
    """The debootstrap base image's tag, made (or imported from its cached tarball) if the
    engine lacks it."""
    subprocess.run([str(REPO / "deploy" / "base-image.sh"), BASE_TAG], check=True,
                   timeout=900, env={**os.environ, "REFEREE_CACHE": str(CACHE)})
    return BASE_TAG


def wheelhouse() -> Path:
    """Wheels of the project's pinned dependencies and of its build backend, made once per
    version of ``pyproject.toml`` by the host's pip (kept under :data:`CACHE`)."""
    digest = hashlib.sha256((REPO / "pyproject.toml").read_bytes()).hexdigest()[:16]
    target = CACHE / f"wheelhouse-{digest}"
    if not (target / ".complete").exists():
        target.mkdir(parents=True, exist_ok=True)
        pip = [sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check",
               "-w", str(target)]
        # async-timeout: redis needs it on Pythons before 3.11.3, such as Debian bookworm's
        # 3.11.2 (the host's pip resolves the markers for its own Python).
        for wanted in (["setuptools>=68", "wheel", "async-timeout>=4.0.3"], [str(REPO)]):
            done = subprocess.run(pip + wanted, capture_output=True, text=True, timeout=900)
            assert done.returncode == 0, f"pip wheel {wanted} failed:\n{done.stderr[-3000:]}"
        for built in target.glob("referee-*.whl"):  # the project is built inside the image
            built.unlink()
        (target / ".complete").touch()
    return target


def build_context(where: Path) -> Path:
    """A build context of exactly what ``deploy/Dockerfile`` copies, the wheelhouse in
    ``deploy/wheelhouse/``."""
    for name in ("pyproject.toml", "README.md", ".dockerignore"):
        shutil.copy2(REPO / name, where / name)
    shutil.copytree(REPO / "referee", where / "referee",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (where / "deploy").mkdir()
    shutil.copy2(REPO / "deploy" / "Dockerfile", where / "deploy" / "Dockerfile")
    shutil.copytree(wheelhouse(), where / "deploy" / "wheelhouse")
    return where
