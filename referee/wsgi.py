"""WSGI entry point for gunicorn: ``referee.wsgi:app`` (the OpenAPI texts built up front)."""
from referee.api.docs import prepare
from referee.app import create_app

app = create_app()
prepare(app)
