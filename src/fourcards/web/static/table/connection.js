// The connection to the server: the table's live state over a websocket, requests over REST.
// The seat token lives in localStorage (per table) and is sent only to this server: in the
// X-Seat-Token header, and in Sec-WebSocket-Protocol (never in an address: addresses are logged).
import {$, announce} from "./util.js";
import {app, store, tableId} from "./store.js";

const hooks = {state: null, forget: null, changed: null};
// state(s, fromNewConnection): a new state arrived; forget(detail): the seat token stopped
// working; changed(): the connection came or went (the title, the clock line)
export function on(name, fn) { hooks[name] = fn; }

// ------------------------------------------------------------------ the banner
export function showError(msg) {
  const e = $("error");
  if (!msg) { e.hidden = true; e.textContent = ""; store.errorVersion = null; return; }
  e.textContent = msg;
  e.hidden = false;
  store.errorVersion = store.state ? store.state.version : null;
}

// ------------------------------------------------------------------ requests
// Requests go one at a time, in the order they were asked for (Place bets, then Deal).
// The same request asked for again while it waits or runs (a double click) is not sent twice.
// A move, a deal or a card is one intent: it carries an action_id (docs/rules.md TP-8), kept when
// the request is retried after the server could not be reached, so it is applied at most once.
let queue = Promise.resolve();
const waiting = new Set();
const INTENT = /^\/(actions|deal|cards|cards\/take-back|void|seats\/\d+\/actions|chat)$/;
function intentId() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
}
// opts.onError(message): where a refusal is shown (next to the box it concerns), instead of the banner
export function api(path, body, opts) {
  const key = path + " " + JSON.stringify(body === undefined ? {} : body);
  if (waiting.has(key)) return Promise.resolve(null);
  waiting.add(key);
  if (INTENT.test(path)) body = Object.assign({}, body || {}, {action_id: intentId()});
  app.classList.add("busy");
  $("game").setAttribute("aria-busy", "true");
  const run = queue.then(function () { return send(path, body, opts || {}); }).finally(function () {
    waiting.delete(key);
    if (!waiting.size) { app.classList.remove("busy"); $("game").removeAttribute("aria-busy"); }
  });
  queue = run.catch(function () { return null; });
  return run;
}
export function act(body) { return api("/actions", body); }

const RETRIES = 4;  // an intent is sent again (same action_id) after 0.5, 1, 2 and 4 s
async function send(path, body, opts) {
  const headers = {"Content-Type": "application/json"};
  if (store.token) headers["X-Seat-Token"] = store.token;
  let res;
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch("/api/tables/" + tableId + path, {method: "POST", headers: headers,
        body: body === undefined ? "{}" : JSON.stringify(body)});
      if (!(res.status >= 502 && res.status <= 504 && body && body.action_id && attempt < RETRIES)) break;
    } catch (e) {
      if (!(body && body.action_id) || attempt >= RETRIES) {
        showError("The server cannot be reached; reconnecting\u2026");
        reconnectSoon();
        return null;
      }
    }
    showError("The server cannot be reached; trying again\u2026");
    await new Promise(function (done) { window.setTimeout(done, 500 * Math.pow(2, attempt)); });
  }
  let data = {};
  try { data = await res.json(); } catch (e) { data = {detail: res.statusText}; }
  if (!res.ok) {
    if (res.status === 403 && store.token && /token|no longer holds/.test(data.detail || "")) { hooks.forget(data.detail); return null; }
    (opts.onError || showError)(data.detail || ("error " + res.status));
    return null;
  }
  showError(null);
  if (opts.onError) opts.onError(null);
  if (data.type === "state") hooks.state(data, false);
  return data;
}

// ------------------------------------------------------------ the websocket
// Reconnects by itself with backoff (0.5 s doubling to 8 s, with jitter), at once when the
// browser comes back online or the page is shown again; a socket that hears nothing for 25 s
// (a phone that slept, a dead Wi-Fi) is replaced.
let ws = null, wsGen = 0, retry = 0, retryTimer = null, fresh = false, heard = 0, beat = null;
function setConn(text, ok) {
  const c = $("conn");
  c.textContent = text;
  c.classList.toggle("ok", !!ok);
}
export function connect() {
  window.clearTimeout(retryTimer);
  retryTimer = null;
  const gen = ++wsGen;
  const proto = window.location.protocol === "https:" ? "wss:" : "ws:";
  const protocols = store.token ? ["fourcards", "fourcards.token." + store.token] : ["fourcards"];
  const sock = new WebSocket(proto + "//" + window.location.host + "/ws/tables/" + tableId, protocols);
  ws = sock;
  fresh = true;
  sock.onopen = function () {
    if (gen !== wsGen) return;
    retry = 0;
    heard = Date.now();
    setConn("connected", true);
    if (store.connLost) {
      store.connLost = false;
      if (store.errorVersion !== null && /reach|connect/.test($("error").textContent)) showError(null);
      announce("Reconnected.");
      hooks.changed();
    }
    window.clearInterval(beat);
    beat = window.setInterval(heartbeat, 10000);
  };
  sock.onmessage = function (ev) {
    if (gen !== wsGen) return;
    heard = Date.now();
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") { hooks.state(msg, fresh); fresh = false; }
    else if (msg.type === "error") {
      if (msg.status === 403 && store.token) { hooks.forget(msg.detail); return; }
      showError(msg.detail);
    }
  };
  sock.onclose = function (ev) {
    if (gen !== wsGen) return;
    if (ev.code === 4404) { setConn("this table is gone", false); return; }
    lost();
  };
}
function lost() {
  window.clearInterval(beat);
  if (!store.connLost) {
    store.connLost = true;
    announce("Connection lost; reconnecting.");
    hooks.changed();
  }
  setConn("reconnecting\u2026", false);
  const delay = Math.min(8000, 500 * Math.pow(2, retry)) * (0.75 + Math.random() / 2);
  retry = Math.min(retry + 1, 5);
  window.clearTimeout(retryTimer);
  retryTimer = window.setTimeout(connect, delay);
}
function drop() {  // give up on the current socket without waiting for the browser to notice
  wsGen++;
  if (ws) { try { ws.close(); } catch (e) { /* already closed */ } }
  ws = null;
}
export function reconnectNow() { drop(); connect(); }
function reconnectSoon() { if (ws && ws.readyState === WebSocket.OPEN) { drop(); lost(); } }
function heartbeat() {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  if (Date.now() - heard > 25000) { drop(); lost(); return; }
  try { ws.send(JSON.stringify({op: "ping"})); } catch (e) { /* onclose follows */ }
}
function wakeUp() {
  if (!ws || ws.readyState === WebSocket.CLOSED || ws.readyState === WebSocket.CLOSING || store.connLost) reconnectNow();
}
window.addEventListener("online", wakeUp);
document.addEventListener("visibilitychange", function () { if (!document.hidden) wakeUp(); });
