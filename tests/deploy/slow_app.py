"""The referee app behind one extra path for the shutdown test: ``/slow?seconds=S`` sleeps S
seconds, then answers as ``/livez`` (a request still in flight when SIGTERM arrives)."""
import time

from referee.serving.wsgi import app as referee_app


def app(environ, start_response):
    """WSGI: ``/slow`` waits, everything else is the referee app."""
    if environ.get("PATH_INFO") == "/slow":
        seconds = float(environ.get("QUERY_STRING", "seconds=2").partition("=")[2] or 2)
        time.sleep(min(seconds, 10))
        environ = {**environ, "PATH_INFO": "/livez", "QUERY_STRING": ""}
    return referee_app(environ, start_response)
