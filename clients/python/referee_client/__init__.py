"""``referee_client``: the Python client of the referee REST API (``pip install ./clients/python``).

:class:`RefereeClient` wraps every endpoint; :class:`RefereeError` is what an error answer
raises; :func:`parse_sse` reads a ``text/event-stream``.  ``requests`` is its only dependency:
the client never needs the server package installed.
"""
from .client import MAX_WAIT, RECONNECT_DELAYS, RETRIED, STREAM_READ_TIMEOUT, RefereeClient
from .errors import RefereeError
from .sse import parse_sse

__version__ = "0.1.0"
__all__ = ["MAX_WAIT", "RECONNECT_DELAYS", "RETRIED", "STREAM_READ_TIMEOUT", "RefereeClient",
           "RefereeError", "parse_sse"]
