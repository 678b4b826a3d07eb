// Your actions: the box under the table (docked at the bottom of a phone while you have something
// to do), bets and raises with quick amounts, and what each button sends.
import {$, esc, chips} from "./util.js";
import {store, GAME} from "./store.js";
import {act, api} from "./connection.js";
import {cueing} from "./cues.js";
import {hostBar} from "./host.js";

// While the host has paused the table the actions wait, greyed out, and the box says why. `summary`:
// the docked box's first line (your cards, the pot, the amount to call: seen wherever the page is
// scrolled). The host's Deal and the requests waiting come last (hostBar: added after the moves, so that a
// move being typed keeps its field and its focus when Deal appears).
export function actionsBox(s, acts, summary) {
  let html = acts.html, live = acts.live;
  if (s.paused && live) {
    html = '<p class="paused-note" id="paused-note">Paused by the host: your move waits until the host resumes.</p>' +
      html.replace(/<button /g, "<button disabled ");
    live = false;
  }
  return '<div class="box my-actions' + (live ? " live" : "") + (live && cueing() ? " cue" : "") + '" id="my-actions" tabindex="-1" aria-label="Your actions">' +
    (live ? summary || "" : "") + html + hostBar(s) + "</div>";
}

// A bet or raise: its amount (chips above the current bet) with -/+ steppers and quick amounts -
// the minimum, half the pot, the pot (as it will be after the call), the maximum - each brought
// within the spread limit and the player's chips (the legal range the view gives).
function quickAmounts(d, a, toCall) {
  const onTable = d.pot + d.seats.reduce(function (t, e) { return t + (e.stake || 0); }, 0) + toCall;
  const clamp = function (x) { return Math.max(a.min_amount, Math.min(a.max_amount, x)); };
  return [["min", "Min", a.min_amount], ["half", "\u00bd pot", clamp(Math.floor(onTable / 2))],
    ["pot", "Pot", clamp(onTable)], ["max", "Max", a.max_amount]];
}
function betStep(lo, hi) {  // one chip in a narrow spread, the minimum bet in a wide one
  const r = (store.state && store.state.table.rules) || {};
  return hi - lo > 20 ? Math.max(1, r.min_bet || 1) : 1;
}
export function betForm(p, a, d, toCall, who) {
  const k = a.kind, word = k === "bet" ? "Bet" : "Raise", id = p + "amt-" + k;
  const range = chips(a.min_amount) + (a.max_amount > a.min_amount ? "\u2013" + chips(a.max_amount) : "");
  let h = '<form class="wager bet-form" data-' + (p ? "for-kind" : "kind") + '="' + k + '" id="' + p + "form-" + k + '">' +
    '<label for="' + id + '" class="sr-only">' + word + " amount" + (who ? " for " + esc(who) : "") + ", chips " + range + "</label>" +
    '<span class="stepper"><button type="button" class="step" data-step="-1" data-target="' + id + '" aria-label="' + word + ' one step less">\u2212</button>' +
    '<input type="number" inputmode="numeric" id="' + id + '" min="' + a.min_amount + '" max="' + a.max_amount + '" step="1" value="' + a.min_amount + '">' +
    '<button type="button" class="step" data-step="1" data-target="' + id + '" aria-label="' + word + ' one step more">+</button></span>';
  h += '<button type="submit" class="primary" id="' + (p ? "for-" + k : "act-" + k) + '">' + word + " " + range + "</button>";
  if (a.max_amount > a.min_amount) {
    h += '<span class="quick" role="group" aria-label="Quick ' + word.toLowerCase() + ' amounts">' + quickAmounts(d, a, toCall).map(function (q) {
      return '<button type="button" data-quick="' + q[2] + '" data-target="' + id + '" id="' + p + "quick-" + k + "-" + q[0] + '">' + q[1] + " " + chips(q[2]) + "</button>";
    }).join("") + "</span>";
  }
  return h + "</form>";
}

export function trainerOn() { return localStorage.getItem("fourcards:trainer") === "1"; }

// one listener each for the game area's forms and buttons
export function wireActions(game) {
  game.addEventListener("submit", function (ev) {
    ev.preventDefault();
    const f = ev.target;
    const amount = function (id) { return Number($(id).value || 0); };
    if (f.id === "wager-form") act({kind: "wager", ante: amount("ante"), aces_up: amount("aces-up")});
    else if (f.id === "play-form") act({kind: "play", amount: amount("play-amount"), trainer: trainerOn()});
    else if (f.dataset.kind) act({kind: f.dataset.kind, amount: amount("amt-" + f.dataset.kind)});
  });
  game.addEventListener("click", function (ev) {  // a move chosen ahead of your turn, or cleared
    const b = ev.target.closest("button[data-pre]");
    if (b) api("/pre-action", {kind: b.getAttribute("aria-pressed") === "true" ? null : b.dataset.pre});
  });
  game.addEventListener("click", function (ev) {
    const b = ev.target.closest("button[data-act]");
    if (!b) return;
    const k = b.dataset.act, s = store.state;
    if (k === "play") act({kind: "play", amount: Number(b.dataset.amount), trainer: trainerOn()});
    else if (k === "fold") act(GAME === "poker" ? {kind: "fold", trainer: trainerOn()} : {kind: "fold"});
    else if (k === "same") {
      const w = (s.actions || []).filter(function (a) { return a.kind === "wager"; })[0];
      if (w && w.same) act({kind: "wager", ante: w.same.ante, aces_up: w.same.aces_up});
    } else act({kind: k});
  });
  game.addEventListener("click", function (ev) {  // the steppers and quick amounts fill in the amount
    const b = ev.target.closest("button[data-quick], button[data-step]");
    if (!b) return;
    const input = $(b.dataset.target);
    if (!input) return;
    const lo = Number(input.min), hi = Number(input.max);
    let v = b.dataset.quick !== undefined ? Number(b.dataset.quick)
      : (Number(input.value) || lo) + Number(b.dataset.step) * betStep(lo, hi);
    v = Math.max(lo, Math.min(hi, v));
    input.value = String(v);
    input.dataset.typed = "1";
  });
}
