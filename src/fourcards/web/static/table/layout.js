// The seats around the oval: where each seat sits, its bet in front of it, the pot in the middle;
// and the oval's size, so the whole table and your actions fit on the screen without scrolling.
//
// Seats go clockwise in seat order around a rounded oval (a superellipse: it uses the corners of
// the screen better than an ellipse), spaced evenly along its edge, your own seat at the bottom
// (a spectator sees seat 1 there). The oval is as wide as the page and as tall as the screen
// leaves it: tall on a portrait phone, wide on a desktop. At Four Card Poker the top of the oval
// is the dealer's: the seats share the rest of the edge.
import {$} from "./util.js";

const SAMPLES = 720, ROUNDNESS = 4;

// The edge as points [x, y] in -1..1 (y down), from the bottom centre clockwise on screen.
const EDGE = (function () {
  const pts = [], e = 2 / ROUNDNESS;
  for (let i = 0; i <= SAMPLES; i++) {
    const t = 2 * Math.PI * i / SAMPLES, sx = -Math.sin(t), cy = Math.cos(t);
    pts.push([Math.sign(sx) * Math.pow(Math.abs(sx), e), Math.sign(cy) * Math.pow(Math.abs(cy), e)]);
  }
  return pts;
})();

// Where n seats sit: [{x, y}] in % of the ring, in the order given, the seat at index `bottom` at
// the bottom centre. `g`: the ring's size (rw, rh), a seat's (sw, sh), the bottom seat's (mew, meh:
// it grows up from the edge) and the dealer's box at the top (dw, dh; Four Card Poker). The seats
// go clockwise along the edge as far apart as they can be: the largest spacing s such that each
// seat clears the one before by s seat widths sideways or s seat heights up or down (and the
// bottom seat the same, by its own size), found by halving; none on the dealer's box.
export function places(g, n, bottom) {
  const P = EDGE.map(function (p) { return [(p[0] + 1) / 2 * g.rw, (p[1] + 1) / 2 * g.rh]; });
  const me = P[0];
  function apart(a, b) { return Math.max(Math.abs(a[0] - b[0]) / g.sw, Math.abs(a[1] - b[1]) / g.sh); }
  function fromMe(b) { return Math.max(Math.abs(b[0] - me[0]) / ((g.mew + g.sw) / 2), (me[1] - b[1]) / (g.meh || g.sh)); }
  function free(b) { return !g.dw || b[1] >= g.dh || Math.abs(b[0] - g.rw / 2) >= (g.dw + g.sw) / 2; }
  function lay(step) {  // the first place at least `step` on from the one before; null: they do not fit
    const at = [0];
    let last = me;
    for (let i = 1; i < SAMPLES && at.length < n; i++) {
      const p = P[i];
      if (free(p) && fromMe(p) >= step && apart(last, p) >= step) { at.push(i); last = p; }
    }
    if (at.length < n) return null;
    return n === 1 || fromMe(last) >= step ? at : null;
  }
  let lo = 0, hi = 6, best = lay(0) || [0];
  for (let k = 0; k < 22; k++) {
    const mid = (lo + hi) / 2, got = lay(mid);
    if (got) { lo = mid; best = got; } else hi = mid;
  }
  // the walk leaves its slack at its end (left of the bottom seat): the same walk the other way
  // round is its mirror image; halfway between the two the table is even on both sides
  const even = best.map(function (a, k) { return k ? Math.round((a + SAMPLES - best[n - k]) / 2) : 0; });
  if (best.length === n && even.every(function (i) { return free(P[i]); })) best = even;
  const out = [];
  for (let i = 0; i < n; i++) {
    const k = ((i - bottom) % n + n) % n;
    const p = EDGE[best[Math.min(k, best.length - 1)]];
    out.push({x: 50 + 50 * p[0], y: 50 + 50 * p[1]});
  }
  return out;
}

// the size class of n seats: the more seats, the smaller each (CSS: .oval.few / .some / .many)
export function crowd(n) { return n <= 5 ? "few" : n <= 9 ? "some" : "many"; }

function style(x, y) { return "left:" + x.toFixed(2) + "%;top:" + y.toFixed(2) + "%"; }
function px(el, name, fallback) {
  const v = el ? parseFloat(getComputedStyle(el).getPropertyValue(name)) : NaN;
  if (isNaN(v)) return fallback;
  return getComputedStyle(el).getPropertyValue(name).trim().endsWith("rem") ? v * parseFloat(getComputedStyle(document.documentElement).fontSize) : v;
}

