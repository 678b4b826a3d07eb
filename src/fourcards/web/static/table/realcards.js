// Four of a Kind with real cards (docs/rules.md FOAK-14 to FOAK-16): the referee's view on every
// phone, the host's card picker (rank, then suit; or the card typed), the take-back, and the host
// entering the move of a player without a phone.
import {$, esc, pip, chips, cap, clearTyped} from "./util.js";
import {store} from "./store.js";
import {api} from "./connection.js";
import {betForm} from "./actions.js";

const RANKS = "AKQJT98765432".split("");
const SUIT_KEYS = ["c", "d", "h", "s"];
const SUIT_WORDS = {c: "clubs", d: "diamonds", h: "hearts", s: "spades"};
const SUIT_SIGNS = {c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660"};
function rankText(r) { return r === "T" ? "10" : r; }
export function optionText(a) {
  if (a.kind === "check" || a.kind === "fold") return a.kind;
  if (a.kind === "call") return "call " + chips(a.min_amount) + (a.all_in ? " (all-in)" : "");
  return a.kind + " " + chips(a.min_amount) + (a.max_amount > a.min_amount ? "\u2013" + chips(a.max_amount) : "");
}
function dealName(d, seat) {
  const e = d.seats.filter(function (x) { return x.seat === seat; })[0];
  return e ? e.name : "seat " + seat;
}

// what a referee tells the table: whose turn and their options, raises left, the next card, the unseen cards
export function referee(s, d) {
  let h = '<div class="box referee" id="referee">';
  if (d.actor !== null && d.actor !== undefined) {
    h += '<p id="ref-turn"><b>' + esc(dealName(d, d.actor)) + "</b> to act: " + esc((d.actor_actions || []).map(optionText).join(", ")) +
      (d.raises_left !== null && d.raises_left !== undefined ? " \u00b7 " + d.raises_left + (d.raises_left === 1 ? " raise" : " raises") + " left" : "") + "</p>";
  } else if (d.next_card) {
    const n = d.next_card;
    h += '<p id="ref-next">' + (n.step === "deal" ? "Next card: dealt to <b>" + esc(n.name) + "</b>"
      : "Next card: the dealer turns one" + (n.completes && n.completes.length ? " \u2014 " + n.completes.map(function (c) {
        return "a " + esc(rankText(c.rank)) + " gives " + esc(c.name) + " four of a kind and ends the deal";
      }).join("; ") : "")) + ".</p>";
    if (n.why) h += '<p class="notice redeal" id="ref-redeal">' + esc(n.why) + ".</p>";
  }
  if (d.pots && d.pots.length) {
    h += '<p class="muted" id="ref-pots">' + d.pots.map(function (p, i) {
      return (i ? "side pot " + i : "main pot") + " " + chips(p.amount) + " (" + p.eligible.map(function (x) { return esc(dealName(d, x)); }).join(", ") + ")";
    }).join(" \u00b7 ") + "</p>";
  }
  if (d.unseen) {
    h += '<div class="unseen-box"><span class="muted" id="unseen-title">Unseen cards per rank:</span><ul class="unseen" id="unseen" aria-labelledby="unseen-title">' +
      RANKS.map(function (r) { return '<li data-rank="' + r + '"><span class="r">' + rankText(r) + '</span> <b>' + d.unseen[r] + "</b></li>"; }).join("") + "</ul></div>";
  }
  return h + "</div>";
}

// the host's card picker: rank, then suit (large targets), or the card typed. A refused card is
// said next to the entry box (not in the banner far above), the typed text kept (selected, to be
// corrected); an entered card clears the box.
const picker = {rank: null, refused: null};
export function forgetRefusal(prev, s) {
  if (picker.refused && prev && s.version !== prev.version) picker.refused = null;  // the table moved on
}
function seenCards(d) {
  const seen = {};
  d.seats.forEach(function (e) { e.cards.forEach(function (c) { seen[c] = true; }); });
  (d.discards || []).forEach(function (c) { seen[c] = true; });
  return seen;
}
export function cardEntry(s, d) {
  if (s.dealing !== "table" || !s.you || !s.you.is_host) return "";
  const n = d.next_card, t = d.take_back;
  if (!n && !t) return "";  // during the betting: no empty box
  let h = '<div class="box card-entry" id="card-entry" role="group" aria-labelledby="card-entry-title">';
  h += '<h3 id="card-entry-title">' + (!n ? "The last card entered" : n.step === "deal" ? "Enter the card dealt to " + esc(n.name) : "Enter the turned card") + "</h3>";
  if (n) {
    const seen = seenCards(d);
    h += '<div class="picker ranks" id="rank-picker">' + RANKS.map(function (r) {
      return '<button type="button" data-rank="' + r + '" id="rank-' + r + '" aria-pressed="' + (picker.rank === r) + '">' + rankText(r) + "</button>";
    }).join("") + "</div>";
    h += '<div class="picker suits" id="suit-picker">' + SUIT_KEYS.map(function (k) {
      const c = picker.rank ? picker.rank + k : null;
      const off = !c || seen[c];
      return '<button type="button" class="' + (k === "d" || k === "h" ? "red" : "black") + '" data-suit="' + k + '" id="suit-' + k + '"' + (off ? " disabled" : "") +
        '><span aria-hidden="true">' + SUIT_SIGNS[k] + '</span><span class="sr-only">' + (picker.rank ? rankText(picker.rank) + " of " : "") + SUIT_WORDS[k] + "</span></button>";
    }).join("") + "</div>";
    h += '<form id="card-form" class="inline"><label for="card-text">Or type it</label><input id="card-text" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="e.g. 9c, 10h, T\u2665"' +
      ' aria-describedby="card-error"' + (picker.refused ? ' aria-invalid="true"' : "") + ">" +
      '<button type="submit" class="primary" id="card-enter">Enter</button></form>';
    h += '<p class="field-error card-error" id="card-error" role="alert"' + (picker.refused ? "" : " hidden") + ">" + esc(picker.refused || "") + "</p>";
  }
  if (t) {
    h += '<p><button type="button" id="take-back">Take back ' + pip(t.card) + (t.name ? " (" + esc(t.name) + ")" : "") + "</button></p>";
  }
  return h + "</div>";
}

// the host enters the move of a person at the table (one without a phone, say)
export function actFor(s, d) {
  if (s.dealing !== "table" || !s.you || !s.you.is_host || d.actor === null || d.actor === s.you.seat) return "";
  const who = s.players.filter(function (p) { return p.seat === d.actor; })[0];
  if (!who || who.is_bot) return "";
  let h = '<div class="box act-for" id="act-for"><h3 id="act-for-title">Enter ' + esc(who.name) + "\u2019s move</h3>" +
    '<div class="actions" role="group" aria-labelledby="act-for-title">';
  const call = (d.actor_actions || []).filter(function (a) { return a.kind === "call"; })[0];
  (d.actor_actions || []).forEach(function (a) {
    const k = a.kind;
    if (k === "bet" || k === "raise") h += betForm("for-", a, d, call ? call.min_amount : 0, who.name);
    else h += '<button type="button" data-for="' + k + '" id="for-' + k + '">' + esc(cap(optionText(a))) + "</button>";
  });
  return h + "</div></div>";
}

// a turned card that completes four of a kind ends the deal and cannot be taken back: ask first
function finishing(text) {
  const d = store.state && store.state.deal;
  const n = d && d.next_card;
  if (!n || n.step !== "turn" || !n.completes || !n.completes.length) return null;
  // each card as the server reads it (fourcards.cards.read_cards): a rank then one suit, separated or not
  const tokens = text.match(/(?:10|[2-9tjqka])[cdhs\u2660-\u2667]/gi) || [];
  for (let i = 0; i < tokens.length; i++) {
    let r = tokens[i].slice(0, -1).toUpperCase();
    if (r === "10") r = "T";
    const hit = n.completes.filter(function (c) { return c.rank === r; })[0];
    if (hit) return hit;
  }
  return null;
}
function enterCards(text, redraw) {
  const hit = finishing(text);
  if (hit && !window.confirm("This card gives " + hit.name + " four of a kind: the deal ends and the pot is split at once, " +
    "and the card cannot be taken back. Enter it?")) return;
  const typed = $("card-text") && $("card-text").value.trim() === text;
  api("/cards", {cards: text}, {onError: function (msg) {
    picker.refused = msg;
    if (!msg) return;
    redraw();
    const box = $("card-text"), said = $("card-error");
    if (box && typed) { box.focus(); box.select(); }  // the text stays, ready to be corrected
    if (said) said.scrollIntoView({block: "nearest"});
  }}).then(function (r) {
    if (!r) return;
    picker.rank = null;
    picker.refused = null;
    clearTyped($("card-text"));
    redraw();
  });
}

// the picker's and the host's buttons and forms; redraw() renders the state again
export function wireRealCards(game, redraw) {
  game.addEventListener("click", function (ev) {
    const b = ev.target.closest("button[data-rank], button[data-suit], button[data-for], #take-back");
    const s = store.state;
    if (!b || !s) return;
    if (b.dataset.rank) { picker.rank = picker.rank === b.dataset.rank ? null : b.dataset.rank; redraw(); $("rank-" + b.dataset.rank).focus(); }
    else if (b.dataset.suit) { if (picker.rank) enterCards(picker.rank + b.dataset.suit, redraw); }
    else if (b.dataset.for) api("/seats/" + s.deal.actor + "/actions", {kind: b.dataset.for});
    else if (b.id === "take-back") api("/cards/take-back");
  });
  game.addEventListener("submit", function (ev) {
    const f = ev.target;
    if (f.id === "card-form") { ev.preventDefault(); const v = $("card-text").value.trim(); if (v) enterCards(v, redraw); }
    else if (f.dataset.forKind) {
      ev.preventDefault();
      api("/seats/" + store.state.deal.actor + "/actions", {kind: f.dataset.forKind, amount: Number($("for-amt-" + f.dataset.forKind).value || 0)});
    }
  });
}
