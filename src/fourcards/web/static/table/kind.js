// Four of a Kind: the table (seats with their face-up cards, odds, bets and the pot), the status
// line, the split, your actions, and what is said aloud about your turn and the result.
import {esc, card, cards, chips, signed, betText, pct} from "./util.js";
import {seatList, shown} from "./store.js";
import {ovalHtml, seatHead, seatClock, BUTTON} from "./layout.js";
import {cardEntry, actFor, referee} from "./realcards.js";
import {actionsBox, betForm} from "./actions.js";
import {clockLine} from "./cues.js";

function narrow() { return window.matchMedia("(max-width: 560px)").matches; }

export function potTotal(d) { return (d.awards || []).reduce(function (t, a) { return t + a.amount; }, 0); }

const lastStake = {};  // seat -> the bet in front of it in the state shown before (chips move to the pot)
let lastDeal = null;

// a seat's tab: between deals what the seat is now (sitting out, away) - not how it ended the last
// deal (play-test fault 2: a seat sitting out said "folded"); during a deal how it stands in it
function badgeOf(item, finished) {
  const e = item.entry, p = item.player;
  if ((!e || finished) && p && p.status === "sitting_out") return "sitting out";
  if (!e) return p && p.away ? "away" : "";
  if (e.forfeited) return "left: hand forfeited";
  if (e.status !== "active") return e.status.replace("_", "-");
  return p && p.away ? "away" : "";
}

function seatHtml(s, d, item, finished, short) {
  const e = item.entry;
  const badge = badgeOf(item, finished);
  const inPot = e ? ' <span class="in"><span class="sr-only">, in the pot </span><span aria-hidden="true">in </span>' + chips(e.contributed) +
    (e.stake ? '<span class="sr-only">, this round ' + chips(e.stake) + "</span>" : "") + "</span>" : "";
  let h = seatHead(s, item, (d && d.button === item.seat ? BUTTON : "") + (badge ? '<span class="badge">' + esc(badge) + "</span>" : ""), inPot);
  if (e) {
    h += cards(e.cards, "sm");
    if (e.odds) {  // on a crowded table "H 9.1%": the word is read, the letter shown
      const said = function (w, p) {
        return short ? '<span class="sr-only">' + w + " " + pct(p) + '</span><span aria-hidden="true">' + w.charAt(0).toUpperCase() + " " + Math.round(100 * p) + "%</span>"
          : w + " " + pct(p);
      };
      h += '<div class="odds" data-high="' + e.odds.p_high + '" data-low="' + e.odds.p_low + '"><span class="o-high">' + said("high", e.odds.p_high) +
        '</span><span class="bar high" aria-hidden="true"><span style="width:' + pct(e.odds.p_high) + '"></span></span><span class="o-low">' + said("low", e.odds.p_low) +
        '</span><span class="bar low" aria-hidden="true"><span style="width:' + pct(e.odds.p_low) + '"></span></span></div>';
    }
    if (finished && d.payoffs && d.payoffs[String(item.seat)] !== undefined) {
      const p = d.payoffs[String(item.seat)];
      h += '<div class="' + (p >= 0 ? "win" : "lose") + '">' + signed(p) + "</div>";
    }
  }
  return h + seatClock(s, item.seat);
}

function seatClass(s, d, item, finished) {
  const e = item.entry;
  const me = s.you && s.you.seat === item.seat;
  const out = item.player && item.player.status === "sitting_out";
  return ((!e || finished) && out ? "out" : e ? e.status : "waiting") + (me ? " me" : "") +
    (!finished && d && d.actor === item.seat ? " actor" : "");
}

// the bet in front of a seat: this round's stake; when the round ends it goes to the pot, and at
// the end of the deal what a seat takes comes back to it from the pot
function betOf(d, item, finished) {
  const e = item.entry;
  if (!d || !e) return {amount: 0};
  const key = d.number;
  const before = lastDeal === key ? (lastStake[item.seat] || 0) : 0;
  if (finished) {
    const won = (d.awards || []).filter(function (a) { return a.seat === item.seat; }).reduce(function (t, a) { return t + a.amount; }, 0);
    return won ? {amount: won, text: betText(won, true), kind: "won"} : {amount: 0, where: "pot"};
  }
  if (e.stake) return {amount: e.stake, text: betText(e.stake)};
  return {amount: 0, where: before ? "pot" : "seat"};
}

