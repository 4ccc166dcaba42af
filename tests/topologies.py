"""Real Redis topologies for the tests, on loopback ports, keeping nothing on disk but their
own config: one server, a 3-master Redis Cluster (``redis-cli --cluster create``) and a
master with two replicas watched by a Sentinel.  Each has the ``url`` the service takes
(``redis://``, ``redis+cluster://``, ``redis+sentinel://``) and can be stopped, started
again and paused (SIGSTOP) as a whole, for the outage tests.  Needs Debian's redis-server and
redis-cli (``./dev test`` installs them)."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
import redis

START_WAIT_SECONDS = 20
SENTINEL_MASTER = "referee"


def missing_tools() -> str | None:
    """Why these topologies cannot run here (``None`` when they can)."""
    for tool in ("redis-server", "redis-cli"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (./dev test-deploy installs Debian's redis-server)"
    return None


@contextmanager
def private(kind: str, workdir: Path, **options) -> Iterator["Topology"]:
    """A topology of one test alone (``kind`` of :data:`TOPOLOGIES`, ``options`` to its
    constructor), closed after it; the test is skipped, saying why, without the tools."""
    why = missing_tools()
    if why:
        pytest.skip(why)
    made = TOPOLOGIES[kind](workdir, **options)
    try:
        yield made
    finally:
        made.close()


def free_ports(count: int, bus: bool = False) -> list[int]:
    """``count`` loopback ports free now (with ``bus``, port + 10000 free too: a cluster
    node's bus port)."""
    ports: list[int] = []
    while len(ports) < count:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        if port in ports or (bus and (port > 55535 or not _free(port + 10000))):
            continue
        ports.append(port)
    return ports


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def wait_until(check, what: str, seconds: float = START_WAIT_SECONDS) -> None:
    """Call ``check`` until it returns true (errors count as false); RuntimeError after
    ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if check():
                return
        except (redis.RedisError, OSError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.1)


class Server:
    """One redis-server process on ``port`` (``args``: extra redis-server arguments)."""

    def __init__(self, port: int, workdir: Path, args: list[str] = (), sentinel: bool = False):
        self.port, self.workdir, self.args, self.sentinel = port, workdir, list(args), sentinel
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        """Start the process and return once it answers PING."""
        if self.sentinel:
            argv = ["redis-server", str(self.workdir / "sentinel.conf"), "--sentinel"]
        else:
            argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--dir", str(self.workdir), *self.args]
        log = open(self.workdir / "redis.log", "ab")
        self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                     cwd=self.workdir)
        log.close()
        wait_until(lambda: self.client().ping(), f"redis-server on port {self.port}")

    def client(self) -> redis.Redis:
        """A plain client of this one process."""
        return redis.Redis(port=self.port, socket_connect_timeout=0.3, socket_timeout=2,
                           decode_responses=True)

    def stop(self) -> None:
        """SIGKILL the process (as a crash would) and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
            self.proc.wait()

    def pause(self, paused: bool) -> None:
        """SIGSTOP (accepts connections, never answers) or SIGCONT the process."""
        self.proc.send_signal(signal.SIGSTOP if paused else signal.SIGCONT)


class Topology:
    """Data servers (``servers``) plus any watchers (``watchers``), with the service's
    ``url``; ``stop``/``start``/``pause`` act on every data server."""

    url: str
    kind: str

    def __init__(self, servers: list[Server], watchers: list[Server] = ()):
        self.servers, self.watchers = servers, list(watchers)

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    def start(self) -> None:
        for server in self.servers:
            server.start()
        self.ready()

    def ready(self) -> None:
        """Return once the topology serves requests."""

    def pause(self, paused: bool) -> None:
        for server in self.servers:
            server.pause(paused)

    def close(self) -> None:
        for server in self.watchers + self.servers:
            server.stop()


class Single(Topology):
    kind = "single"

    def __init__(self, workdir: Path):
        (port,) = free_ports(1)
        super().__init__([Server(port, workdir / "single")])
        self.url = f"redis://127.0.0.1:{port}/0"
        self.start()


class Cluster(Topology):
    """Three masters, no replicas, every slot assigned (``redis-cli --cluster create``)."""

    kind = "cluster"

    def __init__(self, workdir: Path):
        ports = free_ports(3, bus=True)
        super().__init__([Server(p, workdir / f"cluster-{p}", [
            "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", "2000"]) for p in ports])
        self.url = "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in ports)
        for server in self.servers:
            server.start()
        subprocess.run(["redis-cli", "--cluster", "create",
                        *[f"127.0.0.1:{p}" for p in ports], "--cluster-replicas", "0",
                        "--cluster-yes"], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.STDOUT, timeout=60)
        self.ready()

    def ready(self) -> None:
        for server in self.servers:
            wait_until(lambda s=server: "cluster_state:ok" in s.client().execute_command(
                "CLUSTER", "INFO"), f"cluster node {server.port} to report cluster_state:ok")


class SentinelSet(Topology):
    """A master, two replicas and one Sentinel (quorum 1) that fails over after
    ``down_after_ms`` of silence."""

    kind = "sentinel"

    def __init__(self, workdir: Path, down_after_ms: int = 1000):
        master, *replicas, sentinel_port = free_ports(4)
        servers = [Server(master, workdir / f"sentinel-data-{master}")]
        servers += [Server(p, workdir / f"sentinel-data-{p}",
                           ["--replicaof", "127.0.0.1", str(master)]) for p in replicas]
        watcher = Server(sentinel_port, workdir / f"sentinel-{sentinel_port}", sentinel=True)
        (watcher.workdir / "sentinel.conf").write_text(
            f"port {sentinel_port}\nbind 127.0.0.1\ndir {watcher.workdir}\n"
            f"sentinel monitor {SENTINEL_MASTER} 127.0.0.1 {master} 1\n"
            f"sentinel down-after-milliseconds {SENTINEL_MASTER} {down_after_ms}\n"
            f"sentinel failover-timeout {SENTINEL_MASTER} 4000\n"
            f"sentinel parallel-syncs {SENTINEL_MASTER} 2\n")
        super().__init__(servers, [watcher])
        self.url = f"redis+sentinel://127.0.0.1:{sentinel_port}/{SENTINEL_MASTER}"
        for server in self.servers:
            server.start()
        watcher.start()
        self.ready()

    def master_port(self) -> int:
        """The master's port as the Sentinel tells it now."""
        return int(self.watchers[0].client().execute_command(
            "SENTINEL", "GET-MASTER-ADDR-BY-NAME", SENTINEL_MASTER)[1])

    def ready(self) -> None:
        sentinel = self.watchers[0].client()

        def replicas_synced() -> bool:
            master = next(s for s in self.servers if s.port == self.master_port())
            info = master.client().info("replication")
            online = [v for k, v in info.items() if k.startswith("slave")
                      and v.get("state") == "online"]
            known = sentinel.execute_command("SENTINEL", "REPLICAS", SENTINEL_MASTER)
            return len(online) == len(self.servers) - 1 and len(known) >= len(online)
        wait_until(replicas_synced, "the replicas to sync and the Sentinel to know them")


TOPOLOGIES = {"single": Single, "cluster": Cluster, "sentinel": SentinelSet}


def selected() -> list[str]:
    """The topologies the Redis tests run against: ``REFEREE_TEST_TOPOLOGIES``
    (comma-separated names of :data:`TOPOLOGIES`), default ``single``."""
    names = [t for t in os.environ.get("REFEREE_TEST_TOPOLOGIES", "single").split(",") if t]
    unknown = set(names) - set(TOPOLOGIES)
    if unknown:
        raise ValueError(f"REFEREE_TEST_TOPOLOGIES: unknown {sorted(unknown)}")
    return names
