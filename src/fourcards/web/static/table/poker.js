// Four Card Poker: the dealer's six cards at the top of the table (its best four raised at the
// showdown), each seat's five (the best four raised once the server names them: your own while you
// decide, every shown hand at the showdown) with its wagers in front, the status line,
// your bets and decision, the trainer, and what is said aloud.
import {esc, card, cards, back, pip, chips, signed, fitted, betText, spoken} from "./util.js";
import {seatList, shown, myTurn} from "./store.js";
import {ovalHtml, seatHead, seatClock} from "./layout.js";
import {actionsBox, trainerOn} from "./actions.js";
import {clockLine} from "./cues.js";

function dealerHtml(show) {
  let h = '<div class="box dealer" id="dealer"><h3>Dealer</h3>';
  if (show.dealer_cards) {  // the dealer's best four raised (the server names them: dealer_best)
    h += hand(show.dealer_cards, show.dealer_best || null) + '<p id="dealer-hand">' + esc(show.dealer_hand || "") + "</p>";
  } else if (show.up_card) {
    h += '<div class="cards">' + back(5) + card(show.up_card, "up") + '</div><p class="muted" id="up-card">Up card ' + pip(show.up_card) + "</p>";
  } else {
    h += '<p class="muted">Waiting for bets.</p>';
  }
  return h + "</div>";
}

// five cards, the best four raised when the server has named them (the showdown)
function hand(list, best, size) {
  if (!best) return cards(list, size);
  const raised = {};
  best.forEach(function (c) { raised[c] = true; });
  return '<div class="cards">' + list.map(function (c) { return card(c, (size || "") + (raised[c] ? " best" : " rest")); }).join("") + "</div>";
}

function wagerWords(e) {
  return "ante " + chips(e.ante) + (e.aces_up ? " \u00b7 Aces Up " + chips(e.aces_up) : "") +
    (e.decision === "play" ? " \u00b7 play " + chips(e.play) : e.decision === "fold" ? " \u00b7 folded" : "");
}

function resultHtml(r, me) {
  const lines = Object.keys(r.wagers).filter(function (k) { return r.wagers[k]; }).map(function (k) {
    return "<li>" + k.replace("_", " ").replace("aces up", "Aces Up") + ' <span class="' + (r.wagers[k] > 0 ? "win" : "lose") + '">' + signed(r.wagers[k]) + "</span></li>";
  });
  if (r.win_cap_adjustment) lines.push("<li>win cap " + signed(r.win_cap_adjustment) + "</li>");
  // the hand's kind ("pair") and the rest (", fives"): a small seat on a phone shows the kind only
  const d = r.player_hand ? r.player_hand.description : "", cut = d.indexOf(",");
  const name = cut < 0 ? esc(d) : esc(d.slice(0, cut)) + '<span class="detail">' + esc(d.slice(cut)) + "</span>";
  return '<div class="result" data-net="' + r.net + '">' + (d ? '<span class="hand-name">' + name + "</span>" : "") +
    (me ? '<ul class="lines">' + lines.join("") + "</ul>" + netHtml(r) : "") + "</div>";
}
// the round's net: in your result, beside the stack in another seat (a small seat has no room below)
function netHtml(r) {
  return '<span class="net"><span class="nw">net </span><b class="' + (r.net >= 0 ? "win" : "lose") + '">' + fitted(r.net, true) + "</b></span>";
}

function seatHtml(s, show, item) {
  const e = item.entry;
  const me = !!(s.you && s.you.seat === item.seat);
  let h = seatHead(s, item, "", e && e.result && !me ? netHtml(e.result) : "");
  if (e) {
    h += '<div class="wagers">' + wagerWords(e) + "</div>";
    // the best four raised: yours while you decide (the view's best), every shown hand at the showdown
    const best = e.result && e.result.player_hand ? e.result.player_hand.cards : e.best || null;
    if (e.cards) h += '<div class="mycards">' + hand(e.cards, best, me ? "" : "sm") + "</div>";
    else if (show.up_card && (e.ante || e.aces_up)) h += '<div class="cards">' + back(5, "sm") + "</div>";
    if (e.result) h += resultHtml(e.result, me);
  }
  return h + seatClock(s, item.seat);
}

