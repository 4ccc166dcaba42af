"""Benchmarks of referee (speed is measured here, never in the test suite).

``.venv/bin/python -m bench`` runs everything in one go and writes ``bench/RESULTS.md``; see
``bench/__main__.py`` for the options.  ``bench/engines.py`` alone measures the engines.
"""
