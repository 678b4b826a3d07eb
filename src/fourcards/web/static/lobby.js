// fourcards lobby: create a table (REST), remember the host's seat token, go to the table.
(function () {
  "use strict";
  const form = document.getElementById("create-form");
  const err = document.getElementById("create-error");
  const saved = localStorage.getItem("fourcards:name");
  if (saved) document.getElementById("host_name").value = saved;

  function game() { return form.querySelector("input[name=game]:checked").value; }
  function syncGame() {
    document.querySelectorAll(".game-opts").forEach(function (el) { el.hidden = el.dataset.game !== game(); });
  }
  form.querySelectorAll("input[name=game]").forEach(function (r) { r.addEventListener("change", syncGame); });
  syncGame();

  function num(name) {
    const v = form.elements[name].value.trim();
    return v === "" ? null : Number(v);
  }
  function text(name) {
    const v = form.elements[name].value.trim();
    return v === "" ? null : v;
  }

  form.addEventListener("submit", async function (ev) {
    ev.preventDefault();
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
    ["bots", "starting_chips"].forEach(function (k) { if (num(k) !== null) body[k] = num(k); });
    if (g === "poker") {
      body.preset = form.elements.poker_preset.value;
      ["ante_bonus", "aces_up"].forEach(function (k) { if (text(k) !== null) body.rules[k] = text(k); });
      ["min_ante", "max_ante"].forEach(function (k) { if (num(k) !== null) body.rules[k] = num(k); });
      if (num("bot_ante") !== null) body.bot_ante = num("bot_ante");
    } else {
      body.preset = form.elements.kind_preset.value;
      ["ante", "min_bet", "max_bet", "max_raises"].forEach(function (k) { if (num(k) !== null) body.rules[k] = num(k); });
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
    }
  });
})();
