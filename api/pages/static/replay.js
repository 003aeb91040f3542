// The replay answers the arrow keys: left and right step through the phases (on
// into the next movement), up and down jump a movement. Each move loads the page of
// its position, whose address names it. While the match goes on, the page follows its
// public stream (as live.js does) and says when a movement resolves, with a link to it.
(function () {
  "use strict";
  var note = document.getElementById("replay-live");
  if (note && window.EventSource) {
    var stream = new EventSource(note.dataset.stream + "?after=" + note.dataset.version);
    note.textContent = "Live: a movement resolving will be said here.";
    stream.onmessage = function (message) {
      var event = JSON.parse(message.data);
      if (event.type === "Finished") { stream.close(); }
      if (event.type !== "MovementResolved") { return; }
      var movement = event.data.movement;
      note.textContent = "Movement " + movement + " was resolved since this page was loaded: ";
      var link = document.createElement("a");
      link.href = window.location.pathname + "?movement=" + movement;
      link.id = "resolved-since";
      link.textContent = "replay it";
      note.appendChild(link);
    };
  }
  var keys = { ArrowLeft: "previous", ArrowRight: "next", ArrowUp: "previous-movement",
               ArrowDown: "next-movement" };
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    var target = event.target;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) { return; }
    var link = keys[event.key] && document.getElementById(keys[event.key]);
    if (!link) { return; }
    event.preventDefault();
    window.location.assign(link.href);
  });
})();
