"""The bare-Flask ceiling: a plain Flask app that echoes a JSON body (``bench.bare:app``).

Nothing of referee is in it: no middleware, Flask's default JSON provider.  It runs under the
same gunicorn settings as the product, so the difference is the product's own cost.
"""
from flask import Flask, request

app = Flask(__name__)


@app.post("/echo")
def echo():
    """Answer with the JSON body sent."""
    return request.get_json()
