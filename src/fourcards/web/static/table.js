// fourcards table page (an ES module; its parts by concern live in table/):
//   table/store.js       the state shown and what follows from it (whose turn, the seats in order)
//   table/connection.js  the websocket (live state, reconnects) and requests over REST
//   table/layout.js      the seats around the oval, bets in front, the pot; the oval's size
//   table/poker.js       Four Card Poker: dealer, seats, bets and decision, trainer
//   table/kind.js        Four of a Kind: seats with odds, pot and side pots, split, actions
//   table/realcards.js   real cards: the referee's view, the host's card picker, moves entered
//   table/actions.js     your actions box (docked on a phone), quick bets, what buttons send
//   table/host.js        the host's controls, requests, settings
//   table/people.js      taking a seat, the players' list, your seat and top-ups
//   table/chat.js        the chat
//   table/cues.js        the clock, announcements, title, turn sound and buzz, wake lock
//   table/util.js        helpers: elements, card and chip texts, patching in place
// This file wires them: each new state is rendered here, region by region.
import {$, C, patch, markTyped} from "./table/util.js";
import {app, store, accept, GAME} from "./table/store.js";
import {on, connect, showError} from "./table/connection.js";
import {fit, fitCentre} from "./table/layout.js";
import {renderPoker, pokerTurnKey, pokerTurnText, pokerResultKey, pokerResultText} from "./table/poker.js";
import {renderKind, kindTurnKey, kindTurnText, kindResultKey, kindResultText} from "./table/kind.js";
import {forgetRefusal, wireRealCards} from "./table/realcards.js";
import {wireActions} from "./table/actions.js";
import {renderHost, wireHost} from "./table/host.js";
import {renderPeople, wirePeople, forgetSeat} from "./table/people.js";
import {renderChat, wireChat} from "./table/chat.js";
import {speak, cueTurn, updateTitle, keepAwake, turnOptions} from "./table/cues.js";

const game = $("game");
const TEXTS = GAME === "poker"
  ? {turnKey: pokerTurnKey, turnText: pokerTurnText, resultKey: pokerResultKey, resultText: pokerResultText}
  : {turnKey: kindTurnKey, turnText: kindTurnText, resultKey: kindResultKey, resultText: kindResultText};

// the rules in words (the server's label: "Casino rules: play 1x-3x"), with the pay tables
function rulesText(s) {
  const t = s.table, r = t.rules;
  if (GAME === "poker") return t.rules_label + " \u00b7 ante bonus " + r.ante_bonus + " \u00b7 Aces Up " + r.aces_up;
  return t.rules_label + " \u00b7 raise cap " + r.max_raises + (s.dealing === "table" ? " \u00b7 real cards, entered by the host" : "");
}

function render(s, fromNewConnection, again) {
  if (!again && !accept(s, fromNewConnection)) return;  // an older view than the one shown
  const prev = store.state;
  store.state = s;
  if (store.errorVersion !== null && prev && s.version !== store.errorVersion && !store.connLost) showError(null);
  const focused = document.activeElement;
  const hadFocus = focused && focused !== document.body && game.contains(focused);
  const closed = s.table.status === "closed";
  $("closed").hidden = !closed;
  $("paused").hidden = closed || !s.paused;
  renderPeople(s, prev, closed);
  renderHost(s, closed);
  $("table-rules").textContent = s.table.game_title + " \u00b7 " + rulesText(s);
  if (s.table.invite_url) $("share-link").value = s.table.invite_url;
  patch($("log"), s.log.map(function (l) { return "<li>" + C.esc(l) + "</li>"; }).join(""));
  renderChat(s, closed);
  if (!again) forgetRefusal(prev, s);
  const picker = !!$("rank-picker");
  patch(game, GAME === "poker" ? renderPoker(s) : renderKind(s));
  // the host's card picker comes into view when a card falls due (right after Deal, after the betting)
  if (prev && !picker && $("rank-picker")) $("card-entry").scrollIntoView({block: "nearest"});
  if (hadFocus && !document.contains(focused)) {
    // the control that had focus is gone (the action was made): keep the keyboard here
    const next = game.querySelector("#my-actions button:not([hidden]), #my-actions input") || $("my-actions") || $("round-status");
    if (next) next.focus({preventScroll: true});
  }
  speak(prev, s, TEXTS);
  cueTurn(prev, s);
  updateTitle();
  resize();
  if (prev) showMyResult(prev, s);
  keepAwake(s);
}
function redraw() { if (store.state) render(store.state, false, true); }

// the oval takes the height the screen leaves; when its size changed, the seats move to fit it (and
// then the middle's text fits in the room they leave)
let size = "";
function resize() {
  fit();
  const oval = $("oval");
  if (!oval || !oval.offsetHeight) return;
  const now = oval.offsetWidth + "x" + oval.offsetHeight + ":" + oval.className;
  if (now === size) { fitCentre(); return; }
  size = now;
  // the seats jump to their new places (they glide only when the table itself changes)
  game.classList.add("settling");
  redraw();
  window.requestAnimationFrame(function () { window.requestAnimationFrame(function () { game.classList.remove("settling"); }); });
}
window.addEventListener("resize", resize);

// Four Card Poker on a phone: when your result comes in, it shows above the docked bets
function showMyResult(prev, s) {
  if (s.game !== "poker" || !s.you || TEXTS.resultKey(s) === TEXTS.resultKey(prev)) return;
  const r = document.querySelector("#seat-" + s.you.seat + " .result");
  const dockBox = $("my-actions");
  if (!r || !dockBox || getComputedStyle(dockBox).position !== "fixed") return;
  const top = dockBox.getBoundingClientRect().top, box = r.getBoundingClientRect();
  if (box.bottom > top - 4 || box.top < 0) r.scrollIntoView({block: box.height < top ? "end" : "start"});
}

// ------------------------------------------------------------------ fixed controls
const phone = window.matchMedia("(max-width: 560px)").matches;
if (phone) $("invite").open = false;  // on a phone the table comes first; the invite is a tap away
if (!$("share-link").value) $("share-link").value = window.location.origin + "/t/" + app.dataset.tableId;
$("copy-link").addEventListener("click", function () {
  $("share-link").select();
  if (navigator.clipboard) navigator.clipboard.writeText($("share-link").value);
});
// a phone cuts the table's name and rules line to one line each: a tap on either shows both whole (again: cut)
["table-name", "table-rules"].forEach(function (id) {
  $(id).addEventListener("click", function () { $(id).closest(".panel.head").classList.toggle("whole"); resize(); });
});
C.applyDeck($("four-colour"));
// the chances of high and low in each seat, on request (a remembered choice)
const ODDS = "fourcards:odds";
const oddsBox = $("show-odds");
if (oddsBox) {
  oddsBox.checked = localStorage.getItem(ODDS) !== "0";
  document.body.classList.toggle("no-odds", !oddsBox.checked);
  oddsBox.addEventListener("change", function () {
    localStorage.setItem(ODDS, oddsBox.checked ? "1" : "0");
    document.body.classList.toggle("no-odds", !oddsBox.checked);
  });
}
game.addEventListener("change", function (ev) {
  if (ev.target.id === "trainer-toggle") {
    localStorage.setItem("fourcards:trainer", ev.target.checked ? "1" : "0");
    redraw();
  }
});
markTyped(app);
turnOptions();
wireActions(game);
wireRealCards(game, redraw);
wireHost(redraw);
wirePeople(redraw);
wireChat();
on("state", render);
on("forget", forgetSeat);
on("changed", function () { updateTitle(); });
connect();
