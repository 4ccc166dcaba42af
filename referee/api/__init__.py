"""The HTTP layer: one blueprint per area, each view a few lines (parse, call, serialise).

``games`` (stateless: validate, apply, legal actions, score), ``matches`` (the match endpoints,
over :mod:`referee.matches`), ``rules``, ``health``, ``docs``; ``errors`` maps every refusal
and engine error to one problem type; ``limits``, ``ratelimits``, ``query_guard``,
``cross_origin``, ``json_codec`` and ``problem_bounds`` guard what comes in and goes out.

Layer 3.  May import: ``referee.matches`` and every layer below it, and
``referee.contract``'s documents (``/openapi.json``); never ``referee.serving``
(``tests/test_layers.py``).
"""