export function renderPoker(s) {
  const live = s.round, show = shown(s);
  const seats = seatList(s).map(function (item) {
    const e = item.entry, me = s.you && s.you.seat === item.seat;
    const staked = e ? e.ante + e.aces_up + (e.play || 0) : 0;
    return {seat: item.seat, html: seatHtml(s, show, item),
      cls: (me ? "me" : "") + (show.actor === item.seat ? " actor" : "") + (e && e.decision === "fold" ? " folded" : "") + (e ? "" : " waiting"),
      bet: staked && !(e && e.result) ? {amount: staked, text: betText(staked)} : {amount: 0, where: "seat"}};
  });
  const centre = '<p id="round-status" tabindex="-1">' + statusPoker(s, show) + "</p>" + clockLine(s);
  let h = ovalHtml("poker-table", "poker", seats, s.you ? s.you.seat : null, centre, dealerHtml(show));
  h += actionsBox(s, pokerActions(s, live), dockSummary(s, live));
  h += trainerBox(s);
  return '<div class="felt" id="poker-table"><h2 class="sr-only" id="game-title">The table</h2>' + h + "</div>";
}

function statusPoker(s, show) {
  if (show !== s.round) {
    return "Round " + show.number + (show.phase === "voided" ? " was voided (" + esc(show.void_reason || "") + "): every wager returned." : " settled.") +
      (s.table.status === "closed" ? " The table is closed." : " Round " + s.round.number + ": place your bets.");
  }
  if (show.phase === "wagers") return "Round " + show.number + ": place your bets; the host deals.";
  if (show.phase === "decisions") {
    if (myTurn(s)) return "Round " + show.number + ": <b>your turn</b> to fold or play.";
    const who = show.seats.filter(function (e) { return e.seat === show.actor; })[0];
    return "Round " + show.number + ": " + (who ? esc(who.name) : "seat " + show.actor) + " to fold or play.";
  }
  return "Round " + show.number + " " + show.phase + ".";
}

// docked on a phone, the first line keeps your cards and the dealer's up card in sight
function dockSummary(s, live) {
  if (!s.you || live.phase !== "decisions") return "";
  const mine = live.seats.filter(function (e) { return e.seat === s.you.seat; })[0];
  if (!mine || !mine.cards) return "";
  return '<div class="dock-summary" id="dock-summary"><span class="mine">' + cards(mine.cards, "xs") + "</span>" +
    (live.up_card ? "<span>dealer " + pip(live.up_card) + "</span>" : "") + "<span>ante <b>" + chips(mine.ante) + "</b></span></div>";
}

function pokerActions(s, live) {
  let h = "";
  const acts = s.actions || [];
  const by = {};
  acts.forEach(function (a) { by[a.kind] = a; });
  if (by.withdraw) h += '<div class="actions"><button type="button" data-act="withdraw" id="withdraw">Take back my bets</button></div>';
  if (by.wager) {
    // the fields start from this seat's last bets (kept between rounds), within what it may bet now
    const a = by.wager, last = a.last;
    const ante = last ? Math.min(last.ante, a.ante_max) : Math.min(Math.max(a.ante_min, 10), a.ante_max);
    const aces = last ? Math.min(last.aces_up, a.aces_up_max) : 0;
    if (a.same) {
      h += '<div class="actions"><button type="button" class="primary" data-act="same" id="same-bets">Same bets: ' +
        (a.same.ante ? "ante " + chips(a.same.ante) : "") + (a.same.ante && a.same.aces_up ? " \u00b7 " : "") +
        (a.same.aces_up ? "Aces Up " + chips(a.same.aces_up) : "") + "</button></div>";
    }
    h += '<form id="wager-form" class="actions"><label>Ante <input type="number" inputmode="numeric" name="ante" id="ante" min="0" max="' + a.ante_max +
      '" value="' + ante + '"></label>' +
      '<label>Aces Up <input type="number" inputmode="numeric" name="aces_up" id="aces-up" min="0" max="' + a.aces_up_max + '" value="' + aces + '"></label>' +
      '<button type="submit" class="' + (a.same ? "" : "primary") + '" id="place-bets">Place bets</button></form>';
  }
  if (by.fold || by.play) {
    h += '<div class="actions" id="decision">';
    if (by.fold) h += '<button type="button" id="fold" data-act="fold">Fold</button>';
    const a = by.play;
    if (a) {
      const mults = a.amounts ? a.amounts.map(function (x) { return x / a.ante; }) : [];
      if (!a.amounts) for (let m = 1; m * a.ante <= a.max; m++) mults.push(m);
      mults.forEach(function (m) {
        h += '<button type="button" class="primary" data-act="play" data-amount="' + (m * a.ante) + '" id="play-' + m + 'x">Play ' + m + "x (" + chips(m * a.ante) + ")</button>";
      });
    }
    h += "</div>";
    if (a && !a.amounts && a.max > a.min) {
      h += '<form id="play-form" class="actions"><label>Play bet <input type="number" inputmode="numeric" id="play-amount" min="' + a.min + '" max="' + a.max +
        '" value="' + a.min + '"></label><button type="submit" id="play-custom">Play</button></form>';
    }
  }
  if (!acts.length && s.you) h += '<p class="muted waiting">' + (live.phase === "decisions" ? "Waiting for the others." : "Bets placed; waiting for the host to deal.") + "</div>";
  if (!s.you) h += '<p class="muted waiting">Watching.</p>';
  return {html: h, live: acts.length > 0};
}

