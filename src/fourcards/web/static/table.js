// fourcards table page: join by name, live state over a websocket, actions over REST.
// The seat token lives in localStorage (per table) and is sent only to this server.
(function () {
  "use strict";
  const app = document.getElementById("app");
  const tableId = app.dataset.tableId;
  const GAME = app.dataset.game;
  const tokenKey = "fourcards:token:" + tableId;
  // a seat handed to this phone by the host arrives as /t/<id>#token=... (never sent to the server in the URL)
  const handed = /[#&]token=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (handed) {
    localStorage.setItem(tokenKey, handed[1]);
    history.replaceState(null, "", window.location.pathname);
  }
  let token = localStorage.getItem(tokenKey);
  let state = null;
  let ws = null;
  let retry = 500;
  const $ = function (id) { return document.getElementById(id); };
  const SUITS = {c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660"};
  const RED = {d: true, h: true};

  $("share-link").value = window.location.origin + "/t/" + tableId;
  $("copy-link").addEventListener("click", function () {
    $("share-link").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("share-link").value);
  });

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }
  function card(c, extra) {
    const r = c.slice(0, -1), s = c.slice(-1);
    const rank = r === "T" ? "10" : r;
    return '<span class="card ' + (RED[s] ? "red" : "black") + (extra ? " " + extra : "") +
      '" data-card="' + esc(c) + '" title="' + esc(c) + '">' + esc(rank) + '<span class="suit">' + SUITS[s] + "</span></span>";
  }
  // a card named in text: rank and suit symbol in the card's colour ("2\u2660")
  function pip(c) {
    const r = c.slice(0, -1), s = c.slice(-1);
    return '<span class="pip ' + (RED[s] ? "red" : "black") + '" data-card="' + esc(c) + '">' +
      esc(r === "T" ? "10" : r) + (SUITS[s] || esc(s)) + "</span>";
  }
  function back(n, extra) {
    let h = "";
    for (let i = 0; i < n; i++) h += '<span class="card back' + (extra ? " " + extra : "") + '"></span>';
    return h;
  }
  function cards(list, extra) { return '<div class="cards">' + list.map(function (c) { return card(c, extra); }).join("") + "</div>"; }
  function pct(x) { return (100 * x).toFixed(1) + "%"; }
  function signed(n) { return (n > 0 ? "+" : "") + n; }

  function showError(msg) {
    const e = $("error");
    if (!msg) { e.hidden = true; return; }
    e.textContent = msg;
    e.hidden = false;
  }

  async function api(path, body) {
    const headers = {"Content-Type": "application/json"};
    if (token) headers["X-Seat-Token"] = token;
    const res = await fetch("/api/tables/" + tableId + path, {method: "POST", headers: headers,
      body: body === undefined ? "{}" : JSON.stringify(body)});
    let data = {};
    try { data = await res.json(); } catch (e) { data = {detail: res.statusText}; }
    if (!res.ok) { showError(data.detail || ("error " + res.status)); return null; }
    showError(null);
    if (data.type === "state") render(data);
    return data;
  }
  function act(body) { return api("/actions", body); }

  // ------------------------------------------------------------ connection
  function connect() {
    const proto = window.location.protocol === "https:" ? "wss:" : "ws:";
    const q = token ? "?token=" + encodeURIComponent(token) : "";
    ws = new WebSocket(proto + "//" + window.location.host + "/ws/tables/" + tableId + q);
    ws.onopen = function () { retry = 500; $("conn").textContent = "live"; };
    ws.onmessage = function (ev) {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") render(msg);
      else if (msg.type === "error") {
        showError(msg.detail);
        if (msg.status === 403 && token) { localStorage.removeItem(tokenKey); token = null; }
      }
    };
    ws.onclose = function () {
      $("conn").textContent = "reconnecting\u2026";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  $("join-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    const name = $("join-name").value;
    const res = await fetch("/api/tables/" + tableId + "/seats", {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: name})});
    const data = await res.json();
    if (!res.ok) { showError(data.detail); return; }
    showError(null);
    token = data.token;  // a seat's, or (202) the one it gets once the host approves
    localStorage.setItem(tokenKey, token);
    localStorage.setItem("fourcards:name", data.name);
    if (ws) { ws.onclose = null; ws.close(); }
    connect();
  });
  const savedName = localStorage.getItem("fourcards:name");
  if (savedName) $("join-name").value = savedName;

  $("host-deal").addEventListener("click", function () { api("/deal"); });
  $("host-bots").addEventListener("click", function () {
    const kind = $("host-bot-kind").value;
    api("/bots", kind ? {count: 1, kind: kind} : {count: 1});
  });
  $("host-void").addEventListener("click", function () {
    const reason = window.prompt("Void this deal and return every wager. Reason (the host's ruling):", "host ruling");
    if (reason) api("/void", {reason: reason});
  });

  // ---------------------------------------------------------------- render
  function render(s) {
    if (state && s.version < state.version && s.you && state.you) return;  // stale
    state = s;
    $("share-link").value = s.table.invite_url || (window.location.origin + "/t/" + tableId);
    $("join").hidden = !!s.you || !!s.request;
    const req = $("my-request");
    req.hidden = !s.request;
    if (s.request) req.textContent = s.request.status === "denied" ? "The host turned down your request for a seat." :
      "Waiting for the host to let you sit down\u2026";
    $("requests").innerHTML = (s.requests || []).map(function (r) {
      return '<li data-request="' + r.id + '">' + esc(r.name) + (r.kind === "seat" ? (r.returning ? " asks for their seat back" : " asks for a seat") :
        " asks to top up " + r.amount + " chips") + ' <button type="button" data-decide="1" data-request="' + r.id + '">Approve</button>' +
        ' <button type="button" data-decide="0" data-request="' + r.id + '">Turn down</button></li>';
    }).join("");
    document.querySelectorAll("[data-decide]").forEach(function (b) {
      b.addEventListener("click", function () { api("/requests/" + b.dataset.request, {approve: b.dataset.decide === "1"}); });
    });
    const ha = s.host_actions || [];
    $("host").hidden = ha.length === 0 && !(s.you && s.you.is_host);
    $("host-deal").hidden = ha.indexOf("deal") < 0;
    $("host-bots").hidden = ha.indexOf("add_bots") < 0;
    const kinds = s.bot_kinds || [], pick = $("host-bot-kind");
    pick.hidden = $("host-bots").hidden || kinds.length < 2;
    if (pick.dataset.kinds !== kinds.join(",")) {  // the bot choices: built-in bots and plug-ins
      pick.dataset.kinds = kinds.join(",");
      pick.innerHTML = kinds.map(function (k) { return '<option value="' + esc(k) + '">' + esc(k) + "</option>"; }).join("");
    }
    $("host-void").hidden = ha.indexOf("void") < 0;
    $("table-rules").textContent = s.table.game_title + " \u00b7 " + rulesText(s.table.rules);
    $("players").innerHTML = s.players.map(function (p) {
      const me = s.you && s.you.seat === p.seat;
      return '<li class="' + (me ? "me" : "") + '" data-seat="' + p.seat + '">Seat ' + p.seat + ": " + esc(p.name) +
        (p.is_host ? ' <span class="muted">(host)</span>' : "") + (p.is_bot ? ' <span class="muted">(bot)</span>' : "") +
        (me ? ' <span class="muted">(you)</span>' : "") + ' \u2014 <span class="balance">' + p.balance + "</span> chips</li>";
    }).join("");
    $("log").innerHTML = s.log.map(function (l) { return "<li>" + esc(l) + "</li>"; }).join("");
    $("log").scrollTop = $("log").scrollHeight;
    if (s.game === "poker") renderPoker(s); else renderKind(s);
  }

  function rulesText(r) {
    if (GAME === "poker") {
      return r.name + " \u00b7 ante bonus " + r.ante_bonus + " \u00b7 Aces Up " + r.aces_up + " \u00b7 play " +
        (r.play_any_amount ? r.min_play_multiple + "x\u2013" + r.max_play_multiple + "x" :
          r.play_multiples.map(function (m) { return m + "x"; }).join(" or ")) + " the ante" +
        (r.win_cap ? " \u00b7 win cap " + r.win_cap : "");
    }
    return (r.name || "family") + " \u00b7 ante " + r.ante + " \u00b7 bets/raises " + r.min_bet + "\u2013" + r.max_bet + " \u00b7 raise cap " + r.max_raises;
  }

  // --------------------------------------------------------- Four Card Poker
  function trainerOn() { return localStorage.getItem("fourcards:trainer") === "1"; }

  function renderPoker(s) {
    const game = $("game");
    const live = s.round;
    const show = (live.phase === "wagers" && s.last) ? s.last : live;
    let h = '<div class="felt" id="poker-table">';
    h += '<div class="box dealer" id="dealer"><h3>Dealer</h3>';
    if (show.dealer_cards) {
      h += cards(show.dealer_cards.map(function (c) { return c; }));
      h += '<p id="dealer-hand">' + esc(show.dealer_hand || "") + "</p>";
    } else if (show.up_card) {
      h += '<div class="cards">' + back(5) + card(show.up_card, "up") + '</div><p class="muted" id="up-card">Up card ' + pip(show.up_card) + "</p>";
    } else {
      h += '<p class="muted">Waiting for bets.</p>';
    }
    h += "</div>";
    h += '<p class="muted" id="round-status">' + statusPoker(s, show) + "</p>";
    h += '<div class="seats">';
    show.seats.forEach(function (e) {
      const me = s.you && s.you.seat === e.seat;
      h += '<div class="seat' + (me ? " me" : "") + (show.actor === e.seat ? " actor" : "") + '" data-seat="' + e.seat + '">';
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
          '<tr><th>net</th><th class="' + (r.net >= 0 ? "win" : "lose") + '">' + signed(r.net) + "</th></tr></table></div>";
      }
      h += "</div>";
    });
    h += "</div>";
    h += '<div class="box" id="my-actions">' + pokerActions(s) + "</div>";
    h += "</div>";
    game.innerHTML = h;
    bindPoker(s);
  }

  function statusPoker(s, show) {
    if (show !== s.round) {
      return "Round " + show.number + (show.phase === "voided" ? " was voided (" + esc(show.void_reason || "") + "): every wager returned." : " settled.") +
        " Round " + s.round.number + ": place your bets.";
    }
    if (show.phase === "wagers") return "Round " + show.number + ": place your bets; the host deals.";
    if (show.phase === "decisions") {
      const who = show.seats.filter(function (e) { return e.seat === show.actor; })[0];
      return "Round " + show.number + ": " + (who ? esc(who.name) : "seat " + show.actor) + " to fold or play.";
    }
    return "Round " + show.number + " " + show.phase + ".";
  }

  function pokerActions(s) {
    let h = "";
    const acts = s.actions || [];
    acts.forEach(function (a) {
      if (a.kind === "wager") {
        h += '<form id="wager-form" class="actions"><label>Ante <input type="number" name="ante" id="ante" min="0" max="' + a.ante_max + '" value="' + Math.min(Math.max(a.ante_min, 10), a.ante_max) + '"></label>' +
          '<label>Aces Up <input type="number" name="aces_up" id="aces-up" min="0" max="' + a.aces_up_max + '" value="0"></label>' +
          '<button type="submit" class="primary" id="place-bets">Place bets</button></form>';
      } else if (a.kind === "withdraw") {
        h += '<p class="muted">Bets placed; waiting for the host to deal.</p><button type="button" id="withdraw">Take back my bets</button>';
      } else if (a.kind === "fold") {
        h += '<div class="actions" id="decision"><button type="button" id="fold" data-act="fold">Fold</button>';
      } else if (a.kind === "play") {
        const mults = a.amounts ? a.amounts.map(function (x) { return x / a.ante; }) : [];
        if (!a.amounts) for (let m = 1; m * a.ante <= a.max; m++) mults.push(m);
        mults.forEach(function (m) {
          h += '<button type="button" class="primary" data-act="play" data-amount="' + (m * a.ante) + '" id="play-' + m + 'x">Play ' + m + "x (" + (m * a.ante) + ")</button>";
        });
        if (!a.amounts && a.max > a.min) {
          h += '<label>Play bet <input type="number" id="play-amount" min="' + a.min + '" max="' + a.max + '" value="' + a.min + '"></label><button type="button" id="play-custom">Play</button>';
        }
        h += "</div>";
      }
    });
    if (acts.length && acts[0].kind === "fold" && acts.length === 1) h += "</div>";
    if (!acts.length && s.you) h += '<p class="muted">' + (s.round.phase === "decisions" ? "Waiting for the others." : "Bets placed; waiting for the host to deal.") + "</p>";
    h += '<label class="toggle"><input type="checkbox" id="trainer-toggle"' + (trainerOn() ? " checked" : "") + "> Trainer</label>";
    if (trainerOn()) {
      const t = s.trainer;
      if (!s.trainer_available) h += '<div class="trainer" id="trainer">Trainer: analysis not available.</div>';
      else if (t && t.status === "ok") {
        const good = t.ev_lost <= 1e-9;
        h += '<div class="trainer' + (good ? " good" : "") + '" id="trainer"><b>Trainer:</b> ' + esc(t.hand) + ". Optimal: <b>" + esc(t.optimal.replace("_", " ")) +
          "</b>; you chose " + esc(t.chosen.replace("_", " ")) + ". " + (good ? "That is optimal." : "EV given up: " + t.ev_lost.toFixed(4) + " antes (" + t.ev_lost_chips.toFixed(2) + " chips).") +
          '<br><span class="muted-dark">EV per ante: ' + Object.keys(t.ev).map(function (k) { return esc(k.replace("_", " ")) + " " + t.ev[k].toFixed(3); }).join(", ") + "</span></div>";
      } else if (t) h += '<div class="trainer" id="trainer">Trainer: ' + esc(t.message || t.status) + "</div>";
      else h += '<div class="trainer" id="trainer">Trainer: decide, then see the optimal decision and the EV given up.</div>';
    }
    return h;
  }

  function bindPoker(s) {
    const wf = $("wager-form");
    if (wf) wf.addEventListener("submit", function (ev) {
      ev.preventDefault();
      act({kind: "wager", ante: Number($("ante").value || 0), aces_up: Number($("aces-up").value || 0)});
    });
    document.querySelectorAll("[data-act=play]").forEach(function (b) {
      b.addEventListener("click", function () { act({kind: "play", amount: Number(b.dataset.amount), trainer: trainerOn()}); });
    });
    const wd = $("withdraw");
    if (wd) wd.addEventListener("click", function () { act({kind: "withdraw"}); });
    const pc = $("play-custom");
    if (pc) pc.addEventListener("click", function () { act({kind: "play", amount: Number($("play-amount").value), trainer: trainerOn()}); });
    const f = $("fold");
    if (f) f.addEventListener("click", function () { act({kind: "fold", trainer: trainerOn()}); });
    const tt = $("trainer-toggle");
    if (tt) tt.addEventListener("change", function () {
      localStorage.setItem("fourcards:trainer", tt.checked ? "1" : "0");
      render(state);
    });
  }

  // ---------------------------------------------------------- Four of a Kind
  function renderKind(s) {
    const d = s.deal || s.last;
    let h = '<div class="felt" id="kind-table">';
    if (!d) {
      h += '<p id="round-status">No deal yet. ' + (s.players.length < s.min_players ? "At least " + s.min_players + " players are needed; " : "") + "the host deals.</p></div>";
      $("game").innerHTML = h;
      return;
    }
    const finished = !s.deal;
    h += '<div class="box"><span class="pot" id="pot">Pot ' + (finished ? potTotal(d) : d.pot) + "</span>";
    if (!finished && d.pots.length > 1) h += ' <span class="muted">(' + d.pots.map(function (p, i) { return (i ? "side pot " + i : "main") + " " + p.amount; }).join(", ") + ")</span>";
    h += ' <span class="muted">\u00b7 deal ' + d.number + " \u00b7 " + (finished ? (d.voided ? "voided" : "finished") : d.phase + (d.phase === "betting" ? " round " + d.round_number + ", bet " + d.bet : "")) + " \u00b7 " + d.cards_in_deck + " cards in the deck</span>";
    if (d.last_turn) {
      h += '<div class="turned" id="last-turn">Turned ' + card(d.last_turn.card, "sm") + " " + (d.last_turn.to ? "\u2192 " + esc(d.last_turn.to_name) : "discarded") + "</div>";
    }
    h += "</div>";
    h += '<p id="round-status">' + kindStatus(s, d, finished) + "</p>";
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
      h += '<div class="seat ' + e.status + (me ? " me" : "") + (d.actor === e.seat ? " actor" : "") + '" data-seat="' + e.seat + '">';
      h += '<div class="name">' + esc(e.name) + (d.button === e.seat ? ' <span class="badge btn" title="button">D</span>' : "") +
        (me ? ' <span class="badge">you</span>' : "") + (e.status !== "active" ? ' <span class="badge">' + e.status.replace("_", "-") + "</span>" : "") + "</div>";
      h += cards(e.cards, "sm");
      h += '<div class="muted">stack ' + e.stack + " \u00b7 in " + e.contributed + (e.stake ? " \u00b7 this round " + e.stake : "") + "</div>";
      if (e.odds) {
        h += '<div class="odds" data-high="' + e.odds.p_high + '" data-low="' + e.odds.p_low + '">high ' + pct(e.odds.p_high) +
          '<div class="bar high"><span style="width:' + pct(e.odds.p_high) + '"></span></div>low ' + pct(e.odds.p_low) +
          '<div class="bar low"><span style="width:' + pct(e.odds.p_low) + '"></span></div></div>';
      }
      if (d.payoffs && d.payoffs[String(e.seat)] !== undefined) {
        const p = d.payoffs[String(e.seat)];
        h += '<div class="' + (p >= 0 ? "win" : "lose") + '">' + signed(p) + "</div>";
      }
      h += "</div>";
    });
    h += "</div>";
    h += '<div class="box" id="my-actions">' + kindActions(s) + "</div></div>";
    $("game").innerHTML = h;
    bindKind();
  }

  function potTotal(d) { return (d.awards || []).reduce(function (t, a) { return t + a.amount; }, 0); }

  function kindStatus(s, d, finished) {
    if (finished) return "Deal " + d.number + " is over." + (s.host_actions && s.host_actions.indexOf("deal") >= 0 ? " Deal again when ready." : " The host deals the next one.");
    const who = d.seats.filter(function (e) { return e.seat === d.actor; })[0];
    if (!who) return "The dealer turns cards\u2026";
    const mine = s.you && s.you.seat === d.actor;
    return mine ? "<b>Your turn</b>" + (d.to_call ? ": " + d.to_call + " to call" : "") + "." : esc(who.name) + " to act.";
  }

  function kindActions(s) {
    const acts = s.actions || [];
    if (!acts.length) return '<p class="muted">' + (s.you ? "Waiting." : "Watching.") + "</p>";
    let h = '<div class="actions" id="kind-actions">';
    acts.forEach(function (a) {
      const k = a.kind;
      if (k === "check" || k === "fold") {
        h += '<button type="button" data-kind="' + k + '" id="act-' + k + '">' + (k === "check" ? "Check" : "Fold") + "</button>";
      } else if (k === "call") {
        h += '<button type="button" class="primary" data-kind="call" id="act-call">Call ' + a.min_amount + (a.all_in ? " (all-in)" : "") + "</button>";
      } else {
        h += '<span class="wager"><input type="number" id="amt-' + k + '" min="' + a.min_amount + '" max="' + a.max_amount + '" value="' + a.min_amount + '" aria-label="' + k + ' amount">' +
          '<button type="button" class="primary" data-kind="' + k + '" id="act-' + k + '">' + (k === "bet" ? "Bet" : "Raise") + " " + a.min_amount + (a.max_amount > a.min_amount ? "\u2013" + a.max_amount : "") + "</button></span>";
      }
    });
    return h + "</div>";
  }

  function bindKind() {
    document.querySelectorAll("#kind-actions button[data-kind]").forEach(function (b) {
      b.addEventListener("click", function () {
        const k = b.dataset.kind;
        const body = {kind: k};
        if (k === "bet" || k === "raise") body.amount = Number($("amt-" + k).value);
        act(body);
      });
    });
  }

  connect();
})();
