// Live servers for the tests: the server's `referee serve` (gunicorn with the shipped
// settings) from this checkout (REFEREE_COMMAND, which ./dev sets; else the repo's .venv), on a
// free loopback port. Stores: "memory" (one worker, matches in the process) and "redis" (two
// workers on REFEREE_TEST_REDIS_URL, the private Redis ./dev test starts).

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";

import { RefereeClient } from "../src/index.js";

export const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const START_WAIT_MS = 60000; // a loaded 2-core machine can take over 20 s to start a worker

/** The server's `referee` command, or null. */
export function serverCommand() {
  const given = process.env.REFEREE_COMMAND;
  if (given) return given;
  const venv = join(REPO, ".venv", "bin", "referee");
  return existsSync(venv) ? venv : null;
}

/** Why the tests of `store` cannot run here (null when they can). */
export function skipReason(store) {
  if (!serverCommand()) return "no server: set REFEREE_COMMAND to its `referee` command (./dev test-clients does)";
  if (store === "redis" && !process.env.REFEREE_TEST_REDIS_URL) {
    return "REFEREE_TEST_REDIS_URL is unset: ./dev test-clients starts a private Redis";
  }
  return null;
}

/** A TCP port free on the loopback now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One gunicorn on 127.0.0.1:port; start() and stop() may be called again (same port). */
export class Server {
  constructor(store, { workers = store === "redis" ? 2 : 1, port } = {}) {
    this.store = store;
    this.workers = workers;
    this.port = port;
    this.proc = null;
  }

  get url() { return `http://127.0.0.1:${this.port}`; }

  async start() {
    this.port ??= await freePort();
    const env = {
      ...process.env, REFEREE_RATE_LIMITS: "off", REFEREE_LOG_LEVEL: "WARNING",
      REFEREE_STREAM_HEARTBEAT_SECONDS: "1",
      REDIS_URL: this.store === "redis" ? process.env.REFEREE_TEST_REDIS_URL : "",
    };
    this.proc = spawn(serverCommand(), [ // referee serve execs gunicorn: the same process
      "serve", "--host", "127.0.0.1", "--port", String(this.port), "--workers", String(this.workers),
    ], { cwd: REPO, env, stdio: ["ignore", "ignore", "pipe"] });
    this.log = ""; // the last of its stderr, shown if it does not start
    this.proc.stderr.on("data", (chunk) => { this.log = (this.log + chunk).slice(-4000); });
    const exited = new Promise((resolve) => this.proc.once("exit", resolve));
    this.exited = exited;
    const deadline = Date.now() + START_WAIT_MS;
    for (;;) {
      try {
        const answer = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(5000) });
        if (answer.status === 200) return this;
      } catch { /* workers still starting */ }
      if (Date.now() > deadline || this.proc.exitCode !== null) {
        await this.stop();
        throw new Error(`the ${this.store} server on ${this.url} did not start:\n${this.log}`);
      }
      await sleep(100);
    }
  }

  /** Stop at once (gunicorn's SIGQUIT: open streams are cut, as in a crash), then wait. */
  async stop() {
    if (!this.proc) return;
    const proc = this.proc;
    this.proc = null;
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGQUIT");
      const killed = setTimeout(() => proc.kill("SIGKILL"), 15000);
      await this.exited;
      clearTimeout(killed);
    }
  }
}

/**
 * A Server of `store` started before the enclosing suite's tests (then `ready` is given a
 * RefereeClient of it) and stopped after them.
 * @param {"memory" | "redis"} store
 * @param {(referee: RefereeClient) => void} ready
 */
export function serveDuringSuite(store, ready) {
  const server = new Server(store);
  before(async () => {
    await server.start();
    ready(new RefereeClient(server.url));
  });
  after(() => server.stop());
  return server;
}
