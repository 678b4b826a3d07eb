// Installable: the service worker keeps the app shell (never a table's state; docs/web.md).
// A file of its own, not an inline script: the pages' Content-Security-Policy allows scripts
// from this server's files only (docs/web.md "Security").
if ("serviceWorker" in navigator) window.addEventListener("load", function () {
  navigator.serviceWorker.register("/sw.js").catch(function () { return null; });
});
