"""The serving process: how referee runs.

:mod:`.app` the Flask application factory (:func:`~referee.serving.app.create_app`),
:mod:`.config` its settings from the environment, :mod:`.wsgi` the WSGI entry point
(``referee.serving.wsgi:app``), :mod:`.gunicorn_conf` gunicorn's settings
(``--config python:referee.serving.gunicorn_conf``), :mod:`.worker` the gevent worker class
(``referee.serving.worker.RefereeGeventWorker``), :mod:`.cli` the ``referee`` command.

Layer 4, the top.  May import: every package (``referee.api`` and below,
``referee.contract``).  Within referee only ``referee contract`` (:mod:`referee.contract.files`,
which builds the app to describe it) imports it (``tests/test_layers.py``).
"""
