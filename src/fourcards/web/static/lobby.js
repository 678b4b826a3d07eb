// fourcards lobby: create a table (REST; in a club with ?club=id), remember the host's seat token, go to the table.
(function () {
  "use strict";
  const form = document.getElementById("create-form");
  const err = document.getElementById("create-error");
  const saved = localStorage.getItem("fourcards:name");
  if (saved) document.getElementById("host_name").value = saved;

  function game() { return form.querySelector("input[name=game]:checked").value; }
  // bot seats default per game until the host types a number: Four of a Kind needs four players to deal
  const bots = form.elements.bots;
  let botsTyped = false;
  bots.addEventListener("input", function () { botsTyped = true; });
  // with real cards the players are people at the table: no bots unless the host types a number
  function syncGame() {
    document.querySelectorAll(".game-opts").forEach(function (el) { el.hidden = el.dataset.game !== game(); });
    if (!botsTyped) bots.value = game() === "kind" ? (form.elements.dealing.checked ? "0" : "3") : "2";
  }
  form.querySelectorAll("input[name=game]").forEach(function (r) { r.addEventListener("change", syncGame); });
  form.elements.dealing.addEventListener("change", syncGame);
  syncGame();

  // a night of a club (/?club=id, from the club's page): the table counts for that club
  const clubId = new URLSearchParams(window.location.search).get("club");
  if (clubId) {
    fetch("/api/clubs/" + encodeURIComponent(clubId)).then(function (r) { return r.ok ? r.json() : null; }).then(function (c) {
      const note = document.getElementById("club-note");
      note.textContent = c ? "This table counts for the club " + c.name + "." : "There is no such club: check its link.";
      note.hidden = false;
    }).catch(function () { /* the server says so when the table is made */ });
  }

  function num(name) {
    const v = form.elements[name].value.trim();
    return v === "" ? null : Number(v);
  }
  function text(name) {
    const v = form.elements[name].value.trim();
    return v === "" ? null : v;
  }

  let sending = false;  // one table per click, however often it is clicked
  form.addEventListener("submit", async function (ev) {
    ev.preventDefault();
    if (sending) return;
    sending = true;
    err.hidden = true;
    const g = game();
    const body = {
      game: g,
      host_name: form.elements.host_name.value,
      rules: {},
    };
    if (text("name") !== null) body.name = text("name");
    // send what was typed (an empty field is left out: the server's default);
    // the server checks it and its message is shown below the form
    ["bots", "starting_chips", "turn_clock"].forEach(function (k) { if (num(k) !== null) body[k] = num(k); });
    if (form.elements.public.checked) body.public = true;
    if (clubId) body.club = clubId;
    if (g === "poker") {
      body.preset = form.elements.poker_preset.value;
      ["ante_bonus", "aces_up"].forEach(function (k) { if (text(k) !== null) body.rules[k] = text(k); });
      ["min_ante", "max_ante"].forEach(function (k) { if (num(k) !== null) body.rules[k] = num(k); });
      if (num("bot_ante") !== null) body.bot_ante = num("bot_ante");
    } else {
      body.preset = form.elements.kind_preset.value;
      ["ante", "min_bet", "max_bet", "max_raises"].forEach(function (k) { if (num(k) !== null) body.rules[k] = num(k); });
      if (form.elements.dealing.checked) body.dealing = "table";
    }
    try {
      const res = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                              body: JSON.stringify(body)});
      const data = await res.json();
      if (!res.ok) throw new Error(data.detail || res.statusText);
      localStorage.setItem("fourcards:token:" + data.table.id, data.token);
      localStorage.setItem("fourcards:name", data.name);
      window.location.href = data.join_url;
    } catch (e) {
      err.textContent = e.message;
      err.hidden = false;
    } finally {
      sending = false;
    }
  });

  // Your tables: the ones this browser holds a seat token for (private tables are listed nowhere else)
  function esc(x) {
    return String(x).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }
  async function mine() {
    const tokens = {};
    let n = 0;
    for (let i = 0; i < localStorage.length && n < 200; i++) {
      const k = localStorage.key(i);
      if (k && k.indexOf("fourcards:token:") === 0) { tokens[k.slice(16)] = localStorage.getItem(k); n++; }
    }
    if (!n) return;
    let data;
    try {
      const res = await fetch("/api/tables/mine", {method: "POST", headers: {"Content-Type": "application/json"},
                                                   body: JSON.stringify({tokens: tokens})});
      if (!res.ok) return;
      data = await res.json();
    } catch (e) { return; }
    if (!data.tables.length) return;
    document.getElementById("my-tables").innerHTML = data.tables.map(function (t) {
      const where = t.status === "closed" ? "closed" : t.you ? "seat " + t.you.seat + ", " + t.you.balance.toLocaleString("en-US") + " chips" + (t.you.is_host ? ", host" : "")
        : t.request ? "waiting for the host" : "";
      return '<li><a href="' + esc(t.status === "closed" ? t.history_url : t.join_url) + '">' + esc(t.name) + '</a> <span class="muted">' +
        esc(t.game_title) + (where ? " \u00b7 " + esc(where) : "") + (t.public ? " \u00b7 public" : " \u00b7 private") + "</span></li>";
    }).join("");
    document.getElementById("mine").hidden = false;
  }
  mine();
})();
