// What reaches a person besides the table itself: the turn clock counting down, what a screen
// reader is told (your turn, results, the pause), the page's title, the sound and buzz of your turn,
// and the screen kept on while you hold a seat.
import {$, esc, announce} from "./util.js";
import {store, myTurn} from "./store.js";

// ------------------------------------------------------------------ the turn clock
// the server's seconds left, counted down here
let clockEnd = 0, clockWarned = null;
export function clockLine(s) {
  const c = s.clock;
  if (!c) { clockEnd = 0; return ""; }
  clockEnd = performance.now() + c.seconds_left * 1000;
  return '<p class="clock' + (parts(c)[1] ? " in-bank" : "") + '" id="clock" data-seat="' + c.seat + '">' + clockText(s) + "</p>";
}
function secondsLeft(c) { return c.paused ? Math.ceil(c.seconds_left) : Math.max(0, Math.ceil((clockEnd - performance.now()) / 1000)); }
// with a time bank (docs/rules.md TP-13) the turn clock's own seconds come first, then the bank's:
// [turn seconds left, in the bank?, bank seconds left]
function parts(c) {
  const left = secondsLeft(c), bank = c.bank || 0;
  if (!bank) return [left, false, 0];
  const exact = c.paused ? c.seconds_left : Math.max(0, (clockEnd - performance.now()) / 1000);
  return exact > bank ? [Math.ceil(exact - bank), false, Math.ceil(bank)] : [0, true, left];
}
function clockText(s) {
  const c = s.clock;
  const mine = s.you && s.you.seat === c.seat;
  const p = parts(c);
  const who = mine ? "Your time" : esc(c.name) + "\u2019s time";
  return (p[1] ? who + ' bank: <span class="secs">' + p[2] + "</span> s" :
    who + ': <span class="secs">' + p[0] + "</span> s" + (c.bank ? '<span class="bank-note"> + time bank ' + p[2] + " s</span>" : "")) +
    (c.paused ? " (paused)" : "") + '<span class="clock-conn">' + clockConn() + "</span>";
}
// while the page cannot reach the server the seconds are only the last ones heard of: the
// server's clock decides (and gives back the time no server ran: docs/rules.md TP-6)
function clockConn() { return store.connLost ? " \u00b7 reconnecting: the server keeps the time" : ""; }
// the actor's seat shows the time left as a bar (the time bank's in its own colour, from full again)
function seatBar(c, left) {
  const bar = document.querySelector("#seat-" + c.seat + " .seat-clock span");
  if (!bar) return;
  const bank = c.bank || 0, inBank = bank > 0 && left <= bank;
  bar.classList.toggle("bank", inBank);
  const part = inBank ? left / bank : (left - bank) / Math.max(1, c.seconds);
  bar.style.width = Math.max(0, Math.min(100, 100 * part)) + "%";
}
window.setInterval(function () {
  const el = $("clock"), state = store.state;
  if (!el || !state || !state.clock) return;
  const left = secondsLeft(state.clock);
  seatBar(state.clock, state.clock.paused ? state.clock.seconds_left : (clockEnd - performance.now()) / 1000);
  if (state.clock.paused) return;
  const p = parts(state.clock);
  if (state.clock.bank && (p[1] !== el.classList.contains("in-bank"))) {  // the turn clock ran out: the bank's line
    el.classList.toggle("in-bank", p[1]);
    el.innerHTML = clockText(state);
  }
  const secs = el.querySelector(".secs"), conn = el.querySelector(".clock-conn"), note = el.querySelector(".bank-note");
  const shown = String(p[1] ? p[2] : p[0]);
  if (secs && secs.textContent !== shown) secs.textContent = shown;
  if (note && !p[1]) { const t = " + time bank " + p[2] + " s"; if (note.textContent !== t) note.textContent = t; }
  if (conn && conn.textContent !== clockConn()) conn.textContent = clockConn();
  el.classList.toggle("low", left <= 10);
  const key = state.version + ":" + state.clock.seat;
  if (left <= 10 && left > 0 && state.you && state.you.seat === state.clock.seat && clockWarned !== key) {
    clockWarned = key;
    announce(left + " seconds left to act.");
  }
}, 250);

// ------------------------------------------------------------------ the title
const baseTitle = document.title;
export function updateTitle() {
  const s = store.state;
  document.title = (store.connLost ? "Reconnecting \u00b7 " : "") + (s && myTurn(s) ? "Your turn \u00b7 " : "") + baseTitle;
}

