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
// the most of the edge the dealer keeps at the top (Four Card Poker)
const DEALER_GAP = 0.3;

// The edge as points [x, y] in -1..1 (y down), from the bottom centre clockwise on screen, with
// the distance walked to each: measured in seats (a step sideways counts in seat widths, a step up
// or down in seat heights, whichever is more), so seats spread evenly by it keep clear of each
// other along the top and bottom and up the sides alike. rw, rh: the ring's size; sw, sh: a seat's.
function edge(rw, rh, sw, sh) {
  const pts = [], len = [0];
  const e = 2 / ROUNDNESS;
  for (let i = 0; i <= SAMPLES; i++) {
    const t = 2 * Math.PI * i / SAMPLES, sx = -Math.sin(t), cy = Math.cos(t);
    pts.push([Math.sign(sx) * Math.pow(Math.abs(sx), e), Math.sign(cy) * Math.pow(Math.abs(cy), e)]);
    if (i) {
      const dx = Math.abs(pts[i][0] - pts[i - 1][0]) * rw / 2 / sw, dy = Math.abs(pts[i][1] - pts[i - 1][1]) * rh / 2 / sh;
      len.push(len[i - 1] + Math.max(dx, dy));
    }
  }
  return {pts: pts, len: len, total: len[SAMPLES]};
}
function at(g, f) {  // the point a fraction f of the way around the edge
  const want = ((f % 1) + 1) % 1 * g.total;
  let lo = 0, hi = SAMPLES;
  while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (g.len[mid] < want) lo = mid; else hi = mid; }
  return g.pts[lo];
}

// Where n seats sit, the seat at index `bottom` at the bottom centre: [{x, y}] in % of the ring, in
// the order given. `meGap`: the fraction of the edge the bottom seat keeps on each side (your own
// seat is wider); `dealerGap`: the fraction the dealer keeps at the top (Four Card Poker). The
// others are spread evenly over the rest of the edge.
export function places(g, n, bottom, meGap, dealerGap) {
  const arcs = dealerGap ? [[meGap, 0.5 - dealerGap / 2], [0.5 + dealerGap / 2, 1 - meGap]] : [[meGap, 1 - meGap]];
  const total = arcs.reduce(function (t, a) { return t + a[1] - a[0]; }, 0);
  const out = [];
  for (let i = 0; i < n; i++) {
    const k = ((i - bottom) % n + n) % n;
    let f = 0;
    if (k > 0) {
      // with a wider bottom seat: half a step from it at each end; else even spacing all round
      const u = meGap ? (k - 0.5) / (n - 1) * total : k / n * total;
      f = arcs[0][0] + u;
      if (arcs.length > 1 && f > arcs[0][1]) f = arcs[1][0] + (f - arcs[0][1]);
    }
    const p = at(g, f);
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
  const g = edge(rw, rh, sw, sh);
  // at Four Card Poker the dealer keeps the top of the edge: as wide as the dealer's box and a seat
  const dealer = box && box.querySelector(".oval-top");
  const gap = game !== "poker" ? 0 : Math.min(DEALER_GAP, ((dealer ? dealer.offsetWidth : 220) + sw + 8) / sw / g.total);
  // your seat's neighbours keep clear of it: half their width and half of yours apart, at least
  const need = ((mew + sw) / 2 + 10) / sw / g.total;
  let meGap = me !== null && n > 2 && mew > sw ? Math.min(0.2, Math.max(0.001, (need - (1 - gap) / (2 * (n - 1))) / (1 - 1 / (n - 1)))) : 0;
  let spots = places(g, n, bottom, meGap, gap);
  // your seat grows up from the bottom edge: while it would touch another, its neighbours move on
  const mine = me !== null && $("seat-" + me);
  const meh = mine && mine.offsetHeight ? mine.offsetHeight : sh;
  function clash(pts) {
    const m = pts[bottom], mx = m.x / 100 * rw, mb = m.y / 100 * rh + sh / 2;
    return pts.some(function (p, i) {
      if (i === bottom) return false;
      const x = p.x / 100 * rw, y = p.y / 100 * rh;
      return Math.abs(x - mx) < (mew + sw) / 2 + 4 && y + sh / 2 > mb - meh - 4 && y - sh / 2 < mb;
    });
  }
  for (let tries = 0; meGap && tries < 12 && clash(spots); tries++) {
    meGap = Math.min(0.3, meGap * 1.2 + 0.01);
    spots = places(g, n, bottom, meGap, gap);
  }
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
    h += '<div class="line">' + (p ? '<span class="stack"><span class="sr-only">stack </span>' + window.fourcardsCards.chips(p.balance) + "</span>" : "") +
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
