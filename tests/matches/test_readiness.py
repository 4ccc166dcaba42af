"""redis-py's pooled-connection check under gevent (referee.store.readiness).

Each run is a fresh interpreter that monkey-patches like the gevent worker does, so the
patch does not leak into the test process.  What must hold there:
- a zero-timeout poll is the operating system's (no trip through gevent's hub: a greenlet
  that is ready to run does *not* run during it), and it answers readiness right;
- a poll that waits is gevent's (other greenlets run meanwhile: a pub/sub listener waiting
  for a message must not block the worker);
- without gevent's patch, nothing is changed.
"""
from __future__ import annotations

import json
import subprocess
import sys

PROBE = r"""
import json, sys
from gevent import monkey
if sys.argv[1] == "patched":
    monkey.patch_all()
import gevent, select, socket
from referee.store.readiness import use_os_poll
from redis._parsers import hiredis

changed = use_os_poll()
ran = []
a, b = socket.socketpair()
gevent.spawn(ran.append, "greenlet")
poller = hiredis.select.poll()
poller.register(a, select.POLLIN)
empty = poller.poll(0)              # nothing to read yet
ran_during_zero = bool(ran)
b.send(b"+OK\r\n")
ready = bool(poller.poll(0))        # now readable
ran_before_wait = bool(ran)
b2, c2 = socket.socketpair()
waiter = hiredis.select.poll()
waiter.register(b2, select.POLLIN)
gevent.spawn(ran.append, "second")
waited = waiter.poll(20)            # a wait: nothing arrives within 20 ms
print(json.dumps({"changed": changed, "again": use_os_poll(), "empty": empty,
                  "ready": ready, "ran_during_zero": ran_during_zero,
                  "ran_before_wait": ran_before_wait, "ran": ran, "waited": waited,
                  "can_read": hiredis._socket_can_read(a, 0)}))
"""


def probe(mode: str) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE, mode], capture_output=True, text=True,
                         timeout=60, check=True)
    return json.loads(out.stdout)


def test_zero_timeout_poll_is_the_os_poll_and_waits_stay_green():
    seen = probe("patched")
    assert seen["changed"] is True and seen["again"] is True
    assert seen["empty"] == [] and seen["ready"] is True and seen["can_read"] is True
    # the OS's poll(0) does not switch to the hub: the spawned greenlet has not run yet
    # (gevent's own poll(0) lets it run; so this fails without the shim)
    assert seen["ran_during_zero"] is False and seen["ran_before_wait"] is False
    # a poll that waits is gevent's: both greenlets ran while it waited, and it timed out
    assert seen["ran"] == ["greenlet", "second"] and seen["waited"] == []


def test_without_gevent_nothing_changes():
    seen = probe("plain")
    assert seen["changed"] is False
    assert seen["empty"] == [] and seen["ready"] is True
