// fourcards cards and chips as text and HTML, shared by the table and history pages:
// window.fourcardsCards = {esc, spoken, card, pip, back, cards, chips, signed, applyDeck}.
// Every amount a page shows goes through chips() or signed(): thousands separated as the README
// writes them ("8,400", "+1,250", "-4,001,000").
// A card is named for screen readers ("ten of hearts"), a face-down card says so.
(function () {
  "use strict";
  const SUITS = {c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660"};
  const SUIT_NAMES = {c: "clubs", d: "diamonds", h: "hearts", s: "spades"};
  const RANK_NAMES = {A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
    6: "six", 5: "five", 4: "four", 3: "three", 2: "two"};
  const RED = {d: true, h: true};

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }
  // "Th" -> "ten of hearts" (what a screen reader says for a card)
  function spoken(c) {
    const r = c.slice(0, -1), s = c.slice(-1);
    return (RANK_NAMES[r] || r) + " of " + (SUIT_NAMES[s] || s);
  }
  function cls(c) { const s = c.slice(-1); return (RED[s] ? "red" : "black") + " s-" + s; }
  function rank(c) { const r = c.slice(0, -1); return r === "T" ? "10" : r; }
  function card(c, extra) {
    return '<span class="card ' + cls(c) + (extra ? " " + extra : "") + '" role="img" aria-label="' + esc(spoken(c)) +
      '" data-card="' + esc(c) + '">' + esc(rank(c)) + '<span class="suit" aria-hidden="true">' + (SUITS[c.slice(-1)] || "") + "</span></span>";
  }
  // a card named in text: rank and suit symbol in the card's colour ("2\u2660")
  function pip(c) {
    return '<span class="pip ' + cls(c) + '" role="img" aria-label="' + esc(spoken(c)) + '" data-card="' + esc(c) + '">' +
      esc(rank(c)) + (SUITS[c.slice(-1)] || esc(c.slice(-1))) + "</span>";
  }
  function back(n, extra) {
    let h = "";
    for (let i = 0; i < n; i++) h += '<span class="card back' + (extra ? " " + extra : "") + '" role="img" aria-label="face-down card"></span>';
    return h;
  }
  function cards(list, extra) { return '<div class="cards">' + list.map(function (c) { return card(c, extra); }).join("") + "</div>"; }
  const GROUPED = new Intl.NumberFormat("en-US", {maximumFractionDigits: 0});
  function chips(n) { return GROUPED.format(n); }
  function signed(n) { return (n > 0 ? "+" : "") + chips(n); }
  // A chip count in a seat, which may be small on a phone: whole below 10,000; from there the whole
  // count (read by screen readers, shown where there is room) and its compact form, cut and never
  // rounded up ("1M" for 1,003,995, "998K" for 998,995, "9.9M" for 9,995,995), which small seats show
  // instead (app.css: a 1,000,000-chip table's stacks were cut to "1,..." beside the round's net).
  // ``sign``: "+" on a gain. The whole count's class says its size: "m" from 1,000,000.
  const COMPACT = new Intl.NumberFormat("en-US", {notation: "compact", roundingMode: "trunc"});
  function fitted(n, sign) { return twoForms(n, sign, 10000, COMPACT); }
  // A bet in front of a seat: the same from 100,000, its compact form to three digits ("1.05M",
  // "300K"), which a phone shows (app.css: "1,050,000" ran over its seat's box)
  const COMPACT3 = new Intl.NumberFormat("en-US", {notation: "compact", maximumSignificantDigits: 3, roundingMode: "trunc"});
  function betText(n, sign) { return twoForms(n, sign, 100000, COMPACT3); }
  function twoForms(n, sign, from, compact) {
    const whole = sign ? signed(n) : chips(n);
    if (Math.abs(n) < from) return whole;
    return '<span class="n-whole' + (Math.abs(n) >= 1000000 ? " m" : "") + '">' + whole + '</span><span class="n-short" aria-hidden="true">' +
      (sign && n > 0 ? "+" : "") + compact.format(n) + "</span>";
  }

  // the four-colour deck, a choice remembered in this browser
  const deckKey = "fourcards:four-colour";
  function applyDeck(toggle) {
    const on = function () { return localStorage.getItem(deckKey) === "1"; };
    document.body.classList.toggle("four-colour", on());
    if (toggle) {
      toggle.checked = on();
      toggle.addEventListener("change", function () {
        localStorage.setItem(deckKey, toggle.checked ? "1" : "0");
        document.body.classList.toggle("four-colour", toggle.checked);
      });
    }
  }
  window.fourcardsCards = {esc: esc, spoken: spoken, card: card, pip: pip, back: back, cards: cards, chips: chips, signed: signed, fitted: fitted, betText: betText,
    applyDeck: applyDeck};
})();
