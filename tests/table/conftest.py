"""Fixtures of the table page's browser tests: a real server (gunicorn with the shipped
settings, on a free loopback port) and Debian's chromium driven by Playwright for Python.

Playwright never downloads a browser here: it launches ``/usr/bin/chromium`` (``./dev test``
installs Debian's chromium) through ``executable_path``; without it these tests skip.
"""
from __future__ import annotations

import shutil
import socket

import pytest

from tests.gunicorn_server import gunicorn

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LAUNCH_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"]
PHONE = {"width": 360, "height": 640}

needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (`./dev test` "
                                   "installs Debian's chromium)")


def free_port() -> int:
    """A TCP port free on the loopback now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def server():
    """Base URL of one gunicorn (in-process match store, one gevent worker) for the session."""
    with gunicorn(free_port()) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Headless Debian chromium under Playwright (no browser download)."""
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (`./dev test` installs Debian's chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser):
    """A function making a fresh phone-sized browser context (its own storage) with one page,
    in ``lang`` (``en`` or ``my``); every context is closed after the test.  Console errors
    and CSP violations are collected in ``page.problems``."""
    contexts = []

    def make(lang: str = "en"):
        context = browser.new_context(viewport=PHONE, locale="my-MM" if lang == "my" else "en-US")
        contexts.append(context)
        page = context.new_page()
        page.problems = []
        page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
        page.on("pageerror", lambda e: page.problems.append(str(e)))
        return page

    yield make
    for context in contexts:
        context.close()
