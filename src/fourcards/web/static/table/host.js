// The host's controls: deal (on the table, with a badge of the requests waiting), bots, void, pause;
// seat requests and top-ups to approve; a seat handed
// to a new phone; a player without a phone; the table's settings. Also the seat buttons every
// player has for their own seat (sit out, back, leave), which share the host's listener.
import {$, esc, chips, patch, clearTyped} from "./util.js";
import {app, store} from "./store.js";
import {api} from "./connection.js";

let deviceLink = null;  // the link the host just made for a seat's new phone
let redraw = function () {};

export function renderHost(s, closed) {
  const ha = s.host_actions || [];
  $("host").hidden = closed || (ha.length === 0 && !(s.you && s.you.is_host));
  $("host-bots").hidden = ha.indexOf("add_bots") < 0;
  const kinds = s.bot_kinds || [], pick = $("host-bot-kind");
  pick.hidden = $("host-bots").hidden || kinds.length < 2;
  if (pick.dataset.kinds !== kinds.join(",")) {  // the bot choices: built-in bots and plug-ins
    pick.dataset.kinds = kinds.join(",");
    pick.innerHTML = kinds.map(function (k) { return '<option value="' + esc(k) + '">' + esc(k) + "</option>"; }).join("");
  }
  $("host-void").hidden = ha.indexOf("void") < 0;
  $("host-pause").hidden = ha.indexOf("pause") < 0;
  $("host-resume").hidden = ha.indexOf("resume") < 0;
  patch($("host-requests"), hostRequests(s));
  patch($("host-device"), deviceLink ? '<p class="notice" id="device-link-box">Open this link on ' + esc(deviceLink.name) +
    "'s new phone (the old one no longer works):</p>" + '<div class="share"><label for="device-link">New phone link</label>' +
    '<input id="device-link" readonly value="' + esc(deviceLink.url) + '"><button type="button" data-op="copy" data-target="device-link">Copy</button>' +
    '<button type="button" data-op="device-done">Done</button></div>' : "");
  patch($("host-seat"), s.dealing === "table" && ha.indexOf("seats") >= 0 ? '<form id="seat-form" class="inline">' +
    '<label for="seat-name">Seat a player without a phone (you enter their moves)</label><input id="seat-name" data-name-field placeholder="name, at most 40 characters">' +
    '<button type="submit" id="seat-add">Seat</button></form>' : "");
  $("host-more").hidden = closed || ha.indexOf("settings") < 0;
  patch($("host-settings"), ha.indexOf("settings") >= 0 ? hostSettings(s) : "");
}

function pending(s) { return (s.requests || []).filter(function (r) { return r.status === "pending"; }); }

// On the table, in your actions' box (in view on a phone, docked there on your turn): the host's
// Deal and a badge of the seat and top-up requests waiting (a tap shows them, under the table).
export function hostBar(s) {
  const deal = (s.host_actions || []).indexOf("deal") >= 0, n = s.you && s.you.is_host ? pending(s).length : 0;
  if (!deal && !n) return "";
  return '<div class="actions host-bar" id="host-bar">' +
    (deal ? '<button type="button" class="primary" id="host-deal" data-op="deal">Deal</button>' : "") +
    (n ? '<button type="button" class="requests-badge" id="requests-badge" data-op="show-requests"><span class="count">' + n +
      "</span> " + (n === 1 ? "request" : "requests") + " waiting</button>" : "") + "</div>";
}

function hostRequests(s) {
  const rs = pending(s);
  if (!rs.length) return "";
  return '<h3 id="requests-title">Waiting for you</h3><ul class="requests" id="requests" aria-labelledby="requests-title">' + rs.map(function (r) {
    const what = r.kind === "seat" ? esc(r.name) + (r.returning ? " asks for their seat back" : " asks for a seat")
      : esc(r.name) + " asks for " + chips(r.amount) + " more chips";
    return '<li id="request-' + r.id + '">' + what + ' <span class="buttons"><button type="button" class="primary" data-op="approve" data-request="' + r.id +
      '" aria-label="Approve: ' + what + '">Approve</button><button type="button" data-op="decline" data-request="' + r.id +
      '" aria-label="Turn down: ' + what + '">Turn down</button></span></li>';
  }).join("") + "</ul>";
}

function hostSettings(s) {
  const st = s.table.settings || {};
  return '<div class="settings">' +
    '<label class="choice"><input type="checkbox" id="set-public" data-setting="public"' + (s.table.public ? " checked" : "") + "> List this table in the lobby (public)</label>" +
    '<label class="choice"><input type="checkbox" id="set-approval" data-setting="seat_approval"' + (st.seat_approval ? " checked" : "") + "> New seats need my approval</label>" +
    '<form id="clock-form" class="inline"><label for="set-clock">Turn clock, seconds per action (0: none)</label>' +
    '<input type="number" inputmode="numeric" id="set-clock" min="0" max="3600" value="' + (st.turn_clock || 0) + '"><button type="submit" id="set-clock-btn">Set</button></form>' +
    '<form id="bank-form" class="inline"><label for="set-bank">Time bank, seconds per person for the night, used when the turn clock runs out (0: none)</label>' +
    '<input type="number" inputmode="numeric" id="set-bank" min="0" max="3600" value="' + (st.time_bank || 0) + '"><button type="submit" id="set-bank-btn">Set</button></form>' +
    buyInForm(st) +
    '<p><button type="button" class="danger" data-op="close" id="host-close">Close the table</button></p></div>';
}

