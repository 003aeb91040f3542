// The match page follows the match: a long poll on its event feed (GET
// /matches/{id}/events?after=&wait=), and on any new event the page's #live part is
// fetched again and swapped in. The deadline counts down every second.
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
    var minutes = Math.floor(left / 60), seconds = left % 60;
    time.textContent = "in " + (minutes ? minutes + " min " : "") + seconds + " s";
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

  async function follow() {
    say("Live: following the match.");
    while (live.dataset.status !== "finished") {
      try {
        var answer = await fetch(live.dataset.feed + "?after=" + after + "&wait=25&limit=1",
                                 { headers: { Accept: "application/json" } });
        if (answer.status === 429) {
          say("Live: the server is busy, trying again soon.");
          await sleep(1000 * (Number(answer.headers.get("Retry-After")) || 5));
          continue;
        }
        if (!answer.ok) { throw new Error("the event feed answered " + answer.status); }
        var page = await answer.json();
        if (page.version > after) {
          after = page.version;
          await refresh();
          say("Live: updated at " + new Date().toLocaleTimeString() + ".");
        }
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