// The oval: `seats` [{seat, cls, html, bet: {amount, text, kind, where}}] in seat order, `me` the
// seat at the bottom (or null: seat 1 is), `centre` the middle's HTML, `top` the dealer's (poker) or "".
export function ovalHtml(id, game, seats, me, centre, top) {
  const n = seats.length;
  const bottom = Math.max(0, seats.findIndex(function (e) { return e.seat === me; }));
  const box = $("oval");
  const w = box && box.offsetWidth ? box.offsetWidth : Math.min(window.innerWidth, 900);
  const h = box && box.offsetHeight ? box.offsetHeight : 420;
  const sw = px(box, "--sw", 100), sh = px(box, "--sh", 80), mew = me !== null ? px(box, "--mew", 160) : sw;
  const rw = Math.max(1, w - sw), rh = Math.max(1, h - sh);
  // your seat (at the bottom) grows up from the edge; at Four Card Poker the dealer's box is at the top
  const mine = me !== null && $("seat-" + me);
  const dealer = game === "poker" && box && box.querySelector(".oval-top");
  const spots = places({rw: rw, rh: rh, sw: sw, sh: sh, mew: mew, meh: mine && mine.offsetHeight ? mine.offsetHeight : sh,
    dw: game === "poker" ? (dealer ? dealer.offsetWidth : 200) : 0, dh: dealer ? dealer.offsetHeight : 90}, n, bottom);
  let seatsHtml = "", betsHtml = "";
  // a bet sits just inside its seat's box, on the line from the seat to the middle
  function betSpot(p, seat, mine) {
    const el = $("seat-" + seat);
    const bw = el && el.offsetWidth ? el.offsetWidth : mine ? mew : sw, bh = el && el.offsetHeight ? el.offsetHeight : sh;
    const X = p.x / 100 * rw, Y = p.y / 100 * rh;
    let dx = rw / 2 - X, dy = rh / 2 - Y;
    const d = Math.hypot(dx, dy) || 1;
    dx /= d; dy /= d;
    // the box's centre: a seat at the bottom (top) edge grows up (down) from it
    const cy = p.y > 88 ? Y + sh / 2 - bh / 2 : p.y < 12 ? Y - sh / 2 + bh / 2 : Y;
    const out = Math.min(Math.abs(dx) > 1e-6 ? (bw / 2) / Math.abs(dx) : 1e9, Math.abs(dy) > 1e-6 ? (bh / 2) / Math.abs(dy) : 1e9);
    const reach = Math.min(out + 16, d * 0.8);
    return {bx: (X + dx * reach) / rw * 100, by: (cy + dy * reach) / rh * 100};
  }
  seats.forEach(function (e, i) {
    const p = Object.assign({}, spots[i], betSpot(spots[i], e.seat, e.seat === me));
    const rim = p.y > 88 ? " at-bottom" : p.y < 12 ? " at-top" : "";
    seatsHtml += '<li id="seat-' + e.seat + '" class="seat ' + e.cls + rim + '" data-seat="' + e.seat + '" style="' + style(p.x, p.y) + '">' + e.html + "</li>";
    // a bet in front of the seat; gone, it moves to the pot (collected) or back to the seat
    const bet = e.bet || {amount: 0};
    const where = bet.amount ? style(p.bx, p.by) : bet.where === "pot" ? style(50, 50) : style(p.x, p.y);
    betsHtml += '<span class="bet' + (bet.amount ? "" : " gone") + (bet.kind ? " " + bet.kind : "") + '" id="bet-' + e.seat + '" style="' + where + '">' +
      (bet.amount ? '<span class="chip"></span>' + bet.text : "") + "</span>";
  });
  return '<div class="oval ' + crowd(n) + " game-" + game + '" id="oval"><div class="felt-oval" aria-hidden="true"></div>' +
    (top ? '<div class="oval-top">' + top + "</div>" : "") +
    '<div class="centre" id="centre">' + centre + "</div>" +
    '<div class="ring"><div class="bets" aria-hidden="true">' + betsHtml + '</div><ul class="seats" id="' + id + '-seats" aria-label="Seats">' +
    seatsHtml + "</ul></div></div>";
}

// The oval's height: what the screen leaves between the oval's top and your actions (docked at
// the bottom of a phone, or right below the oval) - within sensible bounds.
export function fit() {
  const oval = $("oval");
  const acts = $("my-actions");
  const docked = acts && getComputedStyle(acts).position === "fixed";
  const dockH = acts ? acts.offsetHeight + (docked ? 2 : 10) : 0;
  document.documentElement.style.setProperty("--dock", (docked ? acts.offsetHeight : 0) + "px");
  if (!oval) return;
  const top = oval.getBoundingClientRect().top + window.scrollY;
  const room = window.innerHeight - top - dockH - 6;
  const wide = window.innerWidth > 700;
  const h = Math.max(wide ? 360 : 300, Math.min(wide ? 620 : 760, room));
  document.documentElement.style.setProperty("--oval-h", Math.round(h) + "px");
}

