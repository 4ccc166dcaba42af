// boardgame.io's load for the bench, driven by its own clients (boardgame.io/client over
// socket.io): `node load.cjs '{"port", "players", "tables", "warmup", "seconds"}'`.
//
// Creates `tables` matches of `players` seats through the Lobby API, connects one client per
// seat, then each table makes one move at a time: the player to move calls `income`, and the
// move counts as done once every seat's client has the server's push of the new state.
// After `warmup` seconds of moves it prints "ready" and waits for "go" on stdin, then moves
// for `seconds` and prints one JSON line: {"moves", "seconds", "latencies_ms"}.  Everything
// goes to 127.0.0.1 and stops by itself.
const readline = require('node:readline');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Income } = require('./income.cjs');

const config = JSON.parse(process.argv[2]);
const base = `http://127.0.0.1:${config.port}`;

async function post(path, body) {
  const answer = await fetch(base + path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${path}: ${answer.status}`);
  return answer.json();
}

async function table() {
  const { matchID } = await post('/games/income/create', { numPlayers: config.players });
  const seats = [];
  for (let n = 0; n < config.players; n++) {
    const playerID = String(n);
    const { playerCredentials } = await post(`/games/income/${matchID}/join`,
      { playerID, playerName: `p${n}` });
    const client = Client({
      game: Income, numPlayers: config.players, matchID, playerID,
      credentials: playerCredentials, debug: false,
      multiplayer: SocketIO({ server: base }),
    });
    seats.push(client);
  }
  const t = { seats, pending: null };
  const check = () => {
    const p = t.pending;
    if (p && seats.every((c) => { const s = c.getState(); return s && s._stateID >= p.target; })) {
      t.pending = null;
      p.resolve();
    }
  };
  seats.forEach((c) => { c.subscribe(check); c.start(); });
  await until(() => seats.every((c) => c.getState() && c.getState().isConnected !== false
    && c.getState()._stateID !== undefined && c.getState().ctx.currentPlayer !== undefined));
  return t;
}

function until(test) {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 30000;
    const poll = () => {
      if (test()) return resolve();
      if (Date.now() > deadline) return reject(new Error('clients did not sync'));
      setTimeout(poll, 5);
    };
    poll();
  });
}

function move(t) {
  const state = t.seats[0].getState();
  const mover = t.seats[Number(state.ctx.currentPlayer)];
  return new Promise((resolve) => {
    t.pending = { target: mover.getState()._stateID + 1, resolve };
    mover.moves.income();
  });
}

async function play(tables, seconds, latencies) {
  const stop = performance.now() + seconds * 1000;
  let moves = 0;
  await Promise.all(tables.map(async (t) => {
    while (performance.now() < stop) {
      const began = performance.now();
      await move(t);
      moves += 1;
      if (latencies) latencies.push(performance.now() - began);
    }
  }));
  return moves;
}

async function main() {
  const tables = [];
  for (let n = 0; n < config.tables; n++) tables.push(await table());
  await play(tables, config.warmup, null);
  console.log('ready');
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) if (line.trim() === 'go') break;
  const latencies = [];
  const began = performance.now();
  const moves = await play(tables, config.seconds, latencies);
  const seconds = (performance.now() - began) / 1000;
  tables.forEach((t) => t.seats.forEach((c) => c.stop()));
  // exit once the line is written: stdout to a pipe is asynchronous in Node, and an exit
  // right after a write of more than the pipe's 64 KiB cut the answer (many moves' latencies)
  process.stdout.write(`${JSON.stringify({ moves, seconds, latencies_ms: latencies })}\n`,
    () => process.exit(0));
}

main().catch((error) => { console.error(error); process.exit(1); });
