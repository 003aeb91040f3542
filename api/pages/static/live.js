// The match page follows the match's public stream (server-sent events, GET
// /matches/{id}/stream?after=<the version the page shows>): when events arrive, the
// page fetches only its live part (/ui/matches/{id}/live: board, seats, scores,
// deadline, Public Display) and swaps it in, once for a burst of events. A dropped
// stream is resumed by the browser itself (Last-Event-ID). When the server refuses the
// stream (it serves its most: 503, or this address holds its most: 429), the page reads
// the event feed without waiting every RETRY seconds, and tries the stream again. The
// deadline counts down every second ("in 12 min 5 s", "in 23 h 54 min", "in 3 days 4 h").
(function () {
  "use strict";
  var live = document.getElementById("live");
  var status = document.getElementById("live-status");
  if (!live || !window.EventSource) { return; }
  var RETRY = 10; // seconds: the stream's Retry-After when the server is full
  var after = Number(live.dataset.version);
  var offset = Date.parse(live.dataset.now) - Date.now(); // the server's clock minus ours
  var updated = "", pending = null, stream = null;
  window.drtsLive = { messages: 0, parts: 0 }; // what the page took from the stream

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

  // Fetches the live part and swaps it in (the part keeps the addresses it was made with).
  async function refresh() {
    var answer = await fetch(live.dataset.part, { headers: { Accept: "text/html" } });
    if (!answer.ok) { throw new Error("the page answered " + answer.status); }
    var fresh = new DOMParser().parseFromString(await answer.text(), "text/html").getElementById("live");
    live.innerHTML = fresh.innerHTML;
    live.dataset.version = fresh.dataset.version;
    live.dataset.status = fresh.dataset.status;
    offset = Date.parse(fresh.dataset.now) - Date.now();
    window.drtsLive.parts += 1;
    countdown();
    updated = "Live: updated at " + new Date().toLocaleTimeString() + ".";
    if (live.dataset.status === "finished") { stop("The match is over."); } else { say(updated); }
  }

  // One refresh for a burst of events (a resolution stores its steps one event each).
  function changed() {
    if (pending) { return; }
    pending = setTimeout(function () {
      pending = null;
      refresh().catch(function (error) { say("Live: " + error.message + "; at the next event."); });
    }, 150);
  }

  function stop(text) {
    if (stream) { stream.close(); stream = null; }
    say(text);
  }

  function listen() {
    stream = new EventSource(live.dataset.stream + "?after=" + after);
    stream.onopen = function () { say(following()); };
    stream.onmessage = function (message) {
      after = Math.max(after, Number(message.lastEventId));
      window.drtsLive.messages += 1;
      changed();
    };
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
