// The referee's page follows the referee's stream (server-sent events, GET
// /ui/matches/{id}/referee/stream, api/pages/streams.py; opening it is one recorded look):
// each `desk` message holds the desk's figures (open orders and their seats, disputes
// awaiting a ruling, the quarantine), shown here; when they are no longer those the page
// was served with, it says so and offers a reload to act on them. Without this script the
// page reads as it was served and says to reload.
(function () {
  "use strict";
  var live = document.getElementById("desk-live");
  var status = document.getElementById("desk-live-status");
  if (!live || !window.EventSource) { return; }
  var loaded = JSON.parse(live.dataset.figures);
  var shown = document.getElementById("desk-figures");
  var reload = document.getElementById("desk-reload");
  var stream = null;
  window.drtsDeskLive = { messages: 0 };

  function text(id, value) { document.getElementById(id).textContent = value; }
  function same(a, b) {
    return a.open_orders === b.open_orders && a.status === b.status && a.movement === b.movement &&
      JSON.stringify(a.seats_ordered) === JSON.stringify(b.seats_ordered) &&
      JSON.stringify(a.disputes_waiting) === JSON.stringify(b.disputes_waiting) &&
      JSON.stringify(a.quarantined) === JSON.stringify(b.quarantined);
  }

  function desk(message) {
    var now = JSON.parse(message.data);
    window.drtsDeskLive.messages += 1;
    text("desk-open-orders", now.open_orders + " open order" + (now.open_orders === 1 ? "" : "s") +
      (now.seats_ordered.length ? " (seats " + now.seats_ordered.join(", ") + ")" : ""));
    text("desk-disputes", now.disputes_waiting.length ? "disputes awaiting a ruling: " +
      now.disputes_waiting.join(", ") : "no dispute awaits a ruling");
    text("desk-quarantine", now.quarantined ? "quarantined: " + now.quarantined.message : "not quarantined");
    shown.hidden = false;
    var changed = !same(now, loaded);
    reload.hidden = !changed;
    status.textContent = changed ? "Live: changed since this page was loaded (movement " + now.movement + ", " + now.status + ")."
      : "Live: following the match.";
  }

  var address = new URL(live.dataset.stream, window.location.href);
  address.searchParams.set("after", live.dataset.version);
  stream = new EventSource(address.href);
  stream.addEventListener("desk", desk);
  stream.addEventListener("ended", function (message) {
    stream.close();
    status.textContent = "Live: stopped: " + message.data;
  });
  stream.onerror = function () {
    if (stream.readyState === EventSource.CLOSED) { status.textContent = "Live: the server refused the stream: reload to see what changed."; }
  };
})();
