"""Sessions for the client's retry tests: answers lost after the server applied the request."""
from __future__ import annotations

import requests


class LosesFirstAnswer(requests.Session):
    """A session whose first POST to ``...<suffix>`` reaches the server but whose answer is
    lost (a ``ConnectionError`` after the request was applied)."""

    def __init__(self, suffix="/actions"):
        super().__init__()
        self.suffix = suffix
        self.sent = []  # (idempotency key, If-Match, Idempotent-Replayed of the answer)
        self.answers = []  # each answer's text (the lost one too)

    def request(self, method, url, **kwargs):
        response = super().request(method, url, **kwargs)
        if method == "POST" and url.endswith(self.suffix):
            headers = kwargs["headers"]
            self.sent.append((headers.get("Idempotency-Key"), headers.get("If-Match"),
                              response.headers.get("Idempotent-Replayed")))
            self.answers.append(response.text)
            if len(self.sent) == 1:
                raise requests.ConnectionError("the answer was lost")
        return response
