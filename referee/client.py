"""Deprecated: the Python client is its own distribution now, ``referee_client``
(``pip install ./clients/python``; README "Python client").  This module re-exports it for
one release so ``from referee.client import RefereeClient`` keeps working where
``referee_client`` is installed (``./dev`` installs it into ``.venv``).  The server never
imports this module: it runs without the client installed.
"""
try:
    from referee_client import *  # noqa: F401,F403
    from referee_client import __all__  # noqa: F401
except ImportError as missing:  # the server alone is installed
    raise ImportError("referee.client moved to the referee_client distribution: "
                      "pip install ./clients/python, then import referee_client") from missing
