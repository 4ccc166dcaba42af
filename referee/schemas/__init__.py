"""marshmallow schemas: the HTTP contract of every request and response body.

``common`` holds the shared envelopes and fields; ``<game>.py`` each game's setup, state and
action schemas (exposed to the API through ``referee.registry``).
"""
