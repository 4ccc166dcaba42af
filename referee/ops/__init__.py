"""Operations: Prometheus metrics (:mod:`.metrics`), JSON logs (:mod:`.logs`), the per-request
hooks that feed both (:mod:`.hooks`) and the match store's instrumentation (:mod:`.store`).

Layer 1 (the HTTP layer and the serving process use it).  May import: ``referee.games``,
and its own layer: ``referee.store``, ``referee.i18n``, ``referee.rulebook``, ``referee.schemas``,
``referee.registry``, ``referee.ops``, ``referee.refusals``, ``referee.json_digits``; never
``referee.matches``, ``referee.api`` or ``referee.serving`` (``tests/test_layers.py``).
"""