// ------------------------------------------------------------------ said aloud
// game: {turnKey, turnText, resultKey, resultText} of the game played (poker.js, kind.js)
let saidTurn = null, saidResult = null;
export function speak(prev, s, game) {
  const rk = game.resultKey(s), tk = myTurn(s) ? game.turnKey(s) : null;
  const parts = [];
  if (prev && !!prev.paused !== !!s.paused && s.table.status === "open") {
    parts.push(s.paused ? "The host has paused the table: no clock runs and nobody acts." : "The host has resumed the table.");
  }
  if (prev && rk && rk !== saidResult) parts.push(game.resultText(s));
  if (tk && tk !== saidTurn) parts.push(game.turnText(s));
  saidResult = rk;
  saidTurn = tk;
  if (parts.length) announce(parts.join(" "));
}

// ------------------------------------------------------------------ your turn reaches you
// once per turn of this seat (the server's turn id): a short sound and a buzz where the browser
// allows them (toggles under "Display", remembered), and the actions box flashes (the cue that
// always works: iOS has no vibration). Nothing for spectators, nor on the page's first state.
const SOUND = "fourcards:turn-sound", BUZZ = "fourcards:turn-buzz";
function optOn(key) { return localStorage.getItem(key) !== "0"; }
let audio = null, cuedTurn = null, cueUntil = 0;
const CUE_MS = 2600;  // the flash: 1.2 s, twice
// is the actions box flashing? (a state drawn again meanwhile keeps the flash going)
export function cueing() { return performance.now() < cueUntil; }
function audioContext() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!audio && Ctx) { try { audio = new Ctx(); } catch (e) { audio = null; } }
  if (audio && audio.state === "suspended" && audio.resume) audio.resume().catch(function () { return null; });
  return audio;
}
// browsers let a page make sound only after a tap or a key: the first one opens the audio
document.addEventListener("pointerdown", function () {
  const s = store.state;
  if (optOn(SOUND) && s && s.you && (!audio || audio.state === "suspended")) audioContext();
});
function beep() {
  const ctx = audioContext();
  if (!ctx) return;
  try {
    const t = ctx.currentTime, osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(880, t);
    osc.frequency.setValueAtTime(660, t + 0.09);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.25, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.22);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.24);
  } catch (e) { /* no sound: the screen still shows the turn */ }
}
export function cueTurn(prev, s) {
  const key = s.turn && s.you && s.table.status === "open" && myTurn(s) ? s.turn : null;
  const fresh = key && key !== cuedTurn;
  cuedTurn = key;
  if (!fresh || !prev) return;
  if (optOn(SOUND)) beep();
  if (optOn(BUZZ) && typeof navigator.vibrate === "function") { try { navigator.vibrate([120, 60, 120]); } catch (e) { /* not allowed */ } }
  const box = $("my-actions");
  cueUntil = performance.now() + CUE_MS;
  if (box) {
    box.classList.remove("cue");
    void box.offsetWidth;  // restart the flash
    box.classList.add("cue");
  }
}
export function turnOptions() {
  [[$("turn-sound"), SOUND], [$("turn-buzz"), BUZZ]].forEach(function (o) {
    o[0].checked = optOn(o[1]);
    o[0].addEventListener("change", function () {
      localStorage.setItem(o[1], o[0].checked ? "1" : "0");
      if (o[1] === SOUND && o[0].checked) audioContext();
    });
  });
  if (typeof navigator.vibrate !== "function") {
    $("turn-buzz").disabled = true;
    $("turn-buzz-note").hidden = false;
  }
}

// ------------------------------------------------------------------ the screen stays on
// while this browser holds a seat (Screen Wake Lock; taken again when the page is shown again:
// the browser lets it go when the page is hidden)
let wake = null, wakeWanted = false, wakeAsking = false;
export function keepAwake(s) {
  wakeWanted = !!(s.you && s.table.status === "open");
  if (!navigator.wakeLock) return;
  if (wakeWanted && !wake && !wakeAsking && document.visibilityState === "visible") {
    wakeAsking = true;
    navigator.wakeLock.request("screen").then(function (lock) {
      wake = lock;
      if (lock && lock.addEventListener) lock.addEventListener("release", function () { if (wake === lock) wake = null; });
      if (!wakeWanted && lock && lock.release) { lock.release(); wake = null; }
    }).catch(function () { wake = null; }).finally(function () { wakeAsking = false; });
  } else if (!wakeWanted && wake) {
    const lock = wake;
    wake = null;
    if (lock.release) lock.release().catch(function () { return null; });
  }
}
document.addEventListener("visibilitychange", function () {
  if (document.visibilityState === "visible" && store.state) { wake = null; keepAwake(store.state); }
});
