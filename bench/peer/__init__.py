"""The peer in the bench (issue 25): a table's move on referee beside the same move on the
server a developer would pick instead, boardgame.io 0.50 (``python -m bench.peer``, and part of
``python -m bench``).

- :mod:`bench.peer.node`: boardgame.io's server and load generator, in Node (``server.cjs``,
  ``load.cjs``, the game ``income.cjs``; packages pinned by ``package.json`` and
  ``package-lock.json``, npm-installed here by the bench only);
- :mod:`bench.peer.tables`: referee's tables, phones following each match's stream;
- :mod:`bench.peer.measure`: the runs, alternating between the two servers;
- :mod:`bench.peer.report`: the section of ``bench/RESULTS.md`` they fill.
"""
