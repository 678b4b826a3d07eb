// fourcards table page: join by name, live state over a websocket, actions over REST.
// The seat token lives in localStorage (per table) and is sent only to this server.
//
// Each new state patches the page (morphdom, vendored in morphdom.min.js): only what
// changed is touched, so keyboard focus stays where it was and an amount being typed
// survives another player's move. Events are delegated from the page's fixed regions,
// so patched elements need no rebinding.
(function () {
  "use strict";
  const $ = function (id) { return document.getElementById(id); };
  const app = $("app");
  const tableId = app.dataset.tableId;
  const GAME = app.dataset.game;
  const tokenKey = "fourcards:token:" + tableId;
  const baseTitle = document.title;
  // a seat handed to this phone by the host comes as /t/{id}#token=...: keep it, clear the address
  const handed = /(?:^#|&)token=([A-Za-z0-9_-]{20,100})/.exec(window.location.hash);
  if (handed) {
    localStorage.setItem(tokenKey, handed[1]);
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  let token = localStorage.getItem(tokenKey);
  let state = null;

  // ------------------------------------------------------------------ text
  const C = window.fourcardsCards;  // cards.js
  const esc = C.esc, spoken = C.spoken, card = C.card, pip = C.pip, back = C.back, cards = C.cards, signed = C.signed;
  function pct(x) { return (100 * x).toFixed(1) + "%"; }

  // --------------------------------------------------------------- patching
  // Keep what a person typed: a number or text input they edited keeps its value
  // (its bounds still follow the new state) until the input itself goes away.
  function keepTyped(from, to) {
    if (from.tagName === "INPUT" && from.dataset.typed === "1" && from.type !== "checkbox") {
      to.value = from.value;
      to.setAttribute("data-typed", "1");
    }
    return true;
  }
  function patch(el, html) {
    const next = el.cloneNode(false);
    next.innerHTML = html;
    window.morphdom(el, next, {childrenOnly: true, onBeforeElUpdated: keepTyped});
  }
  app.addEventListener("input", function (ev) {
    if (ev.target.tagName === "INPUT" && ev.target.type !== "checkbox") ev.target.dataset.typed = "1";
  });

  // ------------------------------------------------------- messages to people
  let errorVersion = null;
  function showError(msg) {
    const e = $("error");
    if (!msg) { e.hidden = true; e.textContent = ""; errorVersion = null; return; }
    e.textContent = msg;
    e.hidden = false;
    errorVersion = state ? state.version : null;
  }
  // the aria-live region: what a screen reader says when the table changes
  function announce(msg) {
    const a = $("announce");
    a.textContent = "";
    window.setTimeout(function () { a.textContent = msg; }, 50);
  }
  let connLost = false;
  function updateTitle() {
    document.title = (connLost ? "Reconnecting \u00b7 " : "") + (state && myTurn(state) ? "Your turn \u00b7 " : "") + baseTitle;
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
  function api(path, body, opts) {
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
  const RETRIES = 4;  // an intent is sent again (same action_id) after 0.5, 1, 2 and 4 s
  async function send(path, body, opts) {
    const headers = {"Content-Type": "application/json"};
    if (token) headers["X-Seat-Token"] = token;
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
      if (res.status === 403 && token && /token|no longer holds/.test(data.detail || "")) { forgetSeat(data.detail); return null; }
      (opts.onError || showError)(data.detail || ("error " + res.status));
      return null;
    }
    showError(null);
    if (opts.onError) opts.onError(null);
    if (data.type === "state") render(data, false);
    return data;
  }
  function act(body) { return api("/actions", body); }

  // the seat's token stopped working (the host handed the seat to another phone, or removed it):
  // say so plainly, and offer a seat again without filling in the old name
  let lostSeat = null;
  function forgetSeat(detail) {
    lostSeat = detail || "This phone no longer holds a seat at this table.";
    localStorage.removeItem(tokenKey);
    token = null;
    showError(null);
    $("join-name").value = "";
    delete $("join-name").dataset.typed;
    reconnectNow();
  }

  // ------------------------------------------------------------ connection
  // Reconnects by itself with backoff (0.5 s doubling to 8 s, with jitter), at once
  // when the browser comes back online or the page is shown again. The first state
  // of each new connection is the server's truth and always taken, even if its
  // version is lower; later ones only if not older (versions are the table's, in the database).
  let ws = null, wsGen = 0, retry = 0, retryTimer = null, fresh = false, heard = 0, beat = null;
  function setConn(text, ok) {
    const c = $("conn");
    c.textContent = text;
    c.classList.toggle("ok", !!ok);
  }
  function connect() {
    window.clearTimeout(retryTimer);
    retryTimer = null;
    const gen = ++wsGen;
    const proto = window.location.protocol === "https:" ? "wss:" : "ws:";
    // the seat token rides in Sec-WebSocket-Protocol, never in the address (addresses are logged)
    const protocols = token ? ["fourcards", "fourcards.token." + token] : ["fourcards"];
    const sock = new WebSocket(proto + "//" + window.location.host + "/ws/tables/" + tableId, protocols);
    ws = sock;
    fresh = true;
    sock.onopen = function () {
      if (gen !== wsGen) return;
      retry = 0;
      heard = Date.now();
      setConn("connected", true);
      if (connLost) {
        connLost = false;
        if (errorVersion !== null && /reach|connect/.test($("error").textContent)) showError(null);
        announce("Reconnected.");
        updateTitle();
      }
      window.clearInterval(beat);
      beat = window.setInterval(heartbeat, 10000);
    };
    sock.onmessage = function (ev) {
      if (gen !== wsGen) return;
      heard = Date.now();
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") { render(msg, fresh); fresh = false; }
      else if (msg.type === "error") {
        if (msg.status === 403 && token) { forgetSeat(msg.detail); return; }
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
    if (!connLost) {
      connLost = true;
      announce("Connection lost; reconnecting.");
      updateTitle();
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
  function reconnectNow() { drop(); connect(); }
  function reconnectSoon() { if (ws && ws.readyState === WebSocket.OPEN) { drop(); lost(); } }
  // a socket that hears nothing for 25 s (a phone that slept, a dead Wi-Fi) is replaced
  function heartbeat() {
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - heard > 25000) { drop(); lost(); return; }
    try { ws.send(JSON.stringify({op: "ping"})); } catch (e) { /* onclose follows */ }
  }
  function wakeUp() {
    if (!ws || ws.readyState === WebSocket.CLOSED || ws.readyState === WebSocket.CLOSING || connLost) reconnectNow();
  }
  window.addEventListener("online", wakeUp);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) wakeUp(); });

  // ------------------------------------------------------------ fixed controls
  const phone = window.matchMedia("(max-width: 560px)").matches;
  if (phone) $("invite").open = false;  // on a phone the table comes first; the invite is a tap away
  if (!$("share-link").value) $("share-link").value = window.location.origin + "/t/" + tableId;
  $("copy-link").addEventListener("click", function () {
    $("share-link").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("share-link").value);
  });

  C.applyDeck($("four-colour"));

  let joining = false;
  $("join-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    if (joining) return;
    joining = true;
    try {
      const res = await fetch("/api/tables/" + tableId + "/seats", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: $("join-name").value})});
      const data = await res.json();
      if (!res.ok) { showError(data.detail); return; }
      showError(null);
      token = data.token;
      lostSeat = null;
      localStorage.setItem(tokenKey, token);
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

  $("host-deal").addEventListener("click", function () { api("/deal"); });
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
  let deviceLink = null;  // the link the host just made for a seat's new phone
  function seatName(n) {
    const p = state && state.players.filter(function (x) { return x.seat === n; })[0];
    return p ? p.name : "seat " + n;
  }
  app.addEventListener("click", async function (ev) {
    const b = ev.target.closest("button[data-op]");
    if (!b) return;
    const op = b.dataset.op, n = Number(b.dataset.seat), rid = b.dataset.request;
    if (op === "approve" || op === "decline") api("/requests/" + rid, {approve: op === "approve"});
    else if (op === "sit-out" || op === "back") api("/seats/" + n + "/" + op);
    else if (op === "mute" || op === "unmute") api("/seats/" + n + "/mute", {muted: op === "mute"});
    else if (op === "leave") {
      const mine = state && state.you && state.you.seat === n;
      const inDeal = state && (state.deal || (state.round && state.round.phase === "decisions"));
      const hand = inDeal ? (mine ? " Your hand in this deal is forfeited at once (what you put in stays in the pot)." :
        " Their hand in this deal is forfeited at once.") : "";
      if (window.confirm(mine ? "Leave the table?" + hand + " Your chips are cashed out; sit down again under the same name to get them back."
        : "Remove " + seatName(n) + " from the table?" + hand + " Their chips are cashed out.")) api("/seats/" + n + "/leave");
    } else if (op === "new-device") {
      if (!window.confirm("Hand " + seatName(n) + "'s seat to a new phone? The old phone stops working at once.")) return;
      const r = await api("/seats/" + n + "/new-device");
      if (r) { deviceLink = {name: r.name, url: r.invite_url || window.location.origin + r.join_url}; render(state, false, true); }
    } else if (op === "device-done") { deviceLink = null; render(state, false, true); }
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
    else if (f.id === "seat-form") {
      ev.preventDefault();
      seatWithoutPhone($("seat-name").value);
    } else if (f.id === "topup-form") {
      ev.preventDefault();
      const box = $("topup-amount");
      const amount = Number(box.value || 0);
      if (!amount) { showError("Type how many chips (at least 1)."); box.focus(); return; }
      // the host's own top-up is made at once: ask first (the chips come from the bank)
      if (state.you && state.you.is_host && !window.confirm("Add " + amount + " chips from the bank to your stack?")) return;
      api("/top-ups", {amount: amount}).then(function (r) {
        if (!r) return;
        box.value = "";
        delete box.dataset.typed;
        if (r.status === "pending") topUpAsked = amount;
        render(state, false, true);
      });
    }
  });
  let topUpAsked = 0;
  // a player without a phone: seated by name by the host (nobody holds the seat's token: the host
  // enters that player's moves, or hands the seat to a phone later with "New phone")
  async function seatWithoutPhone(name) {
    if (!name.trim()) return;
    if (!(await api("/seats/without-phone", {name: name}))) return;
    const box = $("seat-name");
    if (box) { box.value = ""; delete box.dataset.typed; }
  }

  // the game area: one listener each for clicks, forms and toggles
  const game = $("game");
  game.addEventListener("submit", function (ev) {
    ev.preventDefault();
    const f = ev.target;
    const amount = function (id) { return Number($(id).value || 0); };
    if (f.id === "wager-form") act({kind: "wager", ante: amount("ante"), aces_up: amount("aces-up")});
    else if (f.id === "play-form") act({kind: "play", amount: amount("play-amount"), trainer: trainerOn()});
    else if (f.dataset.kind) act({kind: f.dataset.kind, amount: amount("amt-" + f.dataset.kind)});
  });
  game.addEventListener("click", function (ev) {
    const b = ev.target.closest("button[data-act]");
    if (!b) return;
    const k = b.dataset.act;
    if (k === "play") act({kind: "play", amount: Number(b.dataset.amount), trainer: trainerOn()});
    else if (k === "fold") act(GAME === "poker" ? {kind: "fold", trainer: trainerOn()} : {kind: "fold"});
    else if (k === "same") {
      const w = (state.actions || []).filter(function (a) { return a.kind === "wager"; })[0];
      if (w && w.same) act({kind: "wager", ante: w.same.ante, aces_up: w.same.aces_up});
    } else act({kind: k});
  });
  game.addEventListener("change", function (ev) {
    if (ev.target.id === "trainer-toggle") {
      localStorage.setItem("fourcards:trainer", ev.target.checked ? "1" : "0");
      render(state, false);
    }
  });

  // ---------------------------------------------------------------- render
  function accept(s, fromNewConnection) {
    if (!state || fromNewConnection) return true;
    if (s.instance !== undefined && s.instance !== state.instance) return true;  // another server process
    return s.version >= state.version;
  }

  function render(s, fromNewConnection, again) {
    if (!again && !accept(s, fromNewConnection)) return;  // an older view than the one shown
    const prev = state;
    state = s;
    if (errorVersion !== null && prev && s.version !== errorVersion && !connLost) showError(null);
    const focused = document.activeElement;
    const hadFocus = focused && focused !== document.body && game.contains(focused);

    const closed = s.table.status === "closed";
    const ha = s.host_actions || [];
    if (s.you && topUpAsked && prev && prev.you && s.you.balance > prev.you.balance) topUpAsked = 0;
    $("closed").hidden = !closed;
    $("join").hidden = !!s.you || closed;
    renderJoin(s);
    const lost = $("lost-seat");
    lost.hidden = !lostSeat || !!s.you;
    lost.textContent = lostSeat && !s.you ? lostSeat.charAt(0).toUpperCase() + lostSeat.slice(1).replace(/\.?$/, ".") +
      " To play again, take a new seat below." : "";
    $("host").hidden = closed || (ha.length === 0 && !(s.you && s.you.is_host));
    $("host-deal").hidden = ha.indexOf("deal") < 0;
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
    $("paused").hidden = closed || !s.paused;
    patch($("host-requests"), hostRequests(s));
    patch($("host-device"), deviceLink ? '<p class="notice" id="device-link-box">Open this link on ' + esc(deviceLink.name) +
      "'s new phone (the old one no longer works):</p>" + '<div class="share"><label for="device-link">New phone link</label>' +
      '<input id="device-link" readonly value="' + esc(deviceLink.url) + '"><button type="button" data-op="copy" data-target="device-link">Copy</button>' +
      '<button type="button" data-op="device-done">Done</button></div>' : "");
    patch($("host-seat"), s.dealing === "table" && ha.indexOf("seats") >= 0 ? '<form id="seat-form" class="inline">' +
      '<label for="seat-name">Seat a player without a phone (you enter their moves)</label><input id="seat-name" maxlength="40" placeholder="name">' +
      '<button type="submit" id="seat-add">Seat</button></form>' : "");
    $("host-more").hidden = closed || ha.indexOf("settings") < 0;
    patch($("host-settings"), ha.indexOf("settings") >= 0 ? hostSettings(s) : "");
    $("me").hidden = !s.you || closed;
    patch($("me-body"), s.you && !closed ? mySeat(s) : "");
    $("table-rules").textContent = s.table.game_title + " \u00b7 " + rulesText(s.table);
    if (s.table.invite_url) $("share-link").value = s.table.invite_url;
    patch($("players"), s.players.map(function (p) { return playerItem(s, p, ha.indexOf("seats") >= 0); }).join(""));
    patch($("log"), s.log.map(function (l) { return "<li>" + esc(l) + "</li>"; }).join(""));
    renderChat(s, closed);
    if (!again && cardRefused && prev && s.version !== prev.version) cardRefused = null;  // the table moved on
    const picker = !!$("rank-picker");
    patch(game, s.game === "poker" ? renderPoker(s) : renderKind(s));
    // the host's card picker comes into view when a card falls due (right after Deal, after the betting)
    if (prev && !picker && $("rank-picker")) $("card-entry").scrollIntoView({block: "nearest"});

    if (hadFocus && !document.contains(focused)) {
      // the control that had focus is gone (the action was made): keep the keyboard here
      const next = game.querySelector("#my-actions button:not([hidden]), #my-actions input") || $("my-actions") || $("round-status");
      if (next) next.focus({preventScroll: true});
    }
    speak(prev, s);
    cueTurn(prev, s);
    updateTitle();
    dock();
    if (prev) showMyResult(prev, s);
    keepAwake(s);
  }

  // on phones your actions are docked at the bottom of the screen: keep room for them
  function dock() {
    const d = $("my-actions");
    const h = d && getComputedStyle(d).position === "fixed" ? d.offsetHeight : 0;
    document.documentElement.style.setProperty("--dock", h + "px");
  }
  window.addEventListener("resize", dock);

  // the rules in words (the server's label: "Casino rules: play 1x-3x"), with the pay tables
  function rulesText(t) {
    const r = t.rules;
    if (GAME === "poker") return t.rules_label + " \u00b7 ante bonus " + r.ante_bonus + " \u00b7 Aces Up " + r.aces_up;
    return t.rules_label + " \u00b7 raise cap " + r.max_raises + ((state && state.dealing === "table") ? " \u00b7 real cards, entered by the host" : "");
  }

  // ------------------------------------------------- seats, host, requests
  function renderJoin(s) {
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
      (me ? ' <span class="muted">(you)</span>' : "") + ' \u2014 <span class="balance">' + p.balance + "</span> chips" +
      (STATUS[p.status] ? ' <span class="tag">' + STATUS[p.status] + "</span>" : "") +
      (p.leaving ? ' <span class="tag">left: cashes out when this ' + esc((s.table.word || "deal").toLowerCase()) + " ends</span>" : "") +
      (!p.is_bot && !p.online && !me ? ' <span class="tag off">offline</span>' : "") +
      (p.muted ? ' <span class="tag">muted</span>' : "") + "</span>";
    if (hostOps && !p.is_host) {
      const n = p.seat, nm = esc(p.name);
      h += '<span class="seat-ops">' + (p.leaving ? "" : p.status === "sitting_out"
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

  function hostRequests(s) {
    const rs = (s.requests || []).filter(function (r) { return r.status === "pending"; });
    if (!rs.length) return "";
    return '<h3 id="requests-title">Waiting for you</h3><ul class="requests" id="requests" aria-labelledby="requests-title">' + rs.map(function (r) {
      const what = r.kind === "seat" ? esc(r.name) + (r.returning ? " asks for their seat back" : " asks for a seat")
        : esc(r.name) + " asks for " + r.amount + " more chips";
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
      '<p><button type="button" class="danger" data-op="close" id="host-close">Close the table</button></p></div>';
  }

  function mySeat(s) {
    const y = s.you;
    let h = '<p id="my-status">Seat ' + y.seat + " \u00b7 " + y.balance + " chips" +
      (y.leaving ? " \u00b7 you left the table: your hand is forfeited and your chips are cashed out when this " +
        esc((s.table.word || "deal").toLowerCase()) + " ends" : y.status === "sitting_out" ? " \u00b7 <b>you are sitting out</b>: not dealt in until you are back" : "") + ".</p>";
    if (y.timeouts && y.status !== "sitting_out") h += '<p class="muted">Your time ran out ' + (y.timeouts === 1 ? "once" : y.timeouts + " times") + "; twice in a row and you sit out.</p>";
    h += '<div class="buttons">';
    if (y.status === "sitting_out") h += '<button type="button" class="primary" data-op="back" data-seat="' + y.seat + '" id="im-back">I\u2019m back</button>';
    else if (!y.leaving) h += '<button type="button" data-op="sit-out" data-seat="' + y.seat + '" id="sit-out">Sit out</button>';
    if (!y.is_host && !y.leaving) h += '<button type="button" class="danger" data-op="leave" data-seat="' + y.seat + '" id="leave">Leave the table</button>';
    h += "</div>";
    if (y.leaving) return h;  // a seat that has left takes no more chips (docs/rules.md TP-5)
    h += '<form id="topup-form" class="inline"><label for="topup-amount">' + (y.is_host ? "Add chips to my stack" : "Ask the host for more chips") + "</label>" +
      '<input type="number" inputmode="numeric" id="topup-amount" min="1" max="10000000" placeholder="chips, e.g. 500">' +
      '<button type="submit" id="topup-btn">' + (y.is_host ? "Add" : "Ask") + "</button></form>";
    if (topUpAsked) h += '<p class="muted" id="topup-note">You asked the host for ' + topUpAsked + " more chips.</p>";
    return h;
  }

  // the turn clock: the server's seconds left, counted down here
  let clockEnd = 0, clockWarned = null;
  function clockLine(s) {
    const c = s.clock;
    if (!c) { clockEnd = 0; return ""; }
    clockEnd = performance.now() + c.seconds_left * 1000;
    return '<p class="clock" id="clock" data-seat="' + c.seat + '">' + clockText(s) + "</p>";
  }
  function clockText(s) {
    const c = s.clock;
    const left = c.paused ? Math.ceil(c.seconds_left) : Math.max(0, Math.ceil((clockEnd - performance.now()) / 1000));
    const mine = s.you && s.you.seat === c.seat;
    return (mine ? "Your time" : esc(c.name) + "\u2019s time") + ': <span class="secs">' + left + "</span> s" +
      (c.paused ? " (paused)" : "") + '<span class="clock-conn">' + clockConn() + "</span>";
  }
  // while the page cannot reach the server the seconds are only the last ones heard of: the
  // server's clock decides (and gives back the time no server ran: docs/rules.md TP-6)
  function clockConn() { return connLost ? " \u00b7 reconnecting: the server keeps the time" : ""; }
  window.setInterval(function () {
    const el = $("clock");
    if (!el || !state || !state.clock || state.clock.paused) return;
    const left = Math.max(0, Math.ceil((clockEnd - performance.now()) / 1000));
    const secs = el.querySelector(".secs"), conn = el.querySelector(".clock-conn");
    if (secs && secs.textContent !== String(left)) secs.textContent = String(left);
    if (conn && conn.textContent !== clockConn()) conn.textContent = clockConn();
    el.classList.toggle("low", left <= 10);
    const key = state.version + ":" + state.clock.seat;
    if (left <= 10 && left > 0 && state.you && state.you.seat === state.clock.seat && clockWarned !== key) {
      clockWarned = key;
      announce(left + " seconds left to act.");
    }
  }, 250);

  // ---------------------------------------------------- what is said aloud
  function myTurn(s) {
    if (!s.you) return false;
    if (s.game === "poker") return (s.actions || []).some(function (a) { return a.kind === "fold" || a.kind === "play"; });
    return !!(s.deal && s.deal.actor === s.you.seat);
  }
  function turnKey(s) {
    if (!myTurn(s)) return null;
    if (s.game === "poker") return "r" + s.round.number;
    return "d" + s.deal.number + ":" + s.deal.round_number + ":" + s.deal.bet + ":" + s.deal.cards_in_deck;
  }
  function turnText(s) {
    if (s.game === "poker") {
      const me = s.round.seats.filter(function (e) { return e.seat === s.you.seat; })[0];
      return "Your turn: fold or play." + (me && me.cards ? " Your cards: " + me.cards.map(spoken).join(", ") + "." : "") +
        (s.round.up_card ? " The dealer's up card: " + spoken(s.round.up_card) + "." : "");
    }
    return "Your turn" + (s.deal.to_call ? ": " + s.deal.to_call + " to call" + (s.deal.call_all_in ? " (all-in)." : ".") : ".");
  }
  function resultKey(s) {
    if (s.game === "poker") {
      const shown = s.last || (s.round.phase === "settled" || s.round.phase === "voided" ? s.round : null);
      return shown ? "p" + shown.number : null;
    }
    return s.last && !s.deal ? "k" + s.last.number : null;
  }
  function resultText(s) {
    if (s.game === "poker") {
      const shown = s.last || s.round;
      if (shown.phase === "voided") return "Round " + shown.number + " was voided: every wager returned.";
      const me = s.you && shown.seats.filter(function (e) { return e.seat === s.you.seat; })[0];
      return "Round " + shown.number + ": the dealer has " + (shown.dealer_hand || "shown") + "." +
        (me && me.result ? " Your net: " + signed(me.result.net) + " chips." : "");
    }
    const d = s.last;
    if (d.voided) return "Deal " + d.number + " was voided: every chip returned.";
    const mine = s.you && d.payoffs ? d.payoffs[String(s.you.seat)] : undefined;
    return "Deal " + d.number + " is over. " + (d.awards || []).map(function (a) {
      return a.name + " takes " + a.amount + " (" + a.share + ")";
    }).join("; ") + "." + (mine !== undefined ? " Your net: " + signed(mine) + " chips." : "");
  }
  let saidTurn = null, saidResult = null;
  function speak(prev, s) {
    const rk = resultKey(s), tk = turnKey(s);
    const parts = [];
    if (prev && !!prev.paused !== !!s.paused && s.table.status === "open") {
      parts.push(s.paused ? "The host has paused the table: no clock runs and nobody acts." : "The host has resumed the table.");
    }
    if (prev && rk && rk !== saidResult) parts.push(resultText(s));
    if (tk && tk !== saidTurn) parts.push(turnText(s));
    saidResult = rk;
    saidTurn = tk;
    if (parts.length) announce(parts.join(" "));
  }

  // ---------------------------------------------------- your turn reaches you
  // once per turn of this seat (the server's turn id): a short sound and a buzz where the browser
  // allows them (toggles under "Display", remembered), and the actions box flashes (the cue that
  // always works: iOS has no vibration). Nothing for spectators, nor on the page's first state.
  const SOUND = "fourcards:turn-sound", BUZZ = "fourcards:turn-buzz";
  function optOn(key) { return localStorage.getItem(key) !== "0"; }
  let audio = null, cuedTurn = null;
  function audioContext() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!audio && Ctx) { try { audio = new Ctx(); } catch (e) { audio = null; } }
    if (audio && audio.state === "suspended" && audio.resume) audio.resume().catch(function () { return null; });
    return audio;
  }
  // browsers let a page make sound only after a tap or a key: the first one opens the audio
  document.addEventListener("pointerdown", function () {
    if (optOn(SOUND) && state && state.you && (!audio || audio.state === "suspended")) audioContext();
  });
  function beep() {
    const ctx = audioContext();
    if (!ctx) return;
    try {
      const t = ctx.currentTime, osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.setValueAtTime(880, t);
      osc.frequency.setValueAtTime(660, t + 0.09);
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.25, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.22);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(t);
      osc.stop(t + 0.24);
    } catch (e) { /* no sound: the screen still shows the turn */ }
  }
  function cueTurn(prev, s) {
    const key = s.turn && s.you && s.table.status === "open" && myTurn(s) ? s.turn : null;
    const fresh = key && key !== cuedTurn;
    cuedTurn = key;
    if (!fresh || !prev) return;
    if (optOn(SOUND)) beep();
    if (optOn(BUZZ) && typeof navigator.vibrate === "function") { try { navigator.vibrate([120, 60, 120]); } catch (e) { /* not allowed */ } }
    const box = $("my-actions");
    if (box) {
      box.classList.remove("cue");
      void box.offsetWidth;  // restart the flash
      box.classList.add("cue");
    }
  }
  function turnOptions() {
    [[$("turn-sound"), SOUND], [$("turn-buzz"), BUZZ]].forEach(function (o) {
      o[0].checked = optOn(o[1]);
      o[0].addEventListener("change", function () {
        localStorage.setItem(o[1], o[0].checked ? "1" : "0");
        if (o[1] === SOUND && o[0].checked) audioContext();
      });
    });
    if (typeof navigator.vibrate !== "function") {
      $("turn-buzz").disabled = true;
      $("turn-buzz-note").hidden = false;
    }
  }
  turnOptions();

  // the screen stays on while this browser holds a seat (Screen Wake Lock; taken again when the
  // page is shown again: the browser lets it go when the page is hidden)
  let wake = null, wakeWanted = false, wakeAsking = false;
  function keepAwake(s) {
    wakeWanted = !!(s.you && s.table.status === "open");
    if (!navigator.wakeLock) return;
    if (wakeWanted && !wake && !wakeAsking && document.visibilityState === "visible") {
      wakeAsking = true;
      navigator.wakeLock.request("screen").then(function (lock) {
        wake = lock;
        if (lock && lock.addEventListener) lock.addEventListener("release", function () { if (wake === lock) wake = null; });
        if (!wakeWanted && lock && lock.release) { lock.release(); wake = null; }
      }).catch(function () { wake = null; }).finally(function () { wakeAsking = false; });
    } else if (!wakeWanted && wake) {
      const lock = wake;
      wake = null;
      if (lock.release) lock.release().catch(function () { return null; });
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && state) { wake = null; keepAwake(state); }
  });

  // ------------------------------------------------------------------ chat
  // everyone watching reads the chat; seated people write (at most 3 messages in 2 s; the host
  // may mute a seat); new messages are read out politely (the list is an aria-live log)
  const REACTIONS = ["\ud83d\udc4d", "\ud83d\udc4f", "\ud83d\ude02", "\ud83d\ude2e", "\ud83d\ude2c", "\ud83c\udf89"];
  const REACTION_NAMES = ["thumbs up", "clapping", "laughing", "surprised", "grimacing", "party"];
  function clock2(at) {
    const d = new Date(at * 1000);
    return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  }
  function renderChat(s, closed) {
    const lines = s.chat || [];
    const list = $("chat-lines"), box = $("chat-log");
    const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
    patch(list, lines.length ? lines.map(function (m) {
      const mine = s.you && m.seat === s.you.seat && m.name === s.you.name;
      return '<li id="chat-' + m.id + '" class="kind-' + m.kind + (mine ? " mine" : "") + '"><span class="when">' + clock2(m.at) +
        '</span> <b class="who">' + esc(m.name) + "</b>: " + '<span class="text">' + esc(m.text) + "</span></li>";
    }).join("") : '<li class="muted" id="chat-empty">No messages yet.</li>');
    if (atEnd) box.scrollTop = box.scrollHeight;
    const can = !!(s.you && !closed && !s.you.muted);
    $("chat-form").hidden = !can;
    $("chat-reactions").hidden = !can;
    const note = $("chat-note");
    note.textContent = closed ? "The table is closed." : !s.you ? "Take a seat to chat; everyone watching reads along." :
      s.you.muted ? "The host has muted your chat at this table." : "";
    note.hidden = !note.textContent;
    if (!$("chat-reactions").dataset.built) {
      $("chat-reactions").dataset.built = "1";
      $("chat-reactions").innerHTML = REACTIONS.map(function (r, i) {
        return '<button type="button" data-reaction="' + r + '" aria-label="React: ' + REACTION_NAMES[i] + '">' + r + "</button>";
      }).join("");
    }
  }
  function chatError(msg) {
    const e = $("chat-error");
    e.hidden = !msg;
    e.textContent = msg || "";
    $("chat-text").setAttribute("aria-invalid", msg ? "true" : "false");
  }
  $("chat-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    const box = $("chat-text"), text = box.value;
    if (!text.trim()) return;
    api("/chat", {text: text}, {onError: chatError}).then(function (r) {
      if (!r) return;
      if (box.value === text) { box.value = ""; delete box.dataset.typed; }
    });
  });
  $("chat-reactions").addEventListener("click", function (ev) {
    const b = ev.target.closest("button[data-reaction]");
    if (b) api("/chat", {reaction: b.dataset.reaction}, {onError: chatError});
  });

  // Four Card Poker on a phone: when your result comes in, it shows above the docked bets
  function showMyResult(prev, s) {
    if (s.game !== "poker" || !s.you || resultKey(s) === resultKey(prev)) return;
    const r = document.querySelector("#seat-" + s.you.seat + " .result");
    const dockBox = $("my-actions");
    if (!r || !dockBox || getComputedStyle(dockBox).position !== "fixed") return;
    const top = dockBox.getBoundingClientRect().top, box = r.getBoundingClientRect();
    if (box.bottom > top - 4 || box.top < 0) r.scrollIntoView({block: box.height < top ? "end" : "start"});
  }

  // --------------------------------------------------------- Four Card Poker
  function trainerOn() { return localStorage.getItem("fourcards:trainer") === "1"; }

  function renderPoker(s) {
    const live = s.round;
    const show = (live.phase === "wagers" && s.last) ? s.last : live;
    let h = '<div class="felt" id="poker-table">';
    h += '<div class="box dealer" id="dealer"><h3>Dealer</h3>';
    if (show.dealer_cards) {
      h += cards(show.dealer_cards);
      h += '<p id="dealer-hand">' + esc(show.dealer_hand || "") + "</p>";
    } else if (show.up_card) {
      h += '<div class="cards">' + back(5) + card(show.up_card, "up") + '</div><p class="muted" id="up-card">Up card ' + pip(show.up_card) + "</p>";
    } else {
      h += '<p class="muted">Waiting for bets.</p>';
    }
    h += "</div>";
    h += '<p class="muted" id="round-status" tabindex="-1">' + statusPoker(s, show) + "</p>" + clockLine(s);
    h += '<div class="seats">';
    show.seats.forEach(function (e) {
      const me = s.you && s.you.seat === e.seat;
      h += '<div id="seat-' + e.seat + '" class="seat' + (me ? " me" : "") + (show.actor === e.seat ? " actor" : "") +
        (e.decision === "fold" ? " folded" : "") + '" data-seat="' + e.seat + '">';
      h += '<div class="name">' + esc(e.name) + (me ? ' <span class="badge">you</span>' : "") + "</div>";
      h += '<div class="muted">ante ' + e.ante + (e.aces_up ? " \u00b7 Aces Up " + e.aces_up : "") +
        (e.decision === "play" ? " \u00b7 play " + e.play : e.decision === "fold" ? " \u00b7 folded" : "") + "</div>";
      if (e.cards) h += '<div class="mycards">' + cards(e.cards, me ? "" : "sm") + "</div>";
      else if (show.up_card && (e.ante || e.aces_up)) h += '<div class="cards">' + back(5, "sm") + "</div>";
      if (e.result) {
        const r = e.result;
        h += '<div class="result" data-net="' + r.net + '">' + (r.player_hand ? esc(r.player_hand.description) + "<br>" : "") +
          '<table class="results">' + Object.keys(r.wagers).filter(function (k) { return r.wagers[k]; }).map(function (k) {
            return "<tr><td>" + k.replace("_", " ").replace("aces up", "Aces Up") + '</td><td class="' + (r.wagers[k] > 0 ? "win" : "lose") + '">' + signed(r.wagers[k]) + "</td></tr>";
          }).join("") + (r.win_cap_adjustment ? "<tr><td>win cap</td><td>" + r.win_cap_adjustment + "</td></tr>" : "") +
          '<tr><th scope="row">net</th><td class="' + (r.net >= 0 ? "win" : "lose") + '"><b>' + signed(r.net) + "</b></td></tr></table></div>";
      }
      h += "</div>";
    });
    h += "</div>";
    h += actionsBox(s, pokerActions(s));
    h += trainerBox(s);
    return h + "</div>";
  }

  // your actions (docked at the bottom of a phone while live); while the host has paused the
  // table they wait, greyed out, and the box says why
  function actionsBox(s, acts) {
    let html = acts.html, live = acts.live;
    if (s.paused && live) {
      html = '<p class="paused-note" id="paused-note">Paused by the host: your move waits until the host resumes.</p>' +
        html.replace(/<button /g, "<button disabled ");
      live = false;
    }
    return '<div class="box my-actions' + (live ? " live" : "") + '" id="my-actions" tabindex="-1" aria-label="Your actions">' + html + "</div>";
  }

  function statusPoker(s, show) {
    if (show !== s.round) {
      return "Round " + show.number + (show.phase === "voided" ? " was voided (" + esc(show.void_reason || "") + "): every wager returned." : " settled.") +
        " Round " + s.round.number + ": place your bets.";
    }
    if (show.phase === "wagers") return "Round " + show.number + ": place your bets; the host deals.";
    if (show.phase === "decisions") {
      if (myTurn(s)) return "Round " + show.number + ": <b>your turn</b> to fold or play.";
      const who = show.seats.filter(function (e) { return e.seat === show.actor; })[0];
      return "Round " + show.number + ": " + (who ? esc(who.name) : "seat " + show.actor) + " to fold or play.";
    }
    return "Round " + show.number + " " + show.phase + ".";
  }

  function pokerActions(s) {
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
          (a.same.ante ? "ante " + a.same.ante : "") + (a.same.ante && a.same.aces_up ? " \u00b7 " : "") +
          (a.same.aces_up ? "Aces Up " + a.same.aces_up : "") + "</button></div>";
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
          h += '<button type="button" class="primary" data-act="play" data-amount="' + (m * a.ante) + '" id="play-' + m + 'x">Play ' + m + "x (" + (m * a.ante) + ")</button>";
        });
      }
      h += "</div>";
      if (a && !a.amounts && a.max > a.min) {
        h += '<form id="play-form" class="actions"><label>Play bet <input type="number" inputmode="numeric" id="play-amount" min="' + a.min + '" max="' + a.max +
          '" value="' + a.min + '"></label><button type="submit" id="play-custom">Play</button></form>';
      }
    }
    if (!acts.length && s.you) h += '<p class="muted">' + (s.round.phase === "decisions" ? "Waiting for the others." : "Bets placed; waiting for the host to deal.") + "</p>";
    if (!s.you) h += '<p class="muted">Watching.</p>';
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

  // ---------------------------------------------------------- Four of a Kind
  function renderKind(s) {
    const d = s.deal || s.last;
    let h = '<div class="felt" id="kind-table">';
    if (!d) {
      h += '<p id="round-status" tabindex="-1">No deal in progress. ' + (s.players.length < s.min_players ? "At least " + s.min_players + " players are needed; then the host deals." : "The host deals next.") + "</p>";
      return h + "</div>";
    }
    const finished = !s.deal;
    if (!finished) h += cardEntry(s, d);  // the host's card picker first: where the host looks after Deal
    h += '<div class="box"><span class="pot" id="pot">Pot ' + (finished ? potTotal(d) : d.pot) + "</span>";
    if (!finished && d.pots.length > 1) h += ' <span class="muted">(' + d.pots.map(function (p, i) { return (i ? "side pot " + i : "main") + " " + p.amount; }).join(", ") + ")</span>";
    h += ' <span class="muted">\u00b7 deal ' + d.number + " \u00b7 " + (finished ? (d.voided ? "voided" : "finished") : d.phase + (d.phase === "betting" ? " round " + d.round_number + ", bet " + d.bet : "")) + " \u00b7 " + d.cards_in_deck + " cards in the deck</span>";
    if (d.last_turn) {
      h += '<div class="turned" id="last-turn">Turned ' + card(d.last_turn.card, "sm") + " " + (d.last_turn.to ? "\u2192 " + esc(d.last_turn.to_name) : "discarded") + "</div>";
    }
    h += "</div>";
    h += '<p id="round-status" tabindex="-1">' + kindStatus(s, d, finished) + "</p>" + clockLine(s);
    if (!finished) h += actFor(s, d) + referee(s, d);
    if (finished && d.awards && d.awards.length) {
      h += '<div class="box split" id="split"><b>Split:</b> ' + d.awards.map(function (a) {
        return esc(a.name) + " takes " + a.amount + " (" + a.share + (a.pot ? ", side pot " + a.pot : "") + ")";
      }).join("; ") + "</div>";
    } else if (finished && d.voided) {
      h += '<div class="box split" id="split">Voided: ' + esc(d.voided) + " \u2014 every chip returned.</div>";
    }
    h += '<div class="seats">';
    d.seats.forEach(function (e) {
      const me = s.you && s.you.seat === e.seat;
      h += '<div id="seat-' + e.seat + '" class="seat ' + e.status + (me ? " me" : "") + (d.actor === e.seat ? " actor" : "") + '" data-seat="' + e.seat + '">';
      h += '<div class="name">' + esc(e.name) + (d.button === e.seat ? ' <span class="badge btn" title="button" aria-label="button">D</span>' : "") +
        (me ? ' <span class="badge">you</span>' : "") + (e.forfeited ? ' <span class="badge">left: hand forfeited</span>' :
          e.status !== "active" ? ' <span class="badge">' + e.status.replace("_", "-") + "</span>" : "") + "</div>";
      h += cards(e.cards, "sm");
      h += '<div class="muted">stack ' + e.stack + " \u00b7 in " + e.contributed + (e.stake ? " \u00b7 this round " + e.stake : "") + "</div>";
      if (e.odds) {
        h += '<div class="odds" data-high="' + e.odds.p_high + '" data-low="' + e.odds.p_low + '">high ' + pct(e.odds.p_high) +
          '<div class="bar high" aria-hidden="true"><span style="width:' + pct(e.odds.p_high) + '"></span></div>low ' + pct(e.odds.p_low) +
          '<div class="bar low" aria-hidden="true"><span style="width:' + pct(e.odds.p_low) + '"></span></div></div>';
      }
      if (d.payoffs && d.payoffs[String(e.seat)] !== undefined) {
        const p = d.payoffs[String(e.seat)];
        h += '<div class="' + (p >= 0 ? "win" : "lose") + '">' + signed(p) + "</div>";
      }
      h += "</div>";
    });
    h += "</div>";
    h += actionsBox(s, kindActions(s));
    return h + "</div>";
  }

  function potTotal(d) { return (d.awards || []).reduce(function (t, a) { return t + a.amount; }, 0); }

  function kindStatus(s, d, finished) {
    if (finished) return "Deal " + d.number + " is over." + (s.host_actions && s.host_actions.indexOf("deal") >= 0 ? " Deal again when ready." : " The host deals the next one.");
    const who = d.seats.filter(function (e) { return e.seat === d.actor; })[0];
    const n = d.next_card;
    if (!who && n && s.dealing === "table") {
      return s.you && s.you.is_host ? "<b>Your turn to enter the next card</b> (below)." : "Waiting for the host to enter the next card.";
    }
    if (!who) return "The dealer turns cards\u2026";
    const mine = s.you && s.you.seat === d.actor;
    return mine ? "<b>Your turn</b>" + (d.to_call ? ": " + d.to_call + " to call" + (d.call_all_in ? " (all-in)" : "") : "") + "." :
      esc(who.name) + " to act.";
  }

  // ------------------------------------- the referee's view and real cards (rules.md FOAK-14 to FOAK-16)
  const RANKS = "AKQJT98765432".split("");
  const SUIT_KEYS = ["c", "d", "h", "s"];
  const SUIT_WORDS = {c: "clubs", d: "diamonds", h: "hearts", s: "spades"};
  const SUIT_SIGNS = {c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660"};
  function rankText(r) { return r === "T" ? "10" : r; }
  function optionText(a) {
    if (a.kind === "check" || a.kind === "fold") return a.kind;
    if (a.kind === "call") return "call " + a.min_amount + (a.all_in ? " (all-in)" : "");
    return a.kind + " " + a.min_amount + (a.max_amount > a.min_amount ? "\u2013" + a.max_amount : "");
  }
  function dealName(d, seat) {
    const e = d.seats.filter(function (x) { return x.seat === seat; })[0];
    return e ? e.name : "seat " + seat;
  }

  // what a referee tells the table: whose turn and their options, raises left, the next card, the unseen cards
  function referee(s, d) {
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
        return (i ? "side pot " + i : "main pot") + " " + p.amount + " (" + p.eligible.map(function (x) { return esc(dealName(d, x)); }).join(", ") + ")";
      }).join(" \u00b7 ") + "</p>";
    }
    if (d.unseen) {
      h += '<div class="unseen-box"><span class="muted" id="unseen-title">Unseen cards per rank:</span><ul class="unseen" id="unseen" aria-labelledby="unseen-title">' +
        RANKS.map(function (r) { return '<li data-rank="' + r + '"><span class="r">' + rankText(r) + '</span> <b>' + d.unseen[r] + "</b></li>"; }).join("") + "</ul></div>";
    }
    return h + "</div>";
  }

  // the host's card picker: rank, then suit (large targets), or the card typed
  let pickRank = null;
  function seenCards(d) {
    const seen = {};
    d.seats.forEach(function (e) { e.cards.forEach(function (c) { seen[c] = true; }); });
    (d.discards || []).forEach(function (c) { seen[c] = true; });
    return seen;
  }
  // a refused card is said next to the entry box (not in the banner far above), the typed text kept
  // (selected, to be corrected); an entered card clears the box
  let cardRefused = null;
  function cardEntry(s, d) {
    if (s.dealing !== "table" || !s.you || !s.you.is_host) return "";
    const n = d.next_card, t = d.take_back;
    if (!n && !t) return "";  // during the betting: no empty box
    let h = '<div class="box card-entry" id="card-entry" role="group" aria-labelledby="card-entry-title">';
    h += '<h3 id="card-entry-title">' + (!n ? "The last card entered" : n.step === "deal" ? "Enter the card dealt to " + esc(n.name) : "Enter the turned card") + "</h3>";
    if (n) {
      const seen = seenCards(d);
      h += '<div class="picker ranks" id="rank-picker">' + RANKS.map(function (r) {
        return '<button type="button" data-rank="' + r + '" id="rank-' + r + '" aria-pressed="' + (pickRank === r) + '">' + rankText(r) + "</button>";
      }).join("") + "</div>";
      h += '<div class="picker suits" id="suit-picker">' + SUIT_KEYS.map(function (k) {
        const c = pickRank ? pickRank + k : null;
        const off = !c || seen[c];
        return '<button type="button" class="' + (k === "d" || k === "h" ? "red" : "black") + '" data-suit="' + k + '" id="suit-' + k + '"' + (off ? " disabled" : "") +
          '><span aria-hidden="true">' + SUIT_SIGNS[k] + '</span><span class="sr-only">' + (pickRank ? rankText(pickRank) + " of " : "") + SUIT_WORDS[k] + "</span></button>";
      }).join("") + "</div>";
      h += '<form id="card-form" class="inline"><label for="card-text">Or type it</label><input id="card-text" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="e.g. 9c, 10h, T\u2665"' +
        ' aria-describedby="card-error"' + (cardRefused ? ' aria-invalid="true"' : "") + '>' +
        '<button type="submit" class="primary" id="card-enter">Enter</button></form>';
      h += '<p class="field-error card-error" id="card-error" role="alert"' + (cardRefused ? "" : " hidden") + ">" + esc(cardRefused || "") + "</p>";
    }
    if (t) {
      h += '<p><button type="button" id="take-back">Take back ' + pip(t.card) + (t.name ? " (" + esc(t.name) + ")" : "") + "</button></p>";
    }
    return h + "</div>";
  }
  // the host enters the move of a person at the table (one without a phone, say)
  function actFor(s, d) {
    if (s.dealing !== "table" || !s.you || !s.you.is_host || d.actor === null || d.actor === s.you.seat) return "";
    const who = s.players.filter(function (p) { return p.seat === d.actor; })[0];
    if (!who || who.is_bot) return "";
    let h = '<div class="box act-for" id="act-for"><h3 id="act-for-title">Enter ' + esc(who.name) + "\u2019s move</h3>" +
      '<div class="actions" role="group" aria-labelledby="act-for-title">';
    const call = (d.actor_actions || []).filter(function (a) { return a.kind === "call"; })[0];
    (d.actor_actions || []).forEach(function (a) {
      const k = a.kind;
      if (k === "bet" || k === "raise") {
        h += betForm("for-", a, d, call ? call.min_amount : 0, who.name);
      } else {
        h += '<button type="button" data-for="' + k + '" id="for-' + k + '">' + esc(optionText(a).replace(/^./, function (x) { return x.toUpperCase(); })) + "</button>";
      }
    });
    return h + "</div></div>";
  }
  // a turned card that completes four of a kind ends the deal and cannot be taken back: ask first
  function finishing(text) {
    const d = state && state.deal;
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
  function enterCards(text) {
    const hit = finishing(text);
    if (hit && !window.confirm("This card gives " + hit.name + " four of a kind: the deal ends and the pot is split at once, " +
      "and the card cannot be taken back. Enter it?")) return;
    const typed = $("card-text") && $("card-text").value.trim() === text;
    api("/cards", {cards: text}, {onError: function (msg) {
      cardRefused = msg;
      if (!msg) return;
      render(state, false, true);
      const box = $("card-text"), said = $("card-error");
      if (box && typed) { box.focus(); box.select(); }  // the text stays, ready to be corrected
      if (said) said.scrollIntoView({block: "nearest"});
    }}).then(function (r) {
      if (!r) return;
      pickRank = null;
      cardRefused = null;
      const box = $("card-text");
      if (box) { box.value = ""; delete box.dataset.typed; }
      render(state, false, true);
    });
  }
  game.addEventListener("click", function (ev) {
    const b = ev.target.closest("button[data-rank], button[data-suit], button[data-for], #take-back");
    if (!b || !state) return;
    if (b.dataset.rank) { pickRank = pickRank === b.dataset.rank ? null : b.dataset.rank; render(state, false, true); $("rank-" + b.dataset.rank).focus(); }
    else if (b.dataset.suit) { if (pickRank) enterCards(pickRank + b.dataset.suit); }
    else if (b.dataset.for) api("/seats/" + state.deal.actor + "/actions", {kind: b.dataset.for});
    else if (b.id === "take-back") api("/cards/take-back");
  });
  game.addEventListener("submit", function (ev) {
    const f = ev.target;
    if (f.id === "card-form") { const v = $("card-text").value.trim(); if (v) enterCards(v); }
    else if (f.dataset.forKind) api("/seats/" + state.deal.actor + "/actions", {kind: f.dataset.forKind, amount: Number($("for-amt-" + f.dataset.forKind).value || 0)});
  });

  function kindActions(s) {
    const acts = s.actions || [];
    if (!acts.length) return {html: '<p class="muted">' + (s.you ? "Waiting." : "Watching.") + "</p>", live: false};
    let h = '<div class="actions" id="kind-actions">';
    acts.forEach(function (a) {
      const k = a.kind;
      if (k === "check" || k === "fold") {
        h += '<button type="button" data-act="' + k + '" id="act-' + k + '">' + (k === "check" ? "Check" : "Fold") + "</button>";
      } else if (k === "call") {
        h += '<button type="button" class="primary" data-act="call" id="act-call">Call ' + a.min_amount + (a.all_in ? " (all-in)" : "") + "</button>";
      } else {
        h += betForm("", a, s.deal, s.deal.to_call || 0, null);
      }
    });
    return {html: h + "</div>", live: true};
  }

  // a bet or raise: its amount (chips above the current bet) with -/+ steppers and quick amounts -
  // the minimum, half the pot, the pot (as it will be after the call), the maximum - each brought
  // within the spread limit and the player's chips (the legal range the view gives)
  function quickAmounts(d, a, toCall) {
    const onTable = d.pot + d.seats.reduce(function (t, e) { return t + (e.stake || 0); }, 0) + toCall;
    const clamp = function (x) { return Math.max(a.min_amount, Math.min(a.max_amount, x)); };
    return [["min", "Min", a.min_amount], ["half", "\u00bd pot", clamp(Math.floor(onTable / 2))],
      ["pot", "Pot", clamp(onTable)], ["max", "Max", a.max_amount]];
  }
  function betStep(a) {  // one chip in a narrow spread, the minimum bet in a wide one
    const r = (state && state.table.rules) || {};
    return a.max_amount - a.min_amount > 20 ? Math.max(1, r.min_bet || 1) : 1;
  }
  function betForm(p, a, d, toCall, who) {
    const k = a.kind, word = k === "bet" ? "Bet" : "Raise", id = p + "amt-" + k;
    const range = a.min_amount + (a.max_amount > a.min_amount ? "\u2013" + a.max_amount : "");
    let h = '<form class="wager bet-form" data-' + (p ? "for-kind" : "kind") + '="' + k + '" id="' + p + "form-" + k + '">' +
      '<label for="' + id + '" class="sr-only">' + word + " amount" + (who ? " for " + esc(who) : "") + ", chips " + range + "</label>" +
      '<span class="stepper"><button type="button" class="step" data-step="-1" data-target="' + id + '" aria-label="' + word + ' one step less">\u2212</button>' +
      '<input type="number" inputmode="numeric" id="' + id + '" min="' + a.min_amount + '" max="' + a.max_amount + '" step="1" value="' + a.min_amount + '">' +
      '<button type="button" class="step" data-step="1" data-target="' + id + '" aria-label="' + word + ' one step more">+</button></span>';
    if (a.max_amount > a.min_amount) {
      h += '<span class="quick" role="group" aria-label="Quick ' + word.toLowerCase() + ' amounts">' + quickAmounts(d, a, toCall).map(function (q) {
        return '<button type="button" data-quick="' + q[2] + '" data-target="' + id + '" id="' + p + "quick-" + k + "-" + q[0] + '">' + q[1] + " " + q[2] + "</button>";
      }).join("") + "</span>";
    }
    return h + '<button type="submit" class="primary" id="' + (p ? "for-" + k : "act-" + k) + '">' + word + " " + range + "</button></form>";
  }
  game.addEventListener("click", function (ev) {
    const b = ev.target.closest("button[data-quick], button[data-step]");
    if (!b) return;
    const input = $(b.dataset.target);
    if (!input) return;
    const lo = Number(input.min), hi = Number(input.max);
    let v = b.dataset.quick !== undefined ? Number(b.dataset.quick)
      : (Number(input.value) || lo) + Number(b.dataset.step) * betStep({min_amount: lo, max_amount: hi});
    v = Math.max(lo, Math.min(hi, v));
    input.value = String(v);
    input.dataset.typed = "1";
  });

  connect();
})();
