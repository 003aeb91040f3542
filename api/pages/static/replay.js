// The replay answers the arrow keys: left and right step through the phases (on
// into the next movement), up and down jump a movement. Each move loads the page of
// its position, whose address names it.
(function () {
  "use strict";
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
