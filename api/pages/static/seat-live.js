// The seat's page follows the seat's own stream (server-sent events, GET
// /ui/matches/{id}/seat/stream?after=<the version the page shows>, api/pages/streams.py):
// each `receipt` is an order of this seat stored since the page was loaded, from any
// source (this page, the API, mail, the forum), listed here; each `match` says where the
// match is, and when its movement or status is no longer the page's, the page says so
// and offers a reload (the board and the legal orders are the new movement's). `ended`:
// the seat's token no longer holds (reissued, or signed out). Without this script the
// page reads as it was served and says to reload.
(function () {
  "use strict";
  var live = document.getElementById("seat-live");
  var status = document.getElementById("seat-live-status");
  if (!live || !window.EventSource) { return; }
  var list = document.getElementById("seat-receipts");
  var reload = document.getElementById("seat-reload");
  var after = Number(live.dataset.version);
  var stream = null;
  window.drtsSeatLive = { receipts: 0, moves: 0 };

  function say(text) { status.textContent = text; }

  function receipt(message) {
    var entry = JSON.parse(message.data), data = entry.data || {};
    var item = document.createElement("li");
    item.className = "receipt-line";
    item.textContent = "Order received for movement " + data.movement + " (" + data.source +
      ", event " + entry.version + "): digest " + data.digest;
    list.appendChild(item);
    window.drtsSeatLive.receipts += 1;
  }

  function moved(message) {
    var now = JSON.parse(message.data);
    if (String(now.movement) === live.dataset.movement && now.status === live.dataset.status) { return; }
    window.drtsSeatLive.moves += 1;
    say(now.status === "finished" ? "The match is over since this page was loaded."
      : "Movement " + live.dataset.movement + " was resolved since this page was loaded: movement " +
        now.movement + " is open.");
    reload.hidden = false;
  }

  function listen() {
    var address = new URL(live.dataset.stream, window.location.href);
    address.searchParams.set("after", after);
    stream = new EventSource(address.href);
    stream.onopen = function () { if (reload.hidden) { say("Live: your receipts and the match's movements show here."); } };
    stream.addEventListener("receipt", receipt);
    stream.addEventListener("match", moved);
    stream.addEventListener("ended", function (message) {
      stream.close();
      say("Live: stopped: " + message.data);
    });
    stream.onerror = function () {
      if (stream.readyState === EventSource.CLOSED) { say("Live: the server refused the stream: reload to see new receipts."); }
    };
  }

  listen();
})();