// the trainer speaks only about a decision: the one to make now, or the one just made
function trainerBox(s) {
  if (!s.you) return "";
  let h = '<div class="box trainer-box" id="trainer-box"><label class="toggle"><input type="checkbox" id="trainer-toggle"' +
    (trainerOn() ? " checked" : "") + "> Trainer</label>";
  const deciding = (s.actions || []).some(function (a) { return a.kind === "play" || a.kind === "fold"; });
  const t = s.trainer;
  if (trainerOn() && (deciding || t)) {
    if (!s.trainer_available) h += '<div class="trainer" id="trainer">Trainer: analysis not available.</div>';
    else if (t && t.status === "ok") {
      const good = t.ev_lost <= 1e-9;
      h += '<div class="trainer' + (good ? " good" : "") + '" id="trainer"><b>Trainer:</b> ' + esc(t.hand) + ". Optimal: <b>" + esc(t.optimal.replace("_", " ")) +
        "</b>; you chose " + esc(t.chosen.replace("_", " ")) + ". " + (good ? "That is optimal." : "EV given up: " + t.ev_lost.toFixed(4) + " antes (" + t.ev_lost_chips.toFixed(2) + " chips).") +
        '<br><span class="muted-dark">EV per ante: ' + Object.keys(t.ev).map(function (k) { return esc(k.replace("_", " ")) + " " + t.ev[k].toFixed(3); }).join(", ") + "</span></div>";
    } else if (t) h += '<div class="trainer" id="trainer">Trainer: ' + esc(t.message || t.status) + "</div>";
    else h += '<div class="trainer" id="trainer">Trainer: decide, then see the optimal decision and the EV given up.</div>';
  }
  return h + "</div>";
}

export function pokerTurnKey(s) { return "r" + s.round.number; }
export function pokerTurnText(s) {
  const me = s.round.seats.filter(function (e) { return e.seat === s.you.seat; })[0];
  return "Your turn: fold or play." + (me && me.cards ? " Your cards: " + me.cards.map(spoken).join(", ") + "." : "") +
    (s.round.up_card ? " The dealer's up card: " + spoken(s.round.up_card) + "." : "");
}
export function pokerResultKey(s) {
  const done = s.last || (s.round.phase === "settled" || s.round.phase === "voided" ? s.round : null);
  return done ? "p" + done.number : null;
}
export function pokerResultText(s) {
  const done = s.last || s.round;
  if (done.phase === "voided") return "Round " + done.number + " was voided: every wager returned.";
  const me = s.you && done.seats.filter(function (e) { return e.seat === s.you.seat; })[0];
  return "Round " + done.number + ": the dealer has " + (done.dealer_hand || "shown") + "." +
    (me && me.result ? " Your net: " + signed(me.result.net) + " chips." : "");
}
