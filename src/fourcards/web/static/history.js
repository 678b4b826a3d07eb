// fourcards history page: the night's settlement, the table's deals, and a finished deal
// replayed step by step (as this browser's seat may see it: its own cards, never a folded
// hand of another seat); who pays whom (/settle-up, and the host's terms), the club the night
// counts for and the hand-history downloads. Reads /api/tables/{id}/settlement, /settle-up,
// /club, /deals, /deals/{n}/replay and /hands.jsonl|.txt.
(function () {
  "use strict";
  const $ = function (id) { return document.getElementById(id); };
  const root = $("history-app");
  const tableId = root.dataset.tableId;
  const GAME = root.dataset.game;
  const WORD = root.dataset.word;  // "Round" (Four Card Poker) or "Deal" (Four of a Kind)
  const token = localStorage.getItem("fourcards:token:" + tableId);
  const C = window.fourcardsCards;
  const esc = C.esc, signed = C.signed, chips = C.chips;
  C.applyDeck($("four-colour"));

  function showError(msg) { $("error").textContent = msg; $("error").hidden = !msg; }
  async function get(path) {
    const headers = token ? {"X-Seat-Token": token} : {};
    const res = await fetch("/api/tables/" + tableId + path, {headers: headers});
    let data = {};
    try { data = await res.json(); } catch (e) { data = {detail: res.statusText}; }
    if (!res.ok) throw new Error(data.detail || ("error " + res.status));
    return data;
  }
  function net(n) { return '<span class="' + (n >= 0 ? "win" : "lose") + '">' + signed(n) + "</span>"; }

  // ------------------------------------------------------------ settlement
  // The people's rows, then the bank: bots play with its chips (and the house's result is its
  // own at Four Card Poker), so the people's nets and the bank's add up to zero.
  function row(p, attr) {
    return '<tr><th scope="row">' + esc(p.name) + (p.is_bot ? ' <span class="muted">(bot)</span>' : "") +
      (p.status === "left" ? ' <span class="muted">(left)</span>' : "") + "</th><td>" + chips(p.bought_in) + "</td><td>" + chips(p.top_ups) +
      "</td><td>" + chips(p.cashed_out) + "</td><td>" + chips(p.stack) + "</td><td " + attr + '="' + p.net + '">' + net(p.net) + "</td></tr>";
  }
  async function settlement() {
    const s = await get("/settlement");
    let h = '<table class="settlement" id="settlement-table"><caption class="sr-only">Chips per person for the night</caption>' +
      '<thead><tr><th scope="col">Name</th><th scope="col">Bought in</th><th scope="col">Top-ups</th>' +
      '<th scope="col">Cashed out</th><th scope="col">Stack</th><th scope="col">Net</th></tr></thead><tbody>';
    s.players.forEach(function (p) { if (!p.is_bot) h += row(p, "data-net"); });
    h += "</tbody>";
    const bank = s.bank;
    if (bank.bots.length || bank.house !== null) {
      h += '<tbody class="bank">';
      s.players.forEach(function (p) { if (p.is_bot) h += row(p, "data-bank-part"); });
      if (bank.house !== null) h += '<tr><th scope="row">The house</th><td colspan="4"></td><td data-bank-part="' + bank.house + '">' + net(bank.house) + "</td></tr>";
      h += '<tr class="bank-line"><th scope="row">The bank <span class="muted">(' + (bank.bots.length ? "the bots" : "") +
        (bank.bots.length && bank.house !== null ? " and " : "") + (bank.house !== null ? "the house" : "") + ')</span></th><td colspan="4"></td>' +
        '<td id="bank-net" data-net="' + bank.net + '">' + net(bank.net) + "</td></tr></tbody>";
    }
    h += "<tfoot>";
    if (s.in_play) h += '<tr><th scope="row">In play (a deal in progress)</th><td colspan="4"></td><td>' + chips(s.in_play) + "</td></tr>";
    h += '<tr><th scope="row">Total</th><td colspan="4"></td><td id="settlement-total">' + chips(s.total) + "</td></tr></tfoot></table>";
    $("settlement").innerHTML = h;
  }

  // ------------------------------------------------------------ who pays whom
  let isHost = false;
  async function settleUp() {
    let u;
    try {
      u = await get("/settle-up");
    } catch (e) {  // chips in play: settle up when the deal ends
      $("settle-up").innerHTML = '<p class="muted">' + esc(e.message) + "</p>";
      $("bank-words").textContent = "";
      $("chip-value").textContent = "";
      return null;
    }
    if (u.you && u.you.host) isHost = true;
    $("bank-words").textContent = u.bank.words;
    $("chip-value").textContent = u.chip_value ? "At " + u.chip_value + "." :
      "In chips: the host may set a chip value (e.g. 100 chips = 1.00 \u20ac).";
    let h = '<table class="settlement" id="settle-parties"><caption class="sr-only">What each person pays or receives</caption>' +
      '<thead><tr><th scope="col">Name</th><th scope="col">Net, chips</th><th scope="col">Pays (\u2212) or receives</th></tr></thead><tbody>';
    u.parties.forEach(function (p) {
      h += '<tr><th scope="row">' + esc(p.kind === "bank" ? "The bank" : p.name) +
        (p.holds_bank ? ' <span class="muted">(holds the bank: ' + esc(signed(u.bank.net)) + ")</span>" : "") + "</th><td>" +
        esc(signed(p.net)) + '</td><td data-amount="' + p.amount + '">' + netMoney(p) + "</td></tr>";
    });
    h += '</tbody><tfoot><tr><th scope="row">Total</th><td></td><td id="settle-total">' + chips(u.total) + "</td></tr></tfoot></table>";
    h += u.transfers.length ? '<ol class="transfers" id="transfers">' + u.transfers.map(function (t) {
      return '<li data-from="' + esc(t.from.name) + '" data-to="' + esc(t.to.name) + '" data-amount="' + t.amount + '">' + esc(t.text) + "</li>";
    }).join("") + "</ol>" : '<p id="transfers-none">Nobody owes anybody anything.</p>';
    h += '<p class="hint">' + u.transfers.length + " transfer" + (u.transfers.length === 1 ? "" : "s") +
      (u.minimum ? ": the fewest that settle everyone." : ", at most one fewer than the people settling.") + "</p>";
    $("settle-up").innerHTML = h;
    $("settle-method").textContent = u.method.algorithm + (u.method.rounding ? " " + u.method.rounding : "");
    return u;
  }
  function netMoney(p) {
    return '<span class="' + (p.amount >= 0 ? "win" : "lose") + '">' + esc(p.money) + "</span>";
  }

  async function terms(u) {
    let players = [];
    if (token) {  // the seated host (at a closed table the settle-up says so)
      try {
        const v = await get("/state");
        isHost = isHost || !!(v.you && v.you.is_host);
        players = v.players;
      } catch (e) { /* not seated any more */ }
    }
    if (!isHost) return;
    const sel = $("banker");
    while (sel.options.length > 2) sel.remove(2);
    players.forEach(function (p) {
      if (p.is_bot || !p.seat) return;
      const o = document.createElement("option");
      o.value = String(p.seat);
      o.textContent = p.name + " (seat " + p.seat + ")";
      sel.appendChild(o);
    });
    if (u) {
      const b = u.terms.banker;
      sel.value = b === "bank" ? "bank" : b === "host" ? "host" : String((u.parties.filter(function (x) { return x.player_id === b; })[0] || {}).seat || "host");
      if (u.terms.chips) {
        $("value-chips").value = u.terms.chips;
        $("value-money").value = Math.floor(u.terms.cents / 100) + "." + String(u.terms.cents % 100).padStart(2, "0");
        $("value-currency").value = u.terms.currency;
      }
    }
    $("terms-form").hidden = false;
  }
  function cents(text) {  // "1.00", "1,5", "2" -> whole cents (never a float)
    const m = /^\s*(\d{1,4})(?:[.,](\d{1,2}))?\s*$/.exec(text);
    if (!m) return null;
    return Number(m[1]) * 100 + Number(((m[2] || "") + "00").slice(0, 2));
  }
  async function sendTerms(body) {
    $("terms-error").hidden = true;
    const res = await fetch("/api/tables/" + tableId + "/settle-up", {method: "POST",
      headers: {"Content-Type": "application/json", "X-Seat-Token": token || ""}, body: JSON.stringify(body)});
    let data = {};
    try { data = await res.json(); } catch (e) { data = {detail: res.statusText}; }
    if (!res.ok) { $("terms-error").textContent = data.detail || ("error " + res.status); $("terms-error").hidden = false; return; }
    await settleUp();
  }
  $("terms-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    const body = {banker: /^\d+$/.test($("banker").value) ? Number($("banker").value) : $("banker").value};
    const chips = $("value-chips").value.trim(), money = $("value-money").value.trim();
    if (chips || money) {
      const c = cents(money);
      if (!/^\d+$/.test(chips) || c === null || c < 1) {
        $("terms-error").textContent = "The chip value: a whole number of chips and what they are worth, such as 100 chips = 1.00 (two decimals at most).";
        $("terms-error").hidden = false;
        (/^\d+$/.test(chips) ? $("value-money") : $("value-chips")).focus();
        return;
      }
      body.chip_value = {chips: Number(chips), cents: c, currency: $("value-currency").value.trim() || "\u20ac"};
    }
    sendTerms(body);
  });
  $("terms-chips").addEventListener("click", function () {
    $("value-chips").value = $("value-money").value = $("value-currency").value = "";
    sendTerms({chip_value: null});
  });

  // ------------------------------------------------------- club, hand histories
  async function club() {
    try {
      const c = (await get("/club")).club;
      if (!c) return;
      $("club-link").textContent = c.name;
      $("club-link").href = c.url;
      $("club-line").hidden = false;
    } catch (e) { /* no club */ }
  }
  async function download(format) {
    const headers = token ? {"X-Seat-Token": token} : {};
    try {
      const res = await fetch("/api/tables/" + tableId + "/hands." + format, {headers: headers});
      if (!res.ok) throw new Error((await res.json()).detail || res.statusText);
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = "fourcards-" + tableId + "-hands." + format;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
    } catch (e) { showError(e.message); }
  }
  $("hands-jsonl").addEventListener("click", function () { download("jsonl"); });
  $("hands-txt").addEventListener("click", function () { download("txt"); });

  // ----------------------------------------------------------------- deals
  async function deals() {
    const d = await get("/deals");
    if (!d.deals.length) { $("deals").innerHTML = '<li class="muted">No ' + WORD.toLowerCase() + "s yet.</li>"; return; }
    $("deals").innerHTML = d.deals.map(function (x) {
      const title = WORD + " " + x.number;
      let h = '<li id="deal-' + x.number + '"><span><b>' + title + "</b> ";
      if (x.status === "in_progress") return h + '<span class="muted">in progress</span></span></li>';
      h += x.status === "voided" ? '<span class="muted">voided' + (x.void_reason ? " (" + esc(x.void_reason) + ")" : "") + "</span> "
        : (x.players || []).filter(function (p) { return p.net; }).map(function (p) {
          return esc(p.name || "someone") + " " + net(p.net);
        }).join(", ");
      return h + '</span> <button type="button" data-deal="' + x.number + '" aria-label="Replay ' + title + '">Replay</button></li>';
    }).join("");
  }
  $("deals").addEventListener("click", function (ev) {
    const b = ev.target.closest("button[data-deal]");
    if (b) openReplay(Number(b.dataset.deal), true);
  });

  // ---------------------------------------------------------------- replay
  let replay = null, step = 0;
  async function openReplay(number, focus) {
    try {
      replay = await get("/deals/" + number + "/replay");
    } catch (e) { showError(e.message); return; }
    showError("");
    step = 0;
    $("replay").hidden = false;
    $("replay-title").textContent = "Replay of " + WORD.toLowerCase() + " " + number;
    window.history.replaceState(null, "", "?deal=" + number);
    show();
    if (focus) $("step-next").focus();
  }
  function name(player) {
    const p = replay.players.filter(function (x) { return x.player === player; })[0];
    return p ? p.name : "seat " + (player + 1);
  }
  function show() {
    const n = replay.steps.length;
    if (!n) { $("step-status").textContent = "This " + WORD.toLowerCase() + " has no steps to show."; return; }
    const st = replay.steps[step];
    $("step-status").textContent = "Step " + (step + 1) + " of " + n + (st.lines.length ? ": " + st.lines.join("; ") : "");
    $("step-first").disabled = $("step-prev").disabled = step === 0;
    $("step-next").disabled = $("step-last").disabled = step === n - 1;
    $("replay-table").innerHTML = GAME === "poker" ? pokerView(st.view) : kindView(st.view);
    let log = "";
    replay.steps.slice(0, step + 1).forEach(function (x, i) {
      x.lines.forEach(function (l) { log += "<li" + (i === step ? ' class="now"' : "") + ">" + esc(l) + "</li>"; });
    });
    $("replay-log").innerHTML = log;
  }
  function go(to) {
    if (!replay) return;
    step = Math.max(0, Math.min(replay.steps.length - 1, to));
    show();
    // keep the keyboard on a button that still does something
    if (document.activeElement && document.activeElement.disabled) (step === 0 ? $("step-next") : $("step-prev")).focus();
  }
  $("step-first").addEventListener("click", function () { go(0); });
  $("step-prev").addEventListener("click", function () { go(step - 1); });
  $("step-next").addEventListener("click", function () { go(step + 1); });
  $("step-last").addEventListener("click", function () { go(Infinity); });

  function pokerView(v) {
    let h = '<div class="box dealer"><h3>Dealer</h3>';
    if (v.dealer_cards) h += C.cards(v.dealer_cards) + "<p>" + esc(v.dealer_hand || "") + "</p>";
    else if (v.up_card) h += '<div class="cards">' + C.back(5) + C.card(v.up_card, "up") + "</div>";
    else h += '<p class="muted">No cards yet.</p>';
    h += '</div><div class="seats">';
    replay.players.forEach(function (who) {
      const p = v.players[who.player];
      if (!p) return;
      h += '<div class="seat' + (v.actor === who.player ? " actor" : "") + (p.decision === "fold" ? " folded" : "") + '"><div class="name">' + esc(who.name) + "</div>";
      h += '<div class="muted">ante ' + chips(p.ante) + (p.aces_up ? " \u00b7 Aces Up " + chips(p.aces_up) : "") +
        (p.decision === "play" ? " \u00b7 play " + chips(p.play) : p.decision === "fold" ? " \u00b7 folded" : "") + "</div>";
      if (p.cards) h += C.cards(p.cards, "sm");
      else if (v.up_card && (p.ante || p.aces_up)) h += '<div class="cards">' + C.back(5, "sm") + "</div>";
      if (p.result) h += "<div>" + (p.result.player_hand ? esc(p.result.player_hand.description) + " " : "") + net(p.result.net) + "</div>";
      h += "</div>";
    });
    return h + "</div>";
  }

  function kindView(v) {
    let h = '<div class="box"><span class="pot">Pot ' + chips(v.pot) + '</span> <span class="muted">\u00b7 ' + esc(v.phase) +
      " \u00b7 " + v.cards_in_deck + " cards in the deck</span></div><div class=\"seats\">";
    v.seats.forEach(function (e) {
      h += '<div class="seat ' + esc(e.status) + (v.actor === e.seat ? " actor" : "") + '"><div class="name">' + esc(name(e.seat)) +
        (v.button === e.seat ? ' <span class="badge btn" aria-label="button">D</span>' : "") +
        (e.status !== "active" ? ' <span class="badge">' + esc(e.status.replace("_", "-")) + "</span>" : "") + "</div>" +
        C.cards(e.cards, "sm") + '<div class="muted">stack ' + chips(e.stack) + " \u00b7 in " + chips(e.contributed) + "</div></div>";
    });
    return h + "</div>";
  }

  club();
  settleUp().then(terms).catch(function (e) { showError(e.message); });
  Promise.all([settlement(), deals()]).then(function () {
    const m = /[?&]deal=(\d+)/.exec(window.location.search);
    if (m) openReplay(Number(m[1]), false);
  }).catch(function (e) { showError(e.message); });
})();
