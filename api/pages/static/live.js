// The match page follows the match: a long poll on its event feed (GET
// /matches/{id}/events?after=&wait=), and on any new event the page's #live part is
// fetched again and swapped in. When the server holds all the long polls it lets wait
// (429 too_many_long_polls), the page reads the feed without waiting, every
// Retry-After seconds, until a long poll is let in again. The deadline counts down
// every second ("in 12 min 5 s", "in 23 h 54 min", "in 3 days 4 h").
(function () {
  "use strict";
  var live = document.getElementById("live");
  var status = document.getElementById("live-status");
  if (!live) { return; }
  var after = Number(live.dataset.version);
  var offset = Date.parse(live.dataset.now) - Date.now(); // the server's clock minus ours

  function say(text) { if (status) { status.textContent = text; } }
  function sleep(ms) { return new Promise(function (done) { setTimeout(done, ms); }); }

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

  async function refresh() {
    var answer = await fetch(window.location.href, { headers: { Accept: "text/html" } });
    if (!answer.ok) { throw new Error("the page answered " + answer.status); }
    var fresh = new DOMParser().parseFromString(await answer.text(), "text/html").getElementById("live");
    live.innerHTML = fresh.innerHTML;
    live.dataset.version = fresh.dataset.version;
    live.dataset.status = fresh.dataset.status;
    offset = Date.parse(fresh.dataset.now) - Date.now();
    after = Math.max(after, Number(fresh.dataset.version));
    countdown();
  }

  function read(wait) {
    return fetch(live.dataset.feed + "?after=" + after + "&wait=" + wait + "&limit=1",
                 { headers: { Accept: "application/json" } });
  }

  async function follow() {
    var updated = "";
    say("Live: following the match.");
    while (live.dataset.status !== "finished") {
      try {
        var answer = await read(25), busy = answer.status === 429;
        var note = busy ? " The server is busy: reading the match every few seconds." : "";
        if (busy) {
          say((updated || "Live: following the match.") + note);
          await sleep(1000 * (Number(answer.headers.get("Retry-After")) || 5));
          answer = await read(0);
        }
        if (!answer.ok) { throw new Error("the event feed answered " + answer.status); }
        var page = await answer.json();
        if (page.version > after) {
          after = page.version;
          await refresh();
          updated = "Live: updated at " + new Date().toLocaleTimeString() + ".";
        }
        say((updated || "Live: following the match.") + note);
      } catch (error) {
        say("Live: " + error.message + "; trying again in 5 s.");
        await sleep(5000);
      }
    }
    say("The match is over.");
  }

  countdown();
  setInterval(countdown, 1000);
  follow();
})();
