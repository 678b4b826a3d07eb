// A name field (input[data-name-field]: the lobby, a seat, a player without a phone, a club's
// owner) says when its name is too long, as it is typed or pasted: the server takes at most 40
// characters and refuses a longer name; nothing is cut without a word.
(function () {
  "use strict";
  const MAX = 40;
  function check(input) {
    const n = Array.from(input.value.trim()).length;
    const id = (input.id || "name") + "-too-long";
    let note = document.getElementById(id);
    if (n <= MAX) {
      if (note) note.remove();
      input.removeAttribute("aria-invalid");
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.id = id;
      note.className = "field-error";
      note.setAttribute("role", "alert");
      const after = input.closest("label") || input.closest("form") || input;
      after.insertAdjacentElement("afterend", note);
    }
    note.textContent = n + " characters: a name has at most " + MAX + ". Shorten it; nothing is cut for you.";
    input.setAttribute("aria-invalid", "true");
  }
  document.addEventListener("input", function (ev) {
    if (ev.target.matches && ev.target.matches("input[data-name-field]")) check(ev.target);
  });
})();