// the buy-in rules (docs/rules.md TP-14): 0 or empty is no limit
const LIMITS = [["min_buy_in", "Buy-in at least"], ["max_buy_in", "Buy-in at most"], ["min_top_up", "Top-up at least"],
  ["max_top_up", "Top-up at most"]];
function buyInForm(st) {
  return '<form id="buy-in-form" class="buy-in"><fieldset><legend>Buy-in rules, chips (0: no limit)</legend><div class="grid">' +
    LIMITS.map(function (l) {
      return '<label>' + l[1] + ' <input type="number" inputmode="numeric" min="0" max="10000000" id="set-' + l[0].replace(/_/g, "-") + '" data-limit="' +
        l[0] + '" value="' + (st[l[0]] || 0) + '"></label>';
    }).join("") + '</div><label class="choice"><input type="checkbox" id="set-match"' + (st.match_biggest_stack ? " checked" : "") +
    '> A top-up may match the biggest stack at the table</label><button type="submit" id="set-buy-in-btn">Set the buy-in rules</button></fieldset></form>';
}

function seatName(n) {
  const s = store.state;
  const p = s && s.players.filter(function (x) { return x.seat === n; })[0];
  return p ? p.name : "seat " + n;
}

// a player without a phone: seated by name by the host (nobody holds the seat's token: the host
// enters that player's moves, or hands the seat to a phone later with "New phone")
async function seatWithoutPhone(name) {
  if (!name.trim()) return;
  if (!(await api("/seats/without-phone", {name: name}))) return;
  clearTyped($("seat-name"));
}

export function wireHost(again) {
  redraw = again;
  $("host-bots").addEventListener("click", function () {
    const kind = $("host-bot-kind").value;
    api("/bots", kind ? {count: 1, kind: kind} : {count: 1});
  });
  $("host-pause").addEventListener("click", function () { api("/pause"); });
  $("host-resume").addEventListener("click", function () { api("/resume"); });
  $("host-void").addEventListener("click", function () {
    const reason = window.prompt("Void this deal and return every wager. Reason (the host's ruling):", "host ruling");
    if (reason) api("/void", {reason: reason});
  });
  // seats, requests, settings: one listener for the buttons marked data-op
  app.addEventListener("click", async function (ev) {
    const b = ev.target.closest("button[data-op]");
    if (!b) return;
    const s = store.state;
    const op = b.dataset.op, n = Number(b.dataset.seat), rid = b.dataset.request;
    if (op === "deal") api("/deal");
    else if (op === "show-requests") {
      const list = $("requests"), first = list && list.querySelector("button");
      if (list) list.scrollIntoView({block: "center"});
      if (first) first.focus({preventScroll: true});
    } else if (op === "approve" || op === "decline") api("/requests/" + rid, {approve: op === "approve"});
    else if (op === "sit-out" || op === "back") api("/seats/" + n + "/" + op);
    else if (op === "away" || op === "back-from-away") api("/seats/" + n + "/away", {away: op === "away"});
    else if (op === "mute" || op === "unmute") api("/seats/" + n + "/mute", {muted: op === "mute"});
    else if (op === "leave") {
      const mine = s && s.you && s.you.seat === n;
      const inDeal = s && (s.deal || (s.round && s.round.phase === "decisions"));
      const hand = inDeal ? (mine ? " Your hand in this deal is forfeited at once (what you put in stays in the pot)." :
        " Their hand in this deal is forfeited at once.") : "";
      if (window.confirm(mine ? "Leave the table?" + hand + " Your chips are cashed out; sit down again under the same name to get them back."
        : "Remove " + seatName(n) + " from the table?" + hand + " Their chips are cashed out.")) api("/seats/" + n + "/leave");
    } else if (op === "new-device") {
      if (!window.confirm("Hand " + seatName(n) + "'s seat to a new phone? The old phone stops working at once.")) return;
      const r = await api("/seats/" + n + "/new-device");
      if (r) { deviceLink = {name: r.name, url: r.invite_url || window.location.origin + r.join_url}; redraw(); }
    } else if (op === "device-done") { deviceLink = null; redraw(); }
    else if (op === "copy") {
      const input = $(b.dataset.target);
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(input.value);
    } else if (op === "close") {
      if (window.confirm("Close the table? A deal in progress is voided and everyone is cashed out. The history stays.")) api("/close");
    }
  });
  app.addEventListener("change", function (ev) {
    const k = ev.target.dataset.setting;
    if (k) { const body = {}; body[k] = ev.target.checked; api("/settings", body); }
  });
  app.addEventListener("submit", function (ev) {
    const f = ev.target;
    if (f.id === "clock-form") { ev.preventDefault(); api("/settings", {turn_clock: Number($("set-clock").value || 0)}); }
    else if (f.id === "bank-form") { ev.preventDefault(); api("/settings", {time_bank: Number($("set-bank").value || 0)}); }
    else if (f.id === "buy-in-form") {
      ev.preventDefault();
      const body = {match_biggest_stack: $("set-match").checked};
      f.querySelectorAll("input[data-limit]").forEach(function (i) { body[i.dataset.limit] = Number(i.value || 0); });
      api("/settings", body);
    }
    else if (f.id === "seat-form") { ev.preventDefault(); seatWithoutPhone($("seat-name").value); }
  });
}