// why the next deal waits (the server's words: too few players ready, who sits out), or who deals it
// (`again`: after a deal; before the first one the host is asked to deal, not to deal again)
function nextDeal(s, again) {
  if (s.table.status === "closed") return "The table is closed.";  // play test: it said the host deals the next one
  if (s.why_no_deal) return "The next deal waits: " + esc(s.why_no_deal) + ".";
  return s.host_actions && s.host_actions.indexOf("deal") >= 0 ? (again ? "Deal again when ready." : "Deal when ready.") :
    "The host deals the " + (again ? "next one." : "first one.");
}

function centre(s, d, finished) {
  if (!d) return '<p id="round-status" tabindex="-1">No deal in progress. ' + nextDeal(s, false) + "</p>";
  let h = '<p class="pot" id="pot">Pot ' + chips(finished ? potTotal(d) : d.pot) + "</p>";
  if (!finished && d.pots.length > 1) {
    h += '<p class="side-pots" id="side-pots">' + d.pots.map(function (p, i) { return (i ? "side pot " + i : "main") + " " + chips(p.amount); }).join(" \u00b7 ") + "</p>";
  }
  h += '<p class="deal-line">deal ' + d.number + " \u00b7 " + (finished ? (d.voided ? "voided" : "finished") :
    d.phase + (d.phase === "betting" ? " round " + d.round_number + ", bet " + chips(d.bet) : "")) + " \u00b7 " + d.cards_in_deck + " in the deck</p>";
  if (d.last_turn) {
    h += '<div class="turned" id="last-turn">Turned ' + card(d.last_turn.card, "sm") + " " + (d.last_turn.to ? "\u2192 " + esc(d.last_turn.to_name) : "discarded") + "</div>";
  }
  h += '<p id="round-status" tabindex="-1">' + kindStatus(s, d, finished) + "</p>" + clockLine(s);
  return h;
}

export function renderKind(s) {
  const d = shown(s);
  const finished = !s.deal;
  const list = seatList(s);
  let h = "";
  if (d && !finished) h += cardEntry(s, d);  // the host's card picker first: where the host looks after Deal
  const seats = list.map(function (item) {
    return {seat: item.seat, cls: seatClass(s, d, item, finished), html: seatHtml(s, d, item, finished, list.length > 5 && narrow()),
      bet: betOf(d, item, finished)};
  });
  h += ovalHtml("kind-table", "kind", seats, s.you ? s.you.seat : null, centre(s, d, finished), "");
  if (d) {
    lastDeal = d.number;
    list.forEach(function (item) { lastStake[item.seat] = item.entry && !finished ? item.entry.stake : 0; });
  }
  // your actions (the host's Deal) right under the table, in view; the split's details after them
  h += actionsBox(s, kindActions(s), dockSummary(s, d, finished));
  if (finished && d && d.awards && d.awards.length) {
    h += '<div class="box split" id="split"><b>Split:</b> <ul class="shares">' + d.awards.map(function (a) {
      return '<li data-share="' + a.share + '">' + esc(a.name) + " takes " + chips(a.amount) + " (" + a.share + (a.pot ? ", side pot " + a.pot : "") + ")" +
        (a.why ? '<span class="why">: ' + esc(a.why) + "</span>" : "") + "</li>";
    }).join("") + "</ul></div>";
  } else if (finished && d && d.voided) {
    h += '<div class="box split" id="split">Voided: ' + esc(d.voided) + " \u2014 every chip returned.</div>";
  }
  if (d && !finished) h += actFor(s, d) + referee(s, d);
  return '<div class="felt" id="kind-table"><h2 class="sr-only" id="game-title">The table</h2>' + h + "</div>";
}

function kindStatus(s, d, finished) {
  if (finished) return "Deal " + d.number + " is over. " + nextDeal(s, true);
  const who = d.seats.filter(function (e) { return e.seat === d.actor; })[0];
  const n = d.next_card;
  if (!who && n && s.dealing === "table") {
    return s.you && s.you.is_host ? "<b>Your turn to enter the next card</b> (below)." : "Waiting for the host to enter the next card.";
  }
  if (!who) return "The dealer turns cards\u2026";
  const mine = s.you && s.you.seat === d.actor;
  return mine ? "<b>Your turn</b>" + (d.to_call ? ": " + chips(d.to_call) + " to call" + (d.call_all_in ? " (all-in)" : "") : "") + "." :
    esc(who.name) + " to act.";
}

// on a phone your turn docks the actions at the bottom of the screen: the first line says what
// you need wherever the page is scrolled - your cards, the pot, the amount to call
function dockSummary(s, d, finished) {
  if (!s.you || !d || finished) return "";
  const mine = d.seats.filter(function (e) { return e.seat === s.you.seat; })[0];
  return '<div class="dock-summary" id="dock-summary">' + (mine && mine.cards.length ? '<span class="mine">' + cards(mine.cards, "xs") + "</span>" : "") +
    "<span>Pot <b>" + chips(d.pot) + "</b></span>" + (d.actor !== s.you.seat ? "" : d.to_call ? "<span>\u00b7 <b>" + chips(d.to_call) + "</b> to call" +
    (d.call_all_in ? " (all-in)" : "") + "</span>" : "<span>\u00b7 nothing to call</span>") + "</div>";
}

