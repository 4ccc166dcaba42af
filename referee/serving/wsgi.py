"""WSGI entry point for gunicorn: ``referee.serving.wsgi:app`` (the OpenAPI texts built up
front)."""
from referee.api.docs import prepare
from referee.serving.app import create_app

app = create_app()
prepare(app)
