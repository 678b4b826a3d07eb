// fourcards history page: the night's settlement, the table's deals, and a finished deal
// replayed step by step (as this browser's seat may see it: its own cards, never a folded
// hand of another seat). Reads /api/tables/{id}/settlement, /deals and /deals/{n}/replay.
(function () {
  "use strict";
  const $ = function (id) { return document.getElementById(id); };
  const root = $("history-app");
  const tableId = root.dataset.tableId;
  const GAME = root.dataset.game;
  const WORD = root.dataset.word;  // "Round" (Four Card Poker) or "Deal" (Four of a Kind)
  const token = localStorage.getItem("fourcards:token:" + tableId);
  const C = window.fourcardsCards;
  const esc = C.esc, signed = C.signed;
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
  async function settlement() {
    const s = await get("/settlement");
    let h = '<table class="settlement" id="settlement-table"><caption class="sr-only">Chips per person for the night</caption>' +
      '<thead><tr><th scope="col">Name</th><th scope="col">Bought in</th><th scope="col">Top-ups</th>' +
      '<th scope="col">Cashed out</th><th scope="col">Stack</th><th scope="col">Net</th></tr></thead><tbody>';
    s.players.forEach(function (p) {
      h += '<tr><th scope="row">' + esc(p.name) + (p.is_bot ? ' <span class="muted">(bot)</span>' : "") +
        (p.status === "left" ? ' <span class="muted">(left)</span>' : "") + "</th><td>" + p.bought_in + "</td><td>" + p.top_ups +
        "</td><td>" + p.cashed_out + "</td><td>" + p.stack + '</td><td data-net="' + p.net + '">' + net(p.net) + "</td></tr>";
    });
    h += "</tbody><tfoot>";
    if (s.house !== null) h += '<tr><th scope="row">The house</th><td colspan="4"></td><td data-net="' + s.house + '">' + net(s.house) + "</td></tr>";
    if (s.in_play) h += '<tr><th scope="row">In play (a deal in progress)</th><td colspan="4"></td><td>' + s.in_play + "</td></tr>";
    h += '<tr><th scope="row">Total</th><td colspan="4"></td><td id="settlement-total">' + s.total + "</td></tr></tfoot></table>";
    $("settlement").innerHTML = h;
  }

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
      h += '<div class="muted">ante ' + p.ante + (p.aces_up ? " \u00b7 Aces Up " + p.aces_up : "") +
        (p.decision === "play" ? " \u00b7 play " + p.play : p.decision === "fold" ? " \u00b7 folded" : "") + "</div>";
      if (p.cards) h += C.cards(p.cards, "sm");
      else if (v.up_card && (p.ante || p.aces_up)) h += '<div class="cards">' + C.back(5, "sm") + "</div>";
      if (p.result) h += "<div>" + (p.result.player_hand ? esc(p.result.player_hand.description) + " " : "") + net(p.result.net) + "</div>";
      h += "</div>";
    });
    return h + "</div>";
  }

  function kindView(v) {
    let h = '<div class="box"><span class="pot">Pot ' + v.pot + '</span> <span class="muted">\u00b7 ' + esc(v.phase) +
      " \u00b7 " + v.cards_in_deck + " cards in the deck</span></div><div class=\"seats\">";
    v.seats.forEach(function (e) {
      h += '<div class="seat ' + esc(e.status) + (v.actor === e.seat ? " actor" : "") + '"><div class="name">' + esc(name(e.seat)) +
        (v.button === e.seat ? ' <span class="badge btn" aria-label="button">D</span>' : "") +
        (e.status !== "active" ? ' <span class="badge">' + esc(e.status.replace("_", "-")) + "</span>" : "") + "</div>" +
        C.cards(e.cards, "sm") + '<div class="muted">stack ' + e.stack + " \u00b7 in " + e.contributed + "</div></div>";
    });
    return h + "</div>";
  }

  Promise.all([settlement(), deals()]).then(function () {
    const m = /[?&]deal=(\d+)/.exec(window.location.search);
    if (m) openReplay(Number(m[1]), false);
  }).catch(function (e) { showError(e.message); });
})();