// Before your turn (docs/rules.md TP-12): what to do when it comes, one tap; a tap on the chosen one
// clears it. A change of the amount to call clears "Check" and "Call": the page says so until the
// amount changes again or the turn moves on.
let lastChosen = null, clearedAt = null;
function watchChoice(s) {
  const p = s.pre_actions, deal = s.deal ? s.deal.number : null;
  const chosen = p && p.chosen ? p.chosen : null;
  const toCall = p ? p.to_call : (s.deal && s.deal.to_call) || 0;
  if (!chosen && lastChosen && (lastChosen.kind === "check" || lastChosen.kind === "call") && lastChosen.deal === deal &&
      lastChosen.to_call !== toCall) clearedAt = {deal: deal, to_call: toCall, turn: s.turn};
  lastChosen = chosen ? {kind: chosen.kind, deal: deal, to_call: p.to_call} : null;
  return clearedAt && clearedAt.deal === deal && clearedAt.to_call === toCall && clearedAt.turn === s.turn && !chosen
    ? '<p class="pre-note" id="pre-cleared">The bet changed: your choice made ahead was cleared.</p>' : "";
}
function preActions(s, note) {
  const p = s.pre_actions;
  if (!p) return "";
  const chosen = p.chosen ? p.chosen.kind : null;
  return '<div class="actions pre-actions" id="pre-actions" role="group" aria-labelledby="pre-title"><span class="pre-title" id="pre-title">Before your turn' +
    (p.to_call ? " (" + chips(p.to_call) + " to call)" : "") + ":</span>" + p.options.map(function (o) {
      const on = chosen === o.kind;
      return '<button type="button" class="pre' + (on ? " on" : "") + '" data-pre="' + o.kind + '" aria-pressed="' + on + '" id="pre-' + o.kind + '">' + esc(o.label) + "</button>";
    }).join("") + "</div>" + note;
}

function kindActions(s) {
  const acts = s.actions || [];
  const note = s.deal && s.you ? watchChoice(s) : "";
  if (!acts.length) {
    const pre = s.deal && s.you ? preActions(s, note) : "";
    // away: "I'm back" right here, where the away seat's owner looks (not only in "Your seat" below)
    return {html: pre || '<p class="muted waiting">' + (s.you ? (s.you.away ? "Away: your seat checks or folds at once." : "Waiting.") : "Watching.") + "</p>" +
      (s.you && s.you.away ? '<button type="button" class="primary" data-op="back-from-away" data-seat="' + s.you.seat + '" id="dock-back">I\u2019m back</button>' : ""),
      live: false};
  }
  let h = note + '<div class="actions" id="kind-actions">';
  acts.forEach(function (a) {
    const k = a.kind;
    if (k === "check" || k === "fold") {
      h += '<button type="button" data-act="' + k + '" id="act-' + k + '">' + (k === "check" ? "Check" : "Fold") + "</button>";
    } else if (k === "call") {
      h += '<button type="button" class="primary" data-act="call" id="act-call">Call ' + chips(a.min_amount) + (a.all_in ? " (all-in)" : "") + "</button>";
    } else {
      h += betForm("", a, s.deal, s.deal.to_call || 0, null);
    }
  });
  return {html: h + "</div>", live: true};
}

export function kindTurnKey(s) {
  return "d" + s.deal.number + ":" + s.deal.round_number + ":" + s.deal.bet + ":" + s.deal.cards_in_deck;
}
export function kindTurnText(s) {
  return "Your turn" + (s.deal.to_call ? ": " + chips(s.deal.to_call) + " to call" + (s.deal.call_all_in ? " (all-in)." : ".") : ".");
}
export function kindResultKey(s) { return s.last && !s.deal ? "k" + s.last.number : null; }
export function kindResultText(s) {
  const d = s.last;
  if (d.voided) return "Deal " + d.number + " was voided: every chip returned.";
  const mine = s.you && d.payoffs ? d.payoffs[String(s.you.seat)] : undefined;
  return "Deal " + d.number + " is over. " + (d.awards || []).map(function (a) {
    return a.name + " takes " + chips(a.amount) + " (" + a.share + ")";
  }).join("; ") + "." + (mine !== undefined ? " Your net: " + signed(mine) + " chips." : "");
}
