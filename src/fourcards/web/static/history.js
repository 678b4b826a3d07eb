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
      return '<li data-from="' + esc(t.from.name) + '" data-to="' + esc(t.to.name) + '" data-amount="' + t.amount + '">' + esc(t.text) +
        (t.to.handle ? ' <span class="handle">\u00b7 ' + esc(t.to.name) + ": <b>" + esc(t.to.handle) + "</b></span>" : "") + "</li>";
    }).join("") + "</ol>" : '<p id="transfers-none">Nobody owes anybody anything.</p>';
    h += '<p class="hint">' + u.transfers.length + " transfer" + (u.transfers.length === 1 ? "" : "s") +
      (u.minimum ? ": the fewest that settle everyone." : ", at most one fewer than the people settling.") + "</p>";
    $("settle-up").innerHTML = h;
    $("settle-method").textContent = u.method.algorithm + (u.method.rounding ? " " + u.method.rounding : "");
    upText = u.text || "";
    $("copy-settle-up").hidden = !upText;
    return u;
  }
  function netMoney(p) {
    return '<span class="' + (p.amount >= 0 ? "win" : "lose") + '">' + esc(p.money) + "</span>";
  }

  async function terms(u) {
    let players = [];
    if (token) {  // the seated host (at a closed table the settle-up says so)
      // a closed table has no seats left to read (/state would answer 403): its bank is the host's or the bank's
      if (root.dataset.status !== "closed") {
        try {
          const v = await get("/state");
          isHost = isHost || !!(v.you && v.you.is_host);
          players = v.players;
          if (v.you) myHandle = v.you.handle || "";
        } catch (e) { /* not seated any more */ }
      }
      // anyone who holds a token here (seated, or gone from a closed table) may add a payment handle
      $("handle-form").hidden = false;
      if (myHandle && !$("handle").value) $("handle").value = myHandle;
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
      if (!c) { $("club-form").hidden = !isHost; return; }
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
      return h + '</span> <span class="buttons"><button type="button" data-deal="' + x.number + '" aria-label="Replay ' + title + '">Replay</button>' +
        '<a href="/t/' + esc(tableId) + "/h/" + x.number + '" aria-label="Link to ' + title + ' (to share)">Link</a></span></li>';
    }).join("");
  }
  $("deals").addEventListener("click", function (ev) {
    const b = ev.target.closest("button[data-deal]");
    if (b) openReplay(Number(b.dataset.deal), true);
  });

  // ---------------------------------------------------------------- replay
  // replay.js (shared with one hand's page): step by step, as this browser's seat may see it
  const replay = window.fourcardsReplay.create({tableId: tableId, game: GAME, word: WORD, token: token, onError: showError});
  async function openReplay(number, focus) {
    if (await replay.open(number, focus)) window.history.replaceState(null, "", "?deal=" + number);
  }

  // --------------------------------------------------------- the night in numbers
  // kept with the table as each deal is settled (GET /numbers): played, won, biggest pot, folds, luck
  function luck(x) {
    const text = (x > 0 ? "+" : x < 0 ? "\u2212" : "") + Math.abs(x).toLocaleString("en-US", {minimumFractionDigits: 1, maximumFractionDigits: 1});
    return '<span class="' + (x >= 0 ? "win" : "lose") + '">' + text + "</span>";
  }
  async function numbers() {
    const n = await get("/numbers");
    if (!n.people.length) { $("numbers").innerHTML = '<p class="muted">No ' + WORD.toLowerCase() + " has been settled yet.</p>"; return; }
    const kind = GAME === "kind";
    let h = '<table class="settlement cards-on-phone" id="numbers-table"><caption class="sr-only">The night in numbers per person</caption><thead><tr>' +
      '<th scope="col">Name</th><th scope="col">Played</th><th scope="col">Won</th>' +
      (kind ? '<th scope="col">High</th><th scope="col">Low</th>' : "") + '<th scope="col">Biggest pot</th><th scope="col">Folds</th>' +
      '<th scope="col"><abbr title="Chips the cards gave or took, against the exact odds">Luck</abbr></th></tr></thead><tbody>';
    // each cell names its column (data-label): on a phone each person's row is a card of labelled numbers
    function td(label, x) { return '<td data-label="' + label + '">' + x + "</td>"; }
    n.people.forEach(function (p) {
      h += '<tr data-name="' + esc(p.name) + '"><th scope="row">' + esc(p.name) + (p.is_bot ? ' <span class="muted">(bot)</span>' : "") + "</th>" +
        td("Played", chips(p.played)) + td("Won", chips(p.won)) + (kind ? td("High", chips(p.high)) + td("Low", chips(p.low)) : "") +
        td("Biggest pot", chips(p.biggest_pot)) + td("Folds", chips(p.folds)) +
        '<td data-label="Luck" data-luck="' + p.luck + '">' + luck(p.luck) + "</td></tr>";
    });
    $("numbers").innerHTML = h + "</tbody></table>";
  }

  // ------------------------------------------------ your payment handle, the settle-up as text
  let upText = "", myHandle = "";
  $("copy-settle-up").addEventListener("click", async function () {
    let ok = false;
    try { if (navigator.clipboard) { await navigator.clipboard.writeText(upText); ok = true; } } catch (e) { ok = false; }
    $("copied").textContent = ok ? "Copied." : "Copy it from here: " + upText;
  });
  $("handle-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    $("handle-error").hidden = true;
    const res = await fetch("/api/tables/" + tableId + "/handle", {method: "POST",
      headers: {"Content-Type": "application/json", "X-Seat-Token": token || ""}, body: JSON.stringify({handle: $("handle").value})});
    let data = {};
    try { data = await res.json(); } catch (e) { data = {detail: res.statusText}; }
    if (!res.ok) { $("handle-error").textContent = data.detail || ("error " + res.status); $("handle-error").hidden = false; return; }
    $("handle").value = data.handle || "";
    await settleUp();
  });

  // ------------------------------------------------------- add the night to a club
  $("club-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    $("club-error").hidden = true;
    const m = /(?:\/c\/)?([a-z0-9]{1,16})\/?\s*$/.exec($("club-id").value.trim());
    if (!m) { $("club-error").textContent = "Paste the club's link (\u2026/c/ and its id) or its id."; $("club-error").hidden = false; return; }
    const res = await fetch("/api/tables/" + tableId + "/club", {method: "POST",
      headers: {"Content-Type": "application/json", "X-Seat-Token": token || ""}, body: JSON.stringify({club: m[1]})});
    let data = {};
    try { data = await res.json(); } catch (e) { data = {detail: res.statusText}; }
    if (!res.ok) { $("club-error").textContent = data.detail || ("error " + res.status); $("club-error").hidden = false; return; }
    $("club-form").hidden = true;
    await club();
  });

  settleUp().then(terms).then(club).catch(function (e) { showError(e.message); });
  numbers().catch(function (e) { showError(e.message); });
  Promise.all([settlement(), deals()]).then(function () {
    const m = /[?&]deal=(\d+)/.exec(window.location.search);
    if (m) openReplay(Number(m[1]), false);
  }).catch(function (e) { showError(e.message); });
})();
