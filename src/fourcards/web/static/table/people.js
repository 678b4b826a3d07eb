// The people at the table: taking a seat (or waiting for the host to allow it), a seat this phone
// lost, the players' list with the host's buttons per seat, your own seat (sit out, leave, top-ups).
import {$, esc, chips, patch, clearTyped} from "./util.js";
import {app, store, tableId, tokenKey} from "./store.js";
import {api, showError, reconnectNow} from "./connection.js";

let lostSeat = null, topUpAsked = 0, redraw = function () {};

// the seat's token stopped working (the host handed the seat to another phone, or removed it):
// say so plainly, and offer a seat again without filling in the old name
export function forgetSeat(detail) {
  lostSeat = detail || "This phone no longer holds a seat at this table.";
  localStorage.removeItem(tokenKey);
  store.token = null;
  showError(null);
  clearTyped($("join-name"));
  reconnectNow();
}

export function renderPeople(s, prev, closed) {
  if (s.you && topUpAsked && prev && prev.you && s.you.balance > prev.you.balance) topUpAsked = 0;
  $("join").hidden = !!s.you || closed;
  renderJoin(s);
  const lost = $("lost-seat");
  lost.hidden = !lostSeat || !!s.you;
  lost.textContent = lostSeat && !s.you ? lostSeat.charAt(0).toUpperCase() + lostSeat.slice(1).replace(/\.?$/, ".") +
    " To play again, take a new seat below." : "";
  $("me").hidden = !s.you || closed;
  patch($("me-body"), s.you && !closed ? mySeat(s) : "");
  const ops = (s.host_actions || []).indexOf("seats") >= 0;
  patch($("players"), s.players.length ? s.players.map(function (p) { return playerItem(s, p, ops); }).join("")
    : '<li id="players-none" class="muted">' + (closed
      ? 'Everyone has left: the table is closed. <a href="' + esc(s.table.history_url) + '">The night&rsquo;s history</a> has who won what.'
      : "Nobody is seated yet.") + "</li>");
}

function renderJoin(s) {
  const b = s.table.buy_in || {};
  const box = $("join-buy-in-box");
  box.hidden = !(b.min_buy_in || b.max_buy_in);
  if (!box.hidden) {
    const input = $("join-buy-in");
    input.min = String(b.min_buy_in || 1);
    input.max = String(b.max_buy_in || 10000000);
    if (input.dataset.typed !== "1") input.value = String(b.default);
    $("join-buy-in-limits").textContent = b.words ? b.words + "." : "";
  }
  const r = s.request;
  const waiting = !!(r && r.status === "pending");
  $("join-form").hidden = waiting;
  $("join-note").hidden = waiting;
  const w = $("my-request");
  w.hidden = !r;
  w.textContent = !r ? "" : waiting ? "Waiting for the host to let you sit down as " + r.name + (r.returning ? " (your seat and chips back)" : "") + "\u2026"
    : r.status === "denied" ? "The host turned down your request for a seat." : "";
}

const STATUS = {sitting_out: "sitting out", left: "left"};
function playerItem(s, p, hostOps) {
  const me = s.you && s.you.seat === p.seat;
  let h = '<li id="player-' + p.seat + '" class="' + (me ? "me" : "") + (p.status !== "playing" ? " " + p.status : "") + '" data-seat="' + p.seat + '">' +
    '<span class="who">Seat ' + p.seat + ": " + esc(p.name) +
    (p.is_host ? ' <span class="muted">(host)</span>' : "") + (p.is_bot ? ' <span class="muted">(bot)</span>' : "") +
    (me ? ' <span class="muted">(you)</span>' : "") + ' \u2014 <span class="balance">' + chips(p.balance) + "</span> chips" +
    (STATUS[p.status] ? ' <span class="tag">' + STATUS[p.status] + "</span>" : "") +
    (p.leaving ? ' <span class="tag">left: cashes out when this ' + esc((s.table.word || "deal").toLowerCase()) + " ends</span>" : "") +
    (!p.is_bot && !p.online && !me ? ' <span class="tag off">offline</span>' : "") +
    (p.muted ? ' <span class="tag">muted</span>' : "") + (p.away ? ' <span class="tag">away</span>' : "") + "</span>";
  if (hostOps && !p.is_host) {
    const n = p.seat, nm = esc(p.name);
    h += '<span class="seat-ops">' + (p.leaving || p.is_bot ? "" : p.away
      ? '<button type="button" data-op="back-from-away" data-seat="' + n + '" aria-label="' + nm + ' is back">Back</button>'
      : '<button type="button" data-op="away" data-seat="' + n + '" aria-label="Set ' + nm + ' away">Away</button>') +
      (p.leaving ? "" : p.status === "sitting_out"
      ? '<button type="button" data-op="back" data-seat="' + n + '" aria-label="Deal ' + nm + ' in again">Deal in</button>'
      : '<button type="button" data-op="sit-out" data-seat="' + n + '" aria-label="Sit out ' + nm + '">Sit out</button>') +
      (p.leaving ? "" : '<button type="button" data-op="leave" data-seat="' + n + '" aria-label="Remove ' + nm + '">Remove</button>') +
      (p.is_bot ? "" : '<button type="button" data-op="new-device" data-seat="' + n + '" aria-label="New phone for ' + nm + '">New phone</button>' +
        (p.muted ? '<button type="button" data-op="unmute" data-seat="' + n + '" aria-label="Let ' + nm + ' chat again">Unmute</button>'
          : '<button type="button" data-op="mute" data-seat="' + n + '" aria-label="Mute ' + nm + ' in the chat">Mute</button>')) +
      "</span>";
  }
  return h + "</li>";
}

