// The match page follows its own stream (server-sent events, GET
// /ui/matches/{id}/live/stream?after=<the version the page shows>, api/pages/streams.py):
// its first message, `live`, is the page's live part as the match now is (board, seats,
// scores, deadline, Public Display), which the page swaps in without fetching anything;
// each later one, `patch`, the edits that turn that part into the new one
// (api/pages/live_parts.py: the part cut before each "<" and after each newline, each
// edit [first piece, pieces removed, text put in]). A patch that does not give the
// length it names is not shown: the page opens the stream again, which sends the whole
// part. A dropped stream is resumed by the browser itself (Last-Event-ID: the version of
// the part it has). When the server refuses the stream (it serves its most: 503, or this
// address holds its most: 429), the page reads the event feed without waiting every RETRY
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
  var shows = null; // the last part as sent, without what every event changes: what a patch edits
  var EVERY_EVENT_CHANGES = / data-(?:version|now)="[^"]*"/g;
  // what the page took (messages), what it swapped in (parts), of them patched, fetched
  window.drtsLive = { messages: 0, parts: 0, patches: 0, fetched: 0 };

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

  // Swaps in a live part (its HTML: the part keeps the addresses it was made with; a
  // patched one lacks its version and the server's time, which `at` gives).
  function show(html, at) {
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
    if (!fresh) { throw new Error("the update held no live part"); }
    at = at || { version: Number(fresh.dataset.version), now: fresh.dataset.now };
    live.innerHTML = fresh.innerHTML;
    live.dataset.version = at.version;
    live.dataset.status = fresh.dataset.status;
    after = Math.max(after, at.version);
    offset = Date.parse(at.now) - Date.now();
    window.drtsLive.parts += 1;
    countdown();
    updated = "Live: updated at " + new Date().toLocaleTimeString() + ".";
    if (live.dataset.status === "finished") { stop("The match is over."); } else { say(updated); }
  }

  // The part `text` with the edits of a patch made (from the last, so that each edit's
  // place in `text` still holds).
  function patched(text, edits) {
    var pieces = text.split(/(?=<)|(?<=\n)/);
    for (var i = edits.length - 1; i >= 0; i--) {
      pieces.splice(edits[i][0], edits[i][1], edits[i][2]);
    }
    return pieces.join("");
  }

  // The stream's first message, the whole part: what later patches edit. The page swaps
  // it in only if it is newer than what the page shows.
  function whole(message) {
    shows = message.data.replace(EVERY_EVENT_CHANGES, "");
    if (Number(message.lastEventId) > Number(live.dataset.version)) { show(message.data); }
  }

  function patch(message) {
    var data = JSON.parse(message.data);
    var text = shows === null ? null : patched(shows, data.edits);
    if (text === null || text.length !== data.size) { // not the part it was made for
      shows = null;
      stream.close();
      listen(); // the stream's first message is the whole part
      return;
    }
    shows = text;
    window.drtsLive.patches += 1;
    show(text, { version: Number(message.lastEventId), now: data.now });
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
    [["live", whole], ["patch", patch]].forEach(function (handler) {
      stream.addEventListener(handler[0], function (message) {
        window.drtsLive.messages += 1;
        try { handler[1](message); } catch (error) { say("Live: " + error.message + "."); }
      });
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
