"""gunicorn settings for referee (``referee serve`` passes --bind, --workers, --threads).

Logs go to stdout; request bodies and match state are never logged (hidden cards stay hidden).
"""
import os

worker_class = "gthread"
timeout = int(os.environ.get("REFEREE_WORKER_TIMEOUT", 30))
graceful_timeout = 10
keepalive = 5
accesslog = "-"
errorlog = "-"
# The path and status only: no query strings or bodies (a seat token never reaches a log).
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(b)s %(L)ss'
# Keep one process when matches live in memory (no REDIS_URL): state must not split.
if not os.environ.get("REDIS_URL"):
    workers = 1
# gunicorn's control socket lives at one path per user ($HOME/.gunicorn/gunicorn.ctl), so two
# servers on one machine would share it; referee does not use it.
control_socket_disable = True
