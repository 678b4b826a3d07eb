// The state the page shows (the server's view of the table, as JSON) and what follows from it:
// whose turn, which seats sit where, what was last said. The one place that holds the state.
export const app = document.getElementById("app");
export const tableId = app.dataset.tableId;
export const GAME = app.dataset.game;
export const tokenKey = "fourcards:token:" + tableId;

export const store = {
  state: null,   // the last state taken
  token: null,   // this browser's seat token (localStorage), or null
  connLost: false,
  errorVersion: null,  // the version the banner's message was shown at
};

// a seat handed to this phone by the host comes as /t/{id}#token=...: keep it, clear the address
const handed = /(?:^#|&)token=([A-Za-z0-9_-]{20,100})/.exec(window.location.hash);
if (handed) {
  localStorage.setItem(tokenKey, handed[1]);
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
}
store.token = localStorage.getItem(tokenKey);

// The first state of each new connection is the server's truth and always taken, even if its
// version is lower; later ones only if not older (versions are the table's, in the database).
export function accept(s, fromNewConnection) {
  const state = store.state;
  if (!state || fromNewConnection) return true;
  if (s.instance !== undefined && s.instance !== state.instance) return true;  // another server process
  return s.version >= state.version;
}

export function myTurn(s) {
  if (!s || !s.you) return false;
  if (s.game === "poker") return (s.actions || []).some(function (a) { return a.kind === "fold" || a.kind === "play"; });
  return !!(s.deal && s.deal.actor === s.you.seat);
}

// The deal or round the table shows: the one in progress, else the last one (its result) until
// the next opens.
export function shown(s) {
  if (s.game === "poker") return (s.round.phase === "wagers" && s.last) ? s.last : s.round;
  return s.deal || s.last;
}

// Every seat at the table, in seat order: the people seated (their chips) with their place in the
// deal shown (cards, bets, result) - and a seat of that deal whose player has left since.
export function seatList(s) {
  const d = shown(s);
  const inDeal = {};
  (d ? d.seats : []).forEach(function (e) { inDeal[e.seat] = e; });
  const out = s.players.map(function (p) { return {seat: p.seat, name: p.name, player: p, entry: inDeal[p.seat] || null}; });
  Object.keys(inDeal).forEach(function (k) {
    const e = inDeal[k];
    if (!out.some(function (x) { return x.seat === e.seat; })) out.push({seat: e.seat, name: e.name, player: null, entry: e});
  });
  return out.sort(function (a, b) { return a.seat - b.seat; });
}
