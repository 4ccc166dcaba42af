"""Access lines in batches (gunicorn workers, ``referee.ops.logs.batch_access_lines``): each line
is made when its request ends and written later with the others of its interval, in order; any
other line of the process first writes the waiting ones, so the process's lines keep their
order; a large batch is written at once.  (The batching timer is gevent's hub's: here a fake
scheduler stands for it.)"""
from __future__ import annotations

import json
import select
import logging

import pytest

from referee.ops import logs


@pytest.fixture
def batched(monkeypatch):
    """Batched mode with a scheduler that only counts how often a flush was scheduled."""
    scheduled = []
    monkeypatch.setattr(logs, "_schedule", lambda: scheduled.append(1))
    monkeypatch.setattr(logs, "_configured", ("INFO", "json"))
    yield scheduled
    logs.flush_access_lines()


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_lines_wait_for_the_flush_then_come_in_order(batched, capfd):
    capfd.readouterr()
    for n in range(3):
        logs.write("referee.access", "request", request_id=f"r{n}", status=200)
    assert capfd.readouterr().out == ""  # nothing written yet
    assert batched == [1]  # one flush scheduled for the batch, not one per line
    logs.flush_access_lines()
    written = lines(capfd.readouterr().out)
    assert [(line["request_id"], line["event"], line["logger"], line["level"])
            for line in written] == [(f"r{n}", "request", "referee.access", "info")
                                     for n in range(3)]
    assert all(line["timestamp"].endswith("Z") for line in written)


def test_another_line_writes_the_waiting_access_lines_first(batched, capfd):
    handler = logs.OrderedStreamHandler(logs.sys.__stdout__)
    handler.setFormatter(logs.formatter("json"))
    logger = logging.getLogger("referee.test.batches")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        capfd.readouterr()
        logs.write("referee.access", "request", request_id="first")
        logger.warning("second")
        logs._Stdout().msg('{"event": "third"}')
    finally:
        logger.removeHandler(handler)
    assert [line.get("request_id") or line["event"]
            for line in lines(capfd.readouterr().out)] == ["first", "second", "third"]


def test_a_large_batch_is_written_at_once(batched, capfd):
    capfd.readouterr()
    big = "x" * 1000
    count = logs.ACCESS_FLUSH_BYTES // 1000 + 1
    for n in range(count):
        logs.write("referee.access", "request", request_id=str(n), path=big)
    out = lines(capfd.readouterr().out)
    assert 0 < len(out) <= count and [line["request_id"] for line in out] == \
        [str(n) for n in range(len(out))]


def test_without_batching_each_line_is_written_at_once(monkeypatch, capfd):
    monkeypatch.setattr(logs, "_configured", ("INFO", "json"))
    assert logs._schedule is None  # in process (tests, the development server)
    capfd.readouterr()
    logs.write("referee.access", "request", request_id="now")
    assert lines(capfd.readouterr().out)[0]["request_id"] == "now"


def test_batching_is_only_for_gevent_workers():
    assert logs.batch_access_lines() is False  # no gevent patching in the test process
    assert logs._schedule is None


class _Recorder:
    """A stand-in for ``sys.__stdout__`` that records each write reaching its byte buffer."""

    def __init__(self):
        self.writes: list[bytes] = []
        self.buffer = self

    def write(self, data):
        self.writes.append(bytes(data))
        return len(data)

    def flush(self):
        pass


def test_no_batch_write_passes_pipe_buf_so_workers_lines_never_splice(batched, monkeypatch):
    """Every worker writes to one stdout, often a pipe: a write of at most PIPE_BUF bytes is
    atomic there, a longer one may be interleaved with another process's.  300 lines of ~330
    bytes (about 24 PIPE_BUFs) go out in writes of whole lines, none past PIPE_BUF, in order."""
    out = _Recorder()
    monkeypatch.setattr(logs.sys, "__stdout__", out)
    for n in range(300):
        logs.write("referee.access", "request", request_id=f"r{n:03}", path="/" + "p" * 200)
    logs.flush_access_lines()
    assert out.writes and max(map(len, out.writes)) <= select.PIPE_BUF == 4096
    assert all(chunk.endswith(b"\n") for chunk in out.writes)
    assert [json.loads(line)["request_id"] for line in b"".join(out.writes).splitlines()] == \
        [f"r{n:03}" for n in range(300)]
    assert len(out.writes) >= 300 * 330 // 4096  # batched: far fewer writes than lines
