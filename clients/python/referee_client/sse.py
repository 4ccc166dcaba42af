"""Server-Sent Events: the messages of a ``text/event-stream`` (the match stream's format)."""
from __future__ import annotations

import json
from typing import Any, Iterable, Iterator

JSON = dict[str, Any]


def parse_sse(lines: Iterable[str]) -> Iterator[JSON]:
    """The messages of a ``text/event-stream`` given line by line: ``{"event", "id",
    "data"}`` with ``data`` decoded from JSON and ``id`` an ``int`` (``None`` when the message
    has none); comments (heartbeats) and ``retry:`` are skipped.  A message is dispatched at
    its blank line, so a stream cut in the middle of one yields nothing of it."""
    event, event_id, data = "message", None, []
    for line in lines:
        if line == "":
            if data:
                yield {"event": event, "id": event_id, "data": json.loads("\n".join(data))}
            event, event_id, data = "message", None, []
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            event = value
        elif name == "id":
            event_id = int(value)
        elif name == "data":
            data.append(value)
