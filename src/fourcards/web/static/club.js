// fourcards clubs: make a club (/clubs/new: the owner's token is kept in localStorage) and a
// club's page (/c/{id}: standings across nights, each night's results, members; the owner may
// list members and take a night out). Reads /api/clubs/{id} and /api/clubs/{id}/standings.
(function () {
  "use strict";
  const $ = function (id) { return document.getElementById(id); };
  function esc(x) {
    return String(x).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }
  const GROUPED = new Intl.NumberFormat("en-US", {maximumFractionDigits: 0});  // "8,400", as the README writes it
  function signed(n) { return n > 0 ? "+" + GROUPED.format(n) : n < 0 ? "\u2212" + GROUPED.format(-n) : "0"; }
  function net(n) { return '<span class="' + (n >= 0 ? "win" : "lose") + '">' + signed(n) + "</span>"; }
  const TENTHS = new Intl.NumberFormat("en-US", {minimumFractionDigits: 1, maximumFractionDigits: 1});
  function luck(x) {  // chips, to a tenth: an expectation is a fraction of a chip
    return '<span class="' + (x >= 0 ? "win" : "lose") + '">' + (x > 0 ? "+" : x < 0 ? "\u2212" : "") + TENTHS.format(Math.abs(x)) + "</span>";
  }
  function names(text) { return text.split(/[\n,]/).map(function (x) { return x.trim(); }).filter(Boolean); }
  async function call(method, path, body, headers) {
    const res = await fetch(path, {method: method, headers: Object.assign({"Content-Type": "application/json"}, headers || {}),
                                   body: body === undefined ? undefined : JSON.stringify(body)});
    let data = {};
    try { data = await res.json(); } catch (e) { data = {detail: res.statusText}; }
    if (!res.ok) throw new Error(data.detail || ("error " + res.status));
    return data;
  }

  // ------------------------------------------------------------ a new club
  const form = $("club-form");
  if (form) {
    const saved = localStorage.getItem("fourcards:name");
    if (saved) $("owner-name").value = saved;
    let sending = false;
    form.addEventListener("submit", async function (ev) {
      ev.preventDefault();
      if (sending) return;
      sending = true;
      $("club-error").hidden = true;
      try {
        const data = await call("POST", "/api/clubs", {name: $("club-name").value, owner_name: $("owner-name").value,
                                                       members: names($("club-members").value)});
        localStorage.setItem("fourcards:club:" + data.club.id, data.token);
        localStorage.setItem("fourcards:name", $("owner-name").value.trim());
        window.location.href = data.url;
      } catch (e) {
        $("club-error").textContent = e.message;
        $("club-error").hidden = false;
      } finally {
        sending = false;
      }
    });
    return;
  }

  // ------------------------------------------------------------ a club's page
  const root = $("club-app");
  const clubId = root.dataset.clubId;
  const token = localStorage.getItem("fourcards:club:" + clubId);
  const owner = token ? {"X-Club-Token": token} : {};
  if (!$("club-link").value) $("club-link").value = window.location.origin + "/c/" + clubId;
  $("copy-club-link").addEventListener("click", function () {
    $("club-link").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("club-link").value);
  });
  function showError(msg) { $("error").textContent = msg; $("error").hidden = !msg; }

  function standings(s) {
    if (!s.standings.length) { $("standings").innerHTML = '<p class="muted">No one has played yet.</p>'; return; }
    let h = '<table class="settlement standings cards-on-phone" id="standings-table"><caption class="sr-only">Standings across nights, in chips</caption>' +
      '<thead><tr><th scope="col">Name</th><th scope="col">Nights</th><th scope="col">Net</th>' +
      '<th scope="col"><abbr title="Four of a Kind deals dealt in">Deals</abbr></th><th scope="col">High</th><th scope="col">Low</th>' +
      '<th scope="col"><abbr title="Four of a Kind pots taken whole">Whole</abbr></th>' +
      '<th scope="col"><abbr title="Four Card Poker rounds with a wager">Rounds</abbr></th>' +
      '<th scope="col"><abbr title="Deals and rounds won">Won</abbr></th><th scope="col">Folds</th><th scope="col">Biggest pot</th>' +
      '<th scope="col"><abbr title="Chips the cards gave or took, against the exact odds">Luck</abbr></th></tr></thead><tbody>';
    s.standings.forEach(function (r) {
      h += '<tr data-name="' + esc(r.name) + '"><th scope="row">' + esc(r.name) + "</th><td>" + r.nights + '</td><td data-net="' + r.net + '">' +
        net(r.net) + "</td><td>" + r.kind.deals + "</td><td>" + r.kind.high + "</td><td>" + r.kind.low + "</td><td>" + r.kind.whole +
        "</td><td>" + r.poker.rounds + "</td><td>" + GROUPED.format(r.won || 0) + "</td><td>" + GROUPED.format(r.folds || 0) + "</td><td>" +
        GROUPED.format(r.biggest_pot || 0) + '</td><td data-luck="' + (r.luck || 0) + '">' + luck(r.luck || 0) + "</td></tr>";
    });
    $("standings").innerHTML = h + "</tbody></table>";
    // each cell names its column: on a phone each person's row is a card of labelled numbers
    const heads = Array.from(document.querySelectorAll("#standings-table thead th")).map(function (th) { return th.textContent; });
    document.querySelectorAll("#standings-table tbody tr").forEach(function (tr) {
      Array.from(tr.children).forEach(function (c, i) { if (c.tagName === "TD") c.dataset.label = heads[i]; });
    });
  }
  function nights(s, club) {
    if (!s.nights.length) {
      $("nights").innerHTML = '<li class="muted">No nights yet: start one above.</li>';
      return;
    }
    $("nights").innerHTML = s.nights.map(function (n) {
      const when = (n.created_at || "").slice(0, 10);
      const people = n.people.map(function (p) { return esc(p.name) + " " + net(p.net); }).join(", ") || '<span class="muted">nobody played</span>';
      const bank = n.bank.bots.length || n.bank.house !== null ? '; <span class="muted">the bank</span> ' + net(n.bank.net) : "";
      return '<li id="night-' + esc(n.table) + '"><div><a href="/t/' + esc(n.table) + '/history">' + esc(n.name) + "</a> " +
        '<span class="muted">' + esc(when) + " \u00b7 " + (n.game === "kind" ? "Four of a Kind" : "Four Card Poker") + " \u00b7 " +
        n.deals + (n.game === "kind" ? " deal" : " round") + (n.deals === 1 ? "" : "s") + (n.status === "open" ? " \u00b7 open" : "") +
        "</span></div><div>" + people + bank + "</div>" +
        (club.you.owner ? '<button type="button" class="small" data-remove="' + esc(n.table) + '" aria-label="Take ' + esc(n.name) +
          ' out of the club">Take out</button>' : "") + "</li>";
    }).join("");
  }
  function members(club) {
    $("members").innerHTML = club.members.map(function (m) {
      return "<li>" + esc(m.name) + ' <span class="muted">' + m.nights + " night" + (m.nights === 1 ? "" : "s") + "</span></li>";
    }).join("") || '<li class="muted">No members yet.</li>';
    $("members-form").hidden = !club.you.owner;
  }
  async function load() {
    try {
      const club = await call("GET", "/api/clubs/" + clubId, undefined, owner);
      const s = await call("GET", "/api/clubs/" + clubId + "/standings");
      $("club-count").textContent = String(club.nights.length);
      standings(s);
      nights(s, club);
      members(club);
    } catch (e) { showError(e.message); }
  }
  $("nights").addEventListener("click", async function (ev) {
    const b = ev.target.closest("button[data-remove]");
    if (!b) return;
    try {
      await call("DELETE", "/api/clubs/" + clubId + "/tables/" + b.dataset.remove, undefined, owner);
      showError("");
      await load();
    } catch (e) { showError(e.message); }
  });
  $("members-form").addEventListener("submit", async function (ev) {
    ev.preventDefault();
    $("members-error").hidden = true;
    try {
      await call("POST", "/api/clubs/" + clubId + "/members", {names: names($("new-members").value)}, owner);
      $("new-members").value = "";
      await load();
    } catch (e) {
      $("members-error").textContent = e.message;
      $("members-error").hidden = false;
    }
  });
  load();
})();
