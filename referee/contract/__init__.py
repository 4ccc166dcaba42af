"""The public contract: the OpenAPI document, the JSON Schemas and the message catalog
template, generated from the code.

- :mod:`referee.contract.openapi` — the OpenAPI 3.1 document of the running app (what
  ``/openapi.json``, ``/openapi.yaml`` and ``/docs`` serve, and what ``openapi.yaml`` holds).
- :mod:`referee.contract.jsonschema` — one JSON Schema (2020-12) per game and purpose
  (setup, snapshot, action, results, scoring requests) cut from that document: ``schemas/``.
- :mod:`referee.contract.messages` — every text an answer can carry, as gettext msgids:
  ``referee/i18n/locales/messages.pot``.
- :mod:`referee.contract.files` — writes and checks the committed files; run it with
  ``referee contract`` (or ``python -m referee.contract``), ``--check`` to only compare.

Layer 3, beside the API it describes.  May import: ``referee.api``, ``referee.matches`` and
every layer below; :mod:`referee.contract.files` (with ``__main__``, the command) is layer 4
and builds the whole app (``referee.serving.app``) (``tests/test_layers.py``).
"""
