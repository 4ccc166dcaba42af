// boardgame.io's server for the bench: `node server.cjs PORT` serves the Income game on
// 127.0.0.1:PORT only (Koa + socket.io, in-memory storage, the Lobby API on the same port)
// and prints "listening" once it accepts connections.
const { Server } = require('boardgame.io/server');
const { Income } = require('./income.cjs');

const port = Number(process.argv[2]);
const server = Server({ games: [Income], origins: ['http://127.0.0.1'] });
const listen = server.app.listen.bind(server.app);
server.app.listen = (p, callback) => listen(p, '127.0.0.1', callback); // loopback only
server.run(port, () => console.log('listening'));