// The middle's text (the pot, the deal line, the status, the clock) in the room the seats leave
// around the middle - never under a seat: between the seats above and below the middle's column,
// and those beside that band; its type smaller (to 60%) while it is taller than that room.
export function fitCentre() {
  const oval = $("oval"), c = $("centre");
  if (!oval || !c || !oval.offsetHeight) return;
  c.style.cssText = "";
  const o = oval.getBoundingClientRect(), a = c.getBoundingClientRect();
  const ax = a.left + a.width / 2, ay = a.top + a.height / 2, pad = 4;
  const boxes = Array.from(oval.querySelectorAll(".seat, .oval-top")).map(function (e) { return e.getBoundingClientRect(); });
  // the bets in front of the seats too (play test: "10" on "your turn"), where they go (they may be gliding there);
  // not what a seat took at the end (it fades on a phone)
  const bets = oval.querySelector(".bets"), ring = bets && bets.getBoundingClientRect();
  if (bets) bets.querySelectorAll(".bet:not(.gone):not(.won)").forEach(function (b) {
    const x = ring.left + parseFloat(b.style.left) / 100 * ring.width, y = ring.top + parseFloat(b.style.top) / 100 * ring.height;
    const w = b.offsetWidth / 2, h = b.offsetHeight / 2;
    if (!isNaN(x + y)) boxes.push({left: x - w, right: x + w, top: y - h, bottom: y + h});
  });
  let top = o.top, bottom = o.bottom, left = o.left, right = o.right;
  const across = function (b) { return b.left < ax && b.right > ax; };
  const above = function (b) { return b.top + b.bottom < 2 * ay; };
  const bound = function (b) { if (above(b)) top = Math.max(top, b.bottom); else bottom = Math.min(bottom, b.top); };
  const beside = function (b) { return !across(b) && b.bottom > top + pad && b.top < bottom - pad; };
  boxes.forEach(function (b) { if (across(b)) bound(b); });
  // what sits beside the band narrows it - unless that leaves the text too narrow to read (two
  // bets either side of the middle's column, 13 seats on a phone): then, of those wholly above or
  // below the middle, the one that costs the band the least height bounds it instead, and the
  // band is measured again
  const narrowest = Math.min(120, o.width / 3);
  const cost = function (b) { return above(b) ? b.bottom - top : bottom - b.top; };
  for (let tries = 0; tries <= boxes.length; tries++) {
    left = o.left; right = o.right;
    const inBand = boxes.filter(beside);
    inBand.forEach(function (b) { if (b.left + b.right < 2 * ax) left = Math.max(left, b.right); else right = Math.min(right, b.left); });
    const movable = inBand.filter(function (b) { return b.bottom <= ay || b.top >= ay; });
    if (right - left - 2 * pad >= narrowest || !movable.length) break;
    bound(movable.reduce(function (x, b) { return cost(b) < cost(x) ? b : x; }));
  }
  const width = Math.max(40, Math.min(right - left - 2 * pad, parseFloat(getComputedStyle(c).maxWidth) || 1e9));
  const room = bottom - top - 2 * pad, full = parseFloat(getComputedStyle(c).fontSize);
  c.style.cssText = "left:" + ((left + right) / 2 - o.left).toFixed(1) + "px;width:" + width.toFixed(1) + "px;transform:translateX(-50%);top:0";
  for (let f = full; c.offsetHeight > room && f > full * 0.6; f -= 0.5) c.style.fontSize = (f - 0.5) + "px";
  const h = c.offsetHeight;
  const y = Math.max(top + pad, Math.min(bottom - pad - h, ay - h / 2));
  c.style.top = (y - o.top).toFixed(1) + "px";
}

// ------------------------------------------------------------------ a seat's frame
// The name (the whole name in its title when cut with an ellipsis), the badges (dealer button,
// you, host, status), the stack; the game adds cards, odds and results. `item` is seatList's.
export function seatHead(s, item, badges, extra) {
  const me = !!(s.you && s.you.seat === item.seat);
  const p = item.player;
  const name = item.name || "seat " + item.seat;
  let h = '<div class="name" title="' + escAttr(name) + '"><span class="nm">' + escText(name) + "</span>" +
    (me ? ' <span class="badge">you</span>' : "") + "</div>";
  h += badges || "";
  if (p || extra) {
    h += '<div class="line">' + (p ? '<span class="stack"><span class="sr-only">stack </span>' + window.fourcardsCards.fitted(p.balance) + "</span>" : "") +
      (extra || "") + "</div>";
  }
  return h;
}
// the dealer button: a white disc at the seat's edge (its name said to screen readers)
export const BUTTON = '<span class="dealer-btn" title="button" role="img" aria-label="dealer button">D</span>';
function escText(x) { return window.fourcardsCards.esc(x); }
function escAttr(x) { return window.fourcardsCards.esc(x); }

// the actor's clock in its seat: a bar that empties (the seconds are in #clock, said aloud)
export function seatClock(s, seat) {
  return s.clock && s.clock.seat === seat ? '<div class="seat-clock" aria-hidden="true"><span></span></div>' : "";
}
