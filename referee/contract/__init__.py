"""The public contract: the OpenAPI document and the JSON Schemas, generated from the code.

- :mod:`referee.contract.openapi` — the OpenAPI 3.1 document of the running app (what
  ``/openapi.json``, ``/openapi.yaml`` and ``/docs`` serve, and what ``openapi.yaml`` holds).
- :mod:`referee.contract.jsonschema` — one JSON Schema (2020-12) per game and purpose
  (setup, snapshot, action, results, scoring requests) cut from that document: ``schemas/``.
- :mod:`referee.contract.files` — writes and checks the committed files; run it with
  ``referee contract`` (or ``python -m referee.contract``), ``--check`` to only compare.
"""
