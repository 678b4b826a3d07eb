// fourcards payout checker: the form posts to /api/poker/settle (the same settlement as
// `fourcards poker settle --json`) and shows each wager's result, the win cap, the net and
// both best four-card hands. A refusal (422) is shown next to the input it names; nothing
// is computed here but the words ("win", "lose", "N to 1") around the server's chips.
(function () {
  "use strict";
  const $ = function (id) { return document.getElementById(id); };
  const C = window.fourcardsCards;
  const esc = C.esc;
  const root = $("checker-app");
  const tableId = root.dataset.tableId || null;
  const RULES = JSON.parse($("checker-rules").textContent);
  const LABELS = JSON.parse($("checker-labels").textContent);  // the rules in words ("Casino rules: play 1x-3x")
  const FIELDS = ["player", "dealer", "up", "ante", "aces_up", "play"];
  const LINES = {ante: "Ante", play: "Play bet", ante_bonus: "Ante bonus", aces_up: "Aces Up"};

  function chips(n) { return (n > 0 ? "+" : n < 0 ? "\u2212" : "") + Math.abs(n).toLocaleString("en-US"); }
  function plain(n) { return n.toLocaleString("en-US"); }
  function currentRules() { return tableId ? RULES.table : RULES[$("rules").value]; }
  function currentLabel() { return tableId ? LABELS.table : LABELS[$("rules").value]; }
  function describeRules() {
    const r = currentRules();
    const play = r.play_any_amount ? "any whole amount from " + r.min_play_multiple + "x to " + r.max_play_multiple + "x the ante"
      : r.play_multiples.map(function (m) { return m + "x"; }).join(" or ") + " the ante";
    $("rules-summary").textContent = currentLabel() + "; ante bonus " + r.ante_bonus + ", Aces Up " + r.aces_up +
      "; play bet " + play + "; Aces Up " + (r.aces_up_requires_ante ? "needs an ante" : "alone allowed") + "; " +
      (r.win_cap === null ? "no win cap" : "win cap " + plain(r.win_cap) + " chips") + ".";
  }
  if (!tableId) $("rules").addEventListener("change", describeRules);
  describeRules();

  function decision() { return document.querySelector("input[name=decision]:checked").value; }
  function syncPlay() { $("play").disabled = decision() !== "play"; }
  document.querySelectorAll("input[name=decision]").forEach(function (r) { r.addEventListener("change", syncPlay); });
  syncPlay();

  function clearErrors() {
    FIELDS.forEach(function (f) {
      $(f + "-error").hidden = true;
      $(f + "-error").textContent = "";
      $(f).removeAttribute("aria-invalid");
    });
    $("checker-error").hidden = true;
  }
  function showError(message, field) {
    $("result").hidden = true;
    $("checker-error").textContent = message;
    $("checker-error").hidden = false;
    if (field && FIELDS.indexOf(field) >= 0) {
      $(field + "-error").textContent = message;
      $(field + "-error").hidden = false;
      $(field).setAttribute("aria-invalid", "true");
      $(field).focus();
    }
  }
  // a whole number of chips, or null for an empty field; a string: what is wrong
  function wholeChips(id, label) {
    const v = $(id).value.trim();
    if (v === "") return null;
    if (!/^[0-9]+$/.test(v)) return label + " must be a whole number of chips (0 or more), got " + JSON.stringify(v);
    return Number(v);
  }

  function body() {
    const b = {player: $("player").value, dealer: $("dealer").value, fold: false};
    if ($("up").value.trim()) b.up = $("up").value.trim();
    if (tableId) b.table = tableId; else b.rules = $("rules").value;
    const wagers = [["ante", "the ante"], ["aces_up", "the Aces Up bet"]];
    if (decision() === "play") wagers.push(["play", "the play bet"]);
    for (let i = 0; i < wagers.length; i++) {
      const v = wholeChips(wagers[i][0], wagers[i][1]);
      if (typeof v === "string") return {error: v, field: wagers[i][0]};
      b[wagers[i][0]] = v;
    }
    if (b.ante === null) b.ante = 0;
    if (b.aces_up === null) b.aces_up = 0;
    if (decision() === "fold") b.fold = true;
    return {body: b};
  }

  function wagerRow(line, stake, won, result, note) {
    return '<tr data-line="' + line + '" data-chips="' + won + '" data-result="' + esc(result) + '"><th scope="row">' +
      LINES[line] + "</th><td>" + (stake === null ? "" : plain(stake)) + "</td><td>" + esc(result + (note || "")) + '</td><td class="' +
      (won > 0 ? "win" : won < 0 ? "lose" : "") + '">' + chips(won) + "</td></tr>";
  }
  function plainResult(stake, won) {
    if (!stake) return "no bet";
    return won > 0 ? "win" : won < 0 ? "lose" : "push";
  }
  function render(d, sent, rules) {
    const w = d.wagers;
    const aceAt = sent.ante ? d.wagers.ante_bonus / sent.ante : 0;
    let outcome;
    if (d.decision === "fold") outcome = "The player folds: the ante is lost, no ante bonus; Aces Up is settled on the player's hand.";
    else if (d.decision === "none") outcome = "No ante: the Aces Up bet alone, settled on the player's hand.";
    else if (d.tie) outcome = "A tie: the player's best four equals the dealer's, and ties go to the player, so the ante and the play bet win even money.";
    else if (d.outcome === "win") outcome = "The player's hand beats the dealer's: the ante and the play bet win even money.";
    else outcome = "The dealer's hand is better: the ante and the play bet lose.";
    let bonus;
    if (d.decision !== "play") bonus = d.decision === "fold" ? "not paid (fold)" : "no ante";
    else bonus = w.ante_bonus > 0 ? "paid " + aceAt + " to 1" : "not paid";
    let aces = plainResult(sent.aces_up, w.aces_up);
    if (w.aces_up > 0) aces = "win, " + (w.aces_up / sent.aces_up) + " to 1";
    const wins = Object.keys(w).reduce(function (s, k) { return s + Math.max(0, w[k]); }, 0);
    function hand(title, id, h) {
      const cards = h.cards.map(function (c) { return C.card(c, d.dealer_up && c === d.dealer_up ? "up" : ""); }).join("");
      return '<div class="best" id="' + id + '"><h3>' + title + '</h3><div class="cards">' + cards + '</div><p class="hand-name">' +
        esc(h.description) + "</p></div>";
    }
    let h = '<p id="outcome">' + esc(outcome) + "</p>";
    h += '<div class="hands">' + hand("Player's best four", "player-best", d.player_hand) +
      hand("Dealer's best four", "dealer-best", d.dealer_hand) + "</div>";
    h += '<table class="settlement" id="payout"><caption class="sr-only">Each wager\'s result in chips</caption>' +
      '<thead><tr><th scope="col">Wager</th><th scope="col">Bet</th><th scope="col">Result</th><th scope="col">Chips</th></tr></thead><tbody>';
    const tie = d.tie ? " (a tie: the player's)" : "";
    h += wagerRow("ante", sent.ante, w.ante, d.decision === "fold" ? "lose (fold)" : plainResult(sent.ante, w.ante), sent.ante ? tie : "");
    h += wagerRow("play", sent.play || 0, w.play, plainResult(sent.play || 0, w.play), sent.play ? tie : "");
    h += wagerRow("ante_bonus", null, w.ante_bonus, bonus);
    h += wagerRow("aces_up", sent.aces_up, w.aces_up, aces);
    if (rules.win_cap !== null || d.win_cap_adjustment) {
      const capped = d.win_cap_adjustment ? "wins " + plain(wins) + " capped at " + plain(wins + d.win_cap_adjustment)
        : "wins " + plain(wins) + ", within the cap of " + plain(rules.win_cap);
      h += '<tr data-line="win_cap" data-chips="' + d.win_cap_adjustment + '" data-result="' + esc(capped) +
        '"><th scope="row">Win cap</th><td></td><td>' + esc(capped) + '</td><td class="' +
        (d.win_cap_adjustment ? "lose" : "") + '">' + chips(d.win_cap_adjustment) + "</td></tr>";
    }
    h += "</tbody><tfoot>" + '<tr data-line="net" data-chips="' + d.net + '"><th scope="row">Net</th><td colspan="2">' +
      (d.net > 0 ? "the player wins " + plain(d.net) : d.net < 0 ? "the player loses " + plain(-d.net) : "even") +
      '</td><td id="net">' + chips(d.net) + "</td></tr></tfoot></table>";
    h += '<p class="hint">' + esc(currentLabel()) + ". The house's result is " + chips(-d.net) + ".</p>";
    $("result-body").innerHTML = h;
    $("result").hidden = false;
    $("result").focus();
  }

  let busy = false;
  $("checker-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    if (busy) return;
    clearErrors();
    const b = body();
    if (b.error) { showError(b.error, b.field); return; }
    busy = true;
    $("check-btn").disabled = true;
    try {
      const res = await fetch("/api/poker/settle", {method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify(b.body)});
      let data = {};
      try { data = await res.json(); } catch (e) { data = {detail: res.statusText}; }
      if (!res.ok) { showError(data.detail || ("error " + res.status), data.field); return; }
      data.dealer_up = b.body.up ? normalise(b.body.up) : null;
      render(data, b.body, currentRules());
    } catch (e) {
      showError("The server could not be reached: " + e.message);
    } finally {
      busy = false;
      $("check-btn").disabled = false;
    }
  });

  // "10♥", "th", "T♡" -> "Th" (to mark the up card among the dealer's best four)
  function normalise(t) {
    const SUIT = {"c": "c", "d": "d", "h": "h", "s": "s", "\u2663": "c", "\u2667": "c", "\u2666": "d", "\u2662": "d",
      "\u2665": "h", "\u2661": "h", "\u2660": "s", "\u2664": "s"};
    let r = t.slice(0, -1).toUpperCase();
    if (r === "10") r = "T";
    return r + (SUIT[t.slice(-1).toLowerCase()] || "");
  }
})();
