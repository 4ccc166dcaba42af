"""The product's ceiling: referee's own app plus a no-op route (``bench.echo:app``).

``POST /bench/echo`` answers with the body as the request guards parsed it: every
``before_request`` hook, error handler and the JSON provider of the product apply, no engine
and no schema.
"""
from flask import g, request

from referee.serving.app import create_app

app = create_app()


@app.post("/bench/echo")
def echo():
    """Answer with the JSON body sent (as ``limits.guard_request`` parsed it)."""
    return app.json.response(g.json_body if "json_body" in g else request.get_json())
