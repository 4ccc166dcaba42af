"""One store read per change per process, however many streams wait on the match (issue 25),
and never a read older than the notice that woke its reader (:class:`referee.store.feed.
SharedReads`).

The count runs as production does: under gevent (the shipped gunicorn worker's), in a process
of its own (:mod:`tests.matches.gevent_reads`), with 1, 4 and 8 streams open on one match, on
the in-process store and on a Redis of this test alone (whose own ``LRANGE`` count, the read
script's command, must agree).  Before the notice carried its tick, each stream cleared its
watch after the first reader's read had begun and so read again: 4 streams made 24 reads for
6 moves, 8 streams 48."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from referee.store.feed import Feed
from tests import topologies

REPO = Path(__file__).resolve().parents[2]
MOVES = 6


@pytest.fixture
def private_redis(tmp_path):
    """A Redis server of this test alone (so its command counts are this test's)."""
    with topologies.private("single", tmp_path) as server:
        yield server


def _count(streams: int, *args: str) -> dict:
    env = {**os.environ, "REFEREE_LOG_LEVEL": "WARNING"}
    done = subprocess.run([sys.executable, "-m", "tests.matches.gevent_reads", "--streams",
                           str(streams), "--moves", str(MOVES), *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("streams", [1, 4, 8])
def test_one_read_per_change_in_process(streams):
    counted = _count(streams)
    assert counted["views"] == [MOVES] * streams  # every stream read every move's view
    assert counted["reads"] == MOVES


@pytest.mark.parametrize("streams", [1, 4, 8])
def test_one_read_per_change_on_redis(private_redis, streams):
    counted = _count(streams, "--redis-url", private_redis.url)
    assert counted["views"] == [MOVES] * streams
    assert counted["reads"] == MOVES
    assert counted["lrange"] == MOVES  # Redis itself served one read script per move


class _Gate:
    """A store read that blocks until released, counting its calls."""

    def __init__(self, value: str):
        self.value = value
        self.calls = 0
        self.entered = threading.Event()
        self.release = threading.Event()

    def __call__(self, match_id, after):
        self.calls += 1
        self.entered.set()
        assert self.release.wait(5)
        return self.value


def test_a_reader_woken_by_a_notice_never_joins_a_read_begun_before_it():
    """A read in flight when the change lands may hold the old record: a reader the change's
    notice woke reads again rather than share it."""
    feed = Feed()
    with feed.watch("m") as first, feed.watch("m") as second:
        old = _Gate("before")
        got = []
        reader = threading.Thread(target=lambda: got.append(
            feed.reads.read(old, ("m", 0), first.clear())))
        reader.start()
        assert old.entered.wait(5)  # the first read has begun; now the match changes
        feed.notify("m")
        assert second.wait(0)
        new = _Gate("after")
        new.release.set()
        assert feed.reads.read(new, ("m", 0), second.clear()) == "after"
        assert new.calls == 1
        old.release.set()
        reader.join(5)
        assert got == ["before"]
        # The finished read began before the notice too: not handed to a woken reader.
        again = _Gate("again")
        again.release.set()
        assert first.wait(0)
        assert feed.reads.read(again, ("m", 0), first.clear()) == "after"  # the new read's
        assert again.calls == 0


def test_readers_woken_by_one_notice_share_the_read_that_began_after_it():
    feed = Feed()
    with feed.watch("m") as a, feed.watch("m") as b, feed.watch("m") as c:
        feed.notify("m")
        read = _Gate("record")
        read.release.set()
        results = [feed.reads.read(read, ("m", 0), w.clear()) for w in (a, b, c)]
        assert results == ["record"] * 3 and read.calls == 1
        assert feed.reads.read(read, ("m", 5), a.clear()) == "record" and read.calls == 2
        feed.notify("m")  # a second change: read once more
        assert feed.reads.read(read, ("m", 5), b.clear()) == "record" and read.calls == 3
    assert feed.reads._done == {}  # the last reader gone, its match's read is dropped
