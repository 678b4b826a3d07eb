// The chat: everyone watching reads it; seated people write (at most 3 messages in 2 s; the host
// may mute a seat); new messages are read out politely (the list is an aria-live log). A refused
// message is said next to the box, and the words go when they no longer hold: when the text is
// changed, after a few seconds (the rate limit's window has passed by then), when the seat is
// muted or unmuted, and when a message is sent. Someone else's message that comes while the chat is
// out of sight counts on the "Chat" link at the top of the page, until the chat is in view.
import {$, esc, patch, clearTyped} from "./util.js";
import {api} from "./connection.js";

const REACTIONS = ["\ud83d\udc4d", "\ud83d\udc4f", "\ud83d\ude02", "\ud83d\ude2e", "\ud83d\ude2c", "\ud83c\udf89"];
const REACTION_NAMES = ["thumbs up", "clapping", "laughing", "surprised", "grimacing", "party"];
const ERROR_FOR_MS = 6000;
function clock2(at) {
  const d = new Date(at * 1000);
  return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
}

let could = null, errorTimer = null;
let seen = null, unread = 0, inView = false;  // the messages shown before; unread: since the chat was last in view
export function renderChat(s, closed) {
  const lines = s.chat || [];
  const list = $("chat-lines"), box = $("chat-log");
  const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
  patch(list, lines.length ? lines.map(function (m) {
    const mine = s.you && m.seat === s.you.seat && m.name === s.you.name;
    return '<li id="chat-' + m.id + '" class="kind-' + m.kind + (mine ? " mine" : "") + '"><span class="when">' + clock2(m.at) +
      '</span> <b class="who">' + esc(m.name) + "</b>: " + '<span class="text">' + esc(m.text) + "</span></li>";
  }).join("") : '<li class="muted" id="chat-empty">No messages yet.</li>');
  if (atEnd) box.scrollTop = box.scrollHeight;
  const fresh = seen ? lines.filter(function (m) { return !seen.has(m.id); }) : [];
  seen = new Set(lines.map(function (m) { return m.id; }));
  fresh.forEach(function (m) { if (!inView && !(s.you && m.seat === s.you.seat && m.name === s.you.name)) unread++; });
  showUnread();
  const can = !!(s.you && !closed && !s.you.muted);
  if (could !== null && can !== could) chatError(null);  // muted, unmuted, seated or not: a new start
  could = can;
  $("chat-form").hidden = !can;
  $("chat-reactions").hidden = !can;
  const note = $("chat-note");
  note.textContent = closed ? "The table is closed." : !s.you ? "Take a seat to chat; everyone watching reads along." :
    s.you.muted ? "The host has muted your chat at this table." : "";
  note.hidden = !note.textContent;
  if (!$("chat-reactions").dataset.built) {
    $("chat-reactions").dataset.built = "1";
    $("chat-reactions").innerHTML = REACTIONS.map(function (r, i) {
      return '<button type="button" data-reaction="' + r + '" aria-label="React: ' + REACTION_NAMES[i] + '">' + r + "</button>";
    }).join("");
  }
}
function showUnread() {
  const badge = $("chat-unread");
  if (!badge) return;
  badge.hidden = !unread;
  badge.innerHTML = unread ? unread + '<span class="sr-only"> unread</span>' : "";
}
function chatError(msg) {
  const e = $("chat-error");
  window.clearTimeout(errorTimer);
  e.hidden = !msg;
  e.textContent = msg || "";
  $("chat-text").setAttribute("aria-invalid", msg ? "true" : "false");
  if (msg) errorTimer = window.setTimeout(function () { chatError(null); }, ERROR_FOR_MS);
}
export function wireChat() {
  // in view (scrolled to, or beside the table on a wide screen): nothing is unread
  new IntersectionObserver(function (es) {
    inView = es[es.length - 1].isIntersecting;
    if (inView && unread) { unread = 0; showUnread(); }
  }).observe($("chat-log"));
  const jump = $("chat-jump");
  if (jump) jump.addEventListener("click", function () {
    unread = 0;
    showUnread();
    const text = $("chat-text");
    if (!text.closest("[hidden]")) window.setTimeout(function () { text.focus({preventScroll: true}); }, 0);
  });
  $("chat-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    const box = $("chat-text"), text = box.value;
    if (!text.trim()) return;
    api("/chat", {text: text}, {onError: chatError}).then(function (r) {
      if (!r) return;
      if (box.value === text) clearTyped(box);
    });
  });
  $("chat-text").addEventListener("input", function () { if (!$("chat-error").hidden) chatError(null); });
  $("chat-reactions").addEventListener("click", function (ev) {
    const b = ev.target.closest("button[data-reaction]");
    if (b) api("/chat", {reaction: b.dataset.reaction}, {onError: chatError});
  });
}
