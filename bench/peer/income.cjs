// The peer's game (bench/peer): 3 to 8 players; `income` adds a coin to the player to move
// and ends the turn.  Each seat holds two secret cards, so every push is a per-seat view
// (`playerView`), as referee's streams send each seat its own view.
const CARDS = ['duke', 'assassin', 'captain', 'ambassador', 'contessa'];

const Income = {
  name: 'income',
  minPlayers: 3,
  maxPlayers: 8,
  setup: ({ ctx }) => {
    const coins = {};
    const hands = {};
    ctx.playOrder.forEach((id, n) => {
      coins[id] = 2;
      hands[id] = [CARDS[n % CARDS.length], CARDS[(n + 2) % CARDS.length]];
    });
    return { coins, hands };
  },
  moves: {
    income: {
      // client: false: the server alone applies it, so a client's state changes only when
      // the server's push arrives (what the load generator times)
      move: ({ G, ctx, events }) => {
        G.coins[ctx.currentPlayer] += 1;
        events.endTurn();
      },
      client: false,
    },
  },
  playerView: ({ G, playerID }) => ({
    coins: G.coins,
    hand: playerID != null && G.hands[playerID] ? G.hands[playerID] : [],
    hands: Object.fromEntries(Object.entries(G.hands).map(([id, h]) => [id, h.length])),
  }),
};

module.exports = { Income };