function mySeat(s) {
  const y = s.you;
  let h = '<p id="my-status">Seat ' + y.seat + " \u00b7 " + chips(y.balance) + " chips" +
    (y.leaving ? " \u00b7 you left the table: your hand is forfeited and your chips are cashed out when this " +
      esc((s.table.word || "deal").toLowerCase()) + " ends" : y.status === "sitting_out" ? " \u00b7 <b>you are sitting out</b>: not dealt in until you are back" : "") + ".</p>";
  if (y.timeouts && y.status !== "sitting_out") h += '<p class="muted">Your time ran out ' + (y.timeouts === 1 ? "once" : y.timeouts + " times") + "; twice in a row and you sit out.</p>";
  if (y.away) h += '<p id="away-note"><b>You are away</b>: dealt in, your seat checks when it may and folds otherwise, at once.</p>';
  if (y.time_bank !== null && y.time_bank !== undefined) h += '<p class="muted" id="my-time-bank">Time bank: ' + Math.ceil(y.time_bank) + " s left tonight (used when your turn clock runs out).</p>";
  h += '<div class="buttons">';
  if (y.status === "sitting_out") h += '<button type="button" class="primary" data-op="back" data-seat="' + y.seat + '" id="im-back">I\u2019m back</button>';
  else if (!y.leaving) h += '<button type="button" data-op="sit-out" data-seat="' + y.seat + '" id="sit-out">Sit out</button>';
  if (!y.leaving && y.status !== "sitting_out") {
    h += y.away ? '<button type="button" class="primary" data-op="back-from-away" data-seat="' + y.seat + '" id="away-back">I\u2019m back</button>'
      : '<button type="button" data-op="away" data-seat="' + y.seat + '" id="away" aria-describedby="away-hint">Away</button>';
  }
  if (!y.is_host && !y.leaving) h += '<button type="button" class="danger" data-op="leave" data-seat="' + y.seat + '" id="leave">Leave the table</button>';
  h += "</div>";
  if (!y.away && !y.leaving) h += '<p class="hint" id="away-hint">Away: you stay dealt in and your seat checks or folds at once - nobody waits for you.</p>';
  if (y.leaving) return h;  // a seat that has left takes no more chips (docs/rules.md TP-5)
  const r = y.top_up || {min: 1, max: 10000000, match: null};
  const limits = s.table.buy_in && (s.table.buy_in.min_top_up || s.table.buy_in.max_top_up || s.table.buy_in.max_buy_in || s.table.buy_in.match_biggest_stack);
  if (r.max >= r.min) {
    h += '<form id="topup-form" class="inline"><label for="topup-amount">' + (y.is_host ? "Add chips to my stack" : "Ask the host for more chips") + "</label>" +
      '<input type="number" inputmode="numeric" id="topup-amount" min="' + r.min + '" max="' + r.max + '" placeholder="chips, e.g. ' + chips(Math.min(r.max, Math.max(r.min, 500))) + '"' +
      (limits ? ' aria-describedby="topup-limits"' : "") + ">" +
      '<button type="submit" id="topup-btn">' + (y.is_host ? "Add" : "Ask") + "</button></form>";
    if (limits) h += '<p class="hint" id="topup-limits">Now: ' + chips(r.min) + " to " + chips(r.max) + " chips" + (r.match ? " (" + chips(r.match) + " matches the biggest stack)" : "") + ".</p>";
  } else {
    h += '<p class="muted" id="topup-none">No top-up now: your stack is at this table\u2019s maximum.</p>';
  }
  if (topUpAsked) h += '<p class="muted" id="topup-note">You asked the host for ' + chips(topUpAsked) + " more chips.</p>";
  return h;
}

export function wirePeople(again) {
  redraw = again;
  let joining = false;
  $("join-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    if (joining) return;
    joining = true;
    try {
      const body = {name: $("join-name").value};
      if (!$("join-buy-in-box").hidden && $("join-buy-in").value) body.buy_in = Number($("join-buy-in").value);
      const res = await fetch("/api/tables/" + tableId + "/seats", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      const data = await res.json();
      if (!res.ok) { showError(data.detail); return; }
      showError(null);
      store.token = data.token;
      lostSeat = null;
      localStorage.setItem(tokenKey, data.token);
      localStorage.setItem("fourcards:name", data.name);
      reconnectNow();
    } catch (e) {
      showError("The server cannot be reached; try again in a moment.");
    } finally {
      joining = false;
    }
  });
  const savedName = localStorage.getItem("fourcards:name");
  if (savedName) $("join-name").value = savedName;
  app.addEventListener("submit", function (ev) {
    if (ev.target.id !== "topup-form") return;
    ev.preventDefault();
    const s = store.state, box = $("topup-amount");
    const amount = Number(box.value || 0);
    if (!amount) { showError("Type how many chips (at least 1)."); box.focus(); return; }
    // the host's own top-up is made at once: ask first (the chips come from the bank)
    if (s.you && s.you.is_host && !window.confirm("Add " + chips(amount) + " chips from the bank to your stack?")) return;
    api("/top-ups", {amount: amount}).then(function (r) {
      if (!r) return;
      clearTyped(box);
      if (r.status === "pending") topUpAsked = amount;
      redraw();
    });
  });
}
