// The match page follows its own stream (server-sent events, GET
// /ui/matches/{id}/live/stream?after=<the version the page shows>, api/pages/streams.py):
// each `live` message is the page's live part as the match now is (board, seats, scores,
// deadline, Public Display), which the page swaps in without fetching anything. A dropped
// stream is resumed by the browser itself (Last-Event-ID: the version of the part it
// has). When the server refuses the stream (it serves its most: 503, or this address
// holds its most: 429), the page reads the event feed without waiting every RETRY
// seconds, fetches the live part (/ui/matches/{id}/live) when the match moved on, and
// tries the stream again. The deadline counts down every second ("in 12 min 5 s", "in
// 23 h 54 min", "in 3 days 4 h").
(function () {
  "use strict";
  var live = document.getElementById("live");
  var status = document.getElementById("live-status");
  if (!live || !window.EventSource) { return; }
  var RETRY = 10; // seconds: the stream's Retry-After when the server is full
  var after = Number(live.dataset.version);
  var offset = Date.parse(live.dataset.now) - Date.now(); // the server's clock minus ours
  var updated = "", stream = null;
  window.drtsLive = { messages: 0, parts: 0, fetched: 0 }; // what the page took, and how

  function say(text) { if (status) { status.textContent = text; } }
  function sleep(ms) { return new Promise(function (done) { setTimeout(done, ms); }); }
  function following() { return updated || "Live: following the match."; }

  function countdown() {
    var time = document.getElementById("deadline");
    if (!time) { return; }
    var left = Math.round((Date.parse(time.getAttribute("datetime")) - (Date.now() + offset)) / 1000);
    if (left <= 0) { time.textContent = "passed: the movement is being resolved"; return; }
    time.textContent = "in " + remaining(left);
  }

  // The time left in words: seconds under an hour, minutes under 48 hours, days past
  // them (the instant itself, UTC, is the element's title).
  function remaining(left) {
    var days = Math.floor(left / 86400), hours = Math.floor(left / 3600);
    var minutes = Math.floor(left / 60) % 60, seconds = left % 60;
    if (left >= 48 * 3600) { return days + " days " + (hours % 24) + " h"; }
    if (left >= 3600) { return hours + " h " + minutes + " min"; }
    return (minutes ? minutes + " min " : "") + seconds + " s";
  }

  // Swaps in a live part (its HTML: the part keeps the addresses it was made with).
  function show(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
    if (!fresh) { throw new Error("the update held no live part"); }
    live.innerHTML = fresh.innerHTML;
    live.dataset.version = fresh.dataset.version;
    live.dataset.status = fresh.dataset.status;
    after = Math.max(after, Number(fresh.dataset.version));
    offset = Date.parse(fresh.dataset.now) - Date.now();
    window.drtsLive.parts += 1;
    countdown();
    updated = "Live: updated at " + new Date().toLocaleTimeString() + ".";
    if (live.dataset.status === "finished") { stop("The match is over."); } else { say(updated); }
  }

  // Fetches the live part (when the stream is refused) and swaps it in.
  async function refresh() {
    var answer = await fetch(live.dataset.part, { headers: { Accept: "text/html" } });
    if (!answer.ok) { throw new Error("the page answered " + answer.status); }
    window.drtsLive.fetched += 1;
    show(await answer.text());
  }

  function stop(text) {
    if (stream) { stream.close(); stream = null; }
    say(text);
  }

  function listen() {
    var address = new URL(live.dataset.stream, window.location.href);
    address.searchParams.set("after", after);
    stream = new EventSource(address.href);
    stream.onopen = function () { say(following()); };
    stream.addEventListener("live", function (message) {
      window.drtsLive.messages += 1;
      try { show(message.data); } catch (error) { say("Live: " + error.message + "."); }
    });
    stream.onerror = function () {
      if (stream && stream.readyState === EventSource.CLOSED) { busy(); }
      else { say(following() + " Reconnecting…"); } // the browser resumes it (Last-Event-ID)
    };
  }

  // The server refused the stream: read the feed without waiting, then try again.
  async function busy() {
    stream = null;
    say(following() + " The server is busy: reading the match every " + RETRY + " s.");
    await sleep(RETRY * 1000);
    try {
      var answer = await fetch(live.dataset.feed + "?after=" + after + "&limit=1",
                               { headers: { Accept: "application/json" } });
      var page = answer.ok ? await answer.json() : { version: after };
      if (page.version > after) { after = page.version; await refresh(); }
    } catch (error) {
      say("Live: " + error.message + "; trying again.");
    }
    if (live.dataset.status !== "finished") { listen(); }
  }

  countdown();
  setInterval(countdown, 1000);
  if (live.dataset.status === "finished") { say("The match is over."); } else { listen(); }
})();
