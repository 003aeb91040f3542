// The seat's page (issue 48): builds an order by clicking the board. The legal units come
// from the page's #picker-data block (api/pages/picker.py): each is the board keys clicked
// in turn (`path`), its text, the piece it commands. A click (or Enter/Space on a focused
// target, or a choice button) extends the path; a whole unit joins the order being built,
// which is written into the text box the form sends and said in an aria-live region.
// The order built is a further message: its pieces count with those the seat's standing
// order already commands (`ordered`), within the stock that order leaves. Without this
// script the text box alone works.
(function () {
  "use strict";
  var data = document.getElementById("picker-data");
  var box = document.getElementById("order-text");
  var board = document.querySelector("#seat-board svg");
  if (!data || !box) { return; }
  var picker = JSON.parse(data.textContent);
  var section = document.getElementById("picker");
  var choices = document.getElementById("picker-choices");
  var built = document.getElementById("order-built");
  var step = document.getElementById("picker-step");
  var path = [];
  var chosen = [];
  section.hidden = false;

  function same(a, b) {
    if (a.length !== b.length) { return false; }
    for (var i = 0; i < a.length; i++) { if (a[i] !== b[i]) { return false; } }
    return true;
  }

  function following() {  // the units the path so far leads to, within the stock
    return picker.units.filter(function (u) {
      return same(u.path.slice(0, path.length), path) && fits(u);
    });
  }

  function heldWith(unit) {  // the order being built once `unit` joins it
    if (picker.whole) { return [unit]; }
    var held = chosen.slice();
    var repeats = picker.repeats[unit.piece] || 0;  // B-Chess's purchases (BC-6)
    var ofPiece = held.filter(function (u) { return u.piece === unit.piece; });
    if (ofPiece.length && (!repeats || ofPiece.length >= repeats)) {
      held.splice(held.indexOf(ofPiece[0]), 1);
    }
    held.push(unit);
    var counted = held.filter(function (u) { return picker.free.indexOf(u.piece) < 0; });
    if (over(held) && counted[0] !== unit) {
      held.splice(held.indexOf(counted[0]), 1);  // the oldest gives way (DRTS-4)
    }
    return held;
  }

  function over(held) {  // past max_pieces, the pieces the standing order commands counted
    if (picker.max_pieces === null) { return false; }
    var pieces = Object.keys(picker.ordered);
    held.forEach(function (u) { if (pieces.indexOf(u.piece) < 0) { pieces.push(u.piece); } });
    return pieces.filter(function (p) { return picker.free.indexOf(p) < 0; }).length >
      picker.max_pieces;
  }

  function fits(unit) {  // an item only while the seat has one left (DRTS-21)
    var held = heldWith(unit);
    if (over(held)) { return false; }  // the standing order leaves no room (DRTS-4)
    return Object.keys(picker.stock).every(function (item) {
      var spent = 0;
      held.forEach(function (u) { spent += (u.spends || {})[item] || 0; });
      Object.keys(picker.ordered).forEach(function (p) {  // a piece ordered anew gives back
        if (held.some(function (u) { return u.piece === p; })) {
          spent -= picker.ordered[p][item] || 0;
        }
      });
      return spent <= picker.stock[item];
    });
  }

  function elementsOf(key) {
    if (!board) { return []; }
    var quoted = JSON.stringify(String(key));
    var at = String(key).indexOf("@");
    if (at > 0) {  // kind@seat: a seat's piece by its kind
      return Array.prototype.slice.call(board.querySelectorAll(
        "g[data-kind=" + JSON.stringify(key.slice(0, at)) + "][data-seat=" +
        JSON.stringify(key.slice(at + 1)) + "]"));
    }
    var hash = String(key).indexOf("#");
    if (hash > 0) {  // kind#id: a piece by its kind and id
      return Array.prototype.slice.call(board.querySelectorAll(
        "g[data-kind=" + JSON.stringify(key.slice(0, hash)) + "][data-id=" +
        JSON.stringify(key.slice(hash + 1)) + "]"));
    }
    return Array.prototype.slice.call(board.querySelectorAll(
      "[data-cell=" + quoted + "], g[data-square=" + quoted + "]"));
  }

  function choose(unit) {
    var held = heldWith(unit);
    var anew = held.filter(function (u) { return u.piece in picker.ordered; });
    // a piece ordered anew first: the parts are screened in the order written, so the item
    // its standing operation gives back is there for the others (DRTS-21)
    chosen = anew.concat(held.filter(function (u) { return anew.indexOf(u) < 0; }));
    path = [];
    box.value = chosen.map(function (u) { return u.text; }).join(picker.joiner);
    render();
  }

  function advance(key) {
    path.push(key);
    var next = following();
    var whole = next.filter(function (u) { return u.path.length === path.length; });
    if (whole.length === 1 && next.length === 1) { choose(whole[0]); } else { render(); }
  }

  function button(label, act, id) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.setAttribute("data-key", id);
    b.addEventListener("click", act);
    choices.appendChild(b);
  }

  function clearBoard() {
    if (!board) { return; }
    board.querySelectorAll(".target, .picked").forEach(function (el) {
      el.classList.remove("target", "picked");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.removeAttribute("aria-label");
      el.removeAttribute("data-next");
    });
  }

  function render() {
    clearBoard();
    choices.textContent = "";
    var next = following();
    var keys = [];
    next.forEach(function (u) {
      if (u.path.length > path.length && keys.indexOf(u.path[path.length]) < 0) {
        keys.push(u.path[path.length]);
      }
    });
    chosen.forEach(function (u) {  // what the order holds, shown on the board
      u.path.forEach(function (key) {
        elementsOf(key).forEach(function (el) { el.classList.add("picked"); });
      });
    });
    path.forEach(function (key) {
      elementsOf(key).forEach(function (el) { el.classList.add("picked"); });
    });
    next.filter(function (u) { return u.path.length === path.length && path.length; })
      .forEach(function (u) { button("Add " + u.label, function () { choose(u); }, "add:" + u.text); });
    keys.forEach(function (key) {
      var label = labelOf(key, next);
      var targets = elementsOf(key);
      targets.forEach(function (el) {
        el.classList.add("target");
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        el.setAttribute("aria-label", label);
        el.setAttribute("data-next", key);
      });
      if (!targets.length) { button(label, function () { advance(key); }, key); }
    });
    step.textContent = path.length ? "after " + path.join(" then ") + ", choose" : "choose";
    built.textContent = chosen.length ? box.value : "(nothing chosen yet)";
  }

  function labelOf(key, next) {
    var ends = next.filter(function (u) { return u.path.length === path.length + 1 && u.path[path.length] === key; });
    if (ends.length === 1 && next.filter(function (u) { return u.path[path.length] === key; }).length === 1) {
      return ends[0].label;
    }
    return String(key);
  }

  function onTarget(event) {
    var el = event.target.closest ? event.target.closest("[data-next]") : null;
    if (!el || !board.contains(el)) { return; }
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") { return; }
    event.preventDefault();
    advance(el.getAttribute("data-next"));
    var first = board.querySelector("[data-next]") || choices.querySelector("button");
    if (first && event.type === "keydown") { first.focus(); }
  }

  if (board) {
    board.classList.add("picking");
    board.addEventListener("click", onTarget);
    board.addEventListener("keydown", onTarget);
  }
  document.getElementById("picker-clear").addEventListener("click", function () {
    path = [];
    chosen = [];
    box.value = "";
    render();
  });
  render();
}());
