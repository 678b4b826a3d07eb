// fourcards replay: a finished deal step by step (GET /api/tables/{id}/deals/{n}/replay), as this
// browser's seat may see it - its own cards, never a folded hand of another seat (the server decides:
// docs/web.md "Security"). Shared by the history page and one hand's page (/t/{id}/h/{n}):
// window.fourcardsReplay.create({tableId, game, word, token, onError}) -> {open(number, focus)}.
// The page holds the markup of templates/_replay.html.
(function () {
  "use strict";
  const $ = function (id) { return document.getElementById(id); };
  const C = window.fourcardsCards;
  const esc = C.esc, chips = C.chips, signed = C.signed;
  function net(n) { return '<span class="' + (n >= 0 ? "win" : "lose") + '">' + signed(n) + "</span>"; }

  function create(opts) {
    let replay = null, step = 0;
    const word = opts.word;

    async function open(number, focus) {
      const url = "/api/tables/" + opts.tableId + "/deals/" + number + "/replay";
      try {
        let res = await fetch(url, {headers: opts.token ? {"X-Seat-Token": opts.token} : {}});
        // a token of nobody seated here any more (a closed table): the deal as a spectator sees it
        if (res.status === 403 && opts.token) res = await fetch(url);
        let data = {};
        try { data = await res.json(); } catch (e) { data = {detail: res.statusText}; }
        if (!res.ok) throw new Error(data.detail || ("error " + res.status));
        replay = data;
      } catch (e) { opts.onError(e.message); return false; }
      opts.onError("");
      step = 0;
      $("replay").hidden = false;
      $("replay-title").textContent = "Replay of " + word.toLowerCase() + " " + number;
      show();
      if (focus) $("step-next").focus();
      return true;
    }
    function name(player) {
      const p = replay.players.filter(function (x) { return x.player === player; })[0];
      return p ? p.name : "seat " + (player + 1);
    }
    function show() {
      const n = replay.steps.length;
      if (!n) { $("step-status").textContent = "This " + word.toLowerCase() + " has no steps to show."; return; }
      const st = replay.steps[step];
      $("step-status").textContent = "Step " + (step + 1) + " of " + n + (st.lines.length ? ": " + st.lines.join("; ") : "");
      $("step-first").disabled = $("step-prev").disabled = step === 0;
      $("step-next").disabled = $("step-last").disabled = step === n - 1;
      $("replay-table").innerHTML = opts.game === "poker" ? pokerView(st.view) : kindView(st.view);
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
    return {open: open};
  }
  window.fourcardsReplay = {create: create};
})();
