// fourcards: one hand's page (/t/{id}/h/{n}): the deal replayed step by step (replay.js, as this
// browser's seat may see it), and a share button - the Web Share API where the browser has it, else
// the link copied (or selected to copy by hand).
(function () {
  "use strict";
  const $ = function (id) { return document.getElementById(id); };
  const root = $("hand-app");
  const tableId = root.dataset.tableId;
  const token = localStorage.getItem("fourcards:token:" + tableId);
  window.fourcardsCards.applyDeck($("four-colour"));
  function showError(msg) { $("error").textContent = msg; $("error").hidden = !msg; }

  $("share-hand").addEventListener("click", async function () {
    const url = $("hand-link").value || window.location.href;
    const data = {title: document.title, text: $("hand-preview").textContent, url: url};
    if (navigator.share && (!navigator.canShare || navigator.canShare(data))) {
      try { await navigator.share(data); $("shared").textContent = "Shared."; return; } catch (e) {
        if (e && e.name === "AbortError") return;  // the person closed the share sheet
      }
    }
    let copied = false;
    try { if (navigator.clipboard) { await navigator.clipboard.writeText(url); copied = true; } } catch (e) { copied = false; }
    $("hand-link").select();
    $("shared").textContent = copied ? "The link is copied: paste it where you like." : "Copy the selected link.";
  });
  if (!$("hand-link").value) $("hand-link").value = window.location.href;

  if (root.dataset.status === "in_progress") {
    showError("This " + root.dataset.word.toLowerCase() + " is in progress: it is shown when it ends.");
    return;
  }
  const replay = window.fourcardsReplay.create({tableId: tableId, game: root.dataset.game, word: root.dataset.word,
    token: token, onError: showError});
  replay.open(Number(root.dataset.number), false);
})();
