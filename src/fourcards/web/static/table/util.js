// Small helpers every part of the table page uses: elements by id, the card and chip texts of
// cards.js, patching a region in place (morphdom), the banner and the aria-live announcements.
export const $ = function (id) { return document.getElementById(id); };
export const C = window.fourcardsCards;  // cards.js (a classic script, shared with the history page)
export const esc = C.esc, spoken = C.spoken, card = C.card, pip = C.pip, back = C.back, cards = C.cards;
export const chips = C.chips, signed = C.signed, fitted = C.fitted, betText = C.betText;
export function pct(x) { return (100 * x).toFixed(1) + "%"; }
export function cap(text) { return text.replace(/^./, function (x) { return x.toUpperCase(); }); }

// Each new state patches the page (morphdom, vendored in morphdom.min.js): only what changed is
// touched, so keyboard focus stays where it was, CSS transitions run from the old place to the new,
// and an amount being typed survives another player's move: a number or text input a person
// edited keeps its value (its bounds still follow the new state) until the input itself goes away.
function keepTyped(from, to) {
  if (from.tagName === "INPUT" && from.dataset.typed === "1" && from.type !== "checkbox") {
    to.value = from.value;
    to.setAttribute("data-typed", "1");
  }
  return true;
}
export function patch(el, html) {
  const next = el.cloneNode(false);
  next.innerHTML = html;
  window.morphdom(el, next, {childrenOnly: true, onBeforeElUpdated: keepTyped});
}
export function markTyped(root) {
  root.addEventListener("input", function (ev) {
    if (ev.target.tagName === "INPUT" && ev.target.type !== "checkbox") ev.target.dataset.typed = "1";
  });
}
export function clearTyped(box) {
  if (box) { box.value = ""; delete box.dataset.typed; }
}

// the aria-live region: what a screen reader says when the table changes
export function announce(msg) {
  const a = $("announce");
  a.textContent = "";
  window.setTimeout(function () { a.textContent = msg; }, 50);
}
