// The replay viewer: rebuilds the board of every step from the changes the page holds, and shows one.
// Card names and all text go in with textContent: nothing from the record is read as HTML.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var ui = data.ui;
  var boards = [];
  data.steps.forEach(function (change, i) {
    var board = Object.assign({}, i ? boards[i - 1] : {}, change);
    boards.push(board);
  });
  var last = boards.length - 1;
  var logItems = Array.prototype.slice.call(document.querySelectorAll("#log li"));
  var slider = document.getElementById("slider");
  var where = document.getElementById("where");
  var failure = document.getElementById("failure");
  var current = -1;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function card(id, exhausted) {
    var info = data.cards[id] || {n: id, src: ""};
    var fig = el("figure", "c" + (exhausted ? " ex" : ""));
    fig.setAttribute("data-card", id);
    var img = el("img");
    img.src = info.src;
    img.alt = info.n + (exhausted ? " (" + ui.exhausted + ")" : "");
    fig.appendChild(img);
    fig.appendChild(el("figcaption", "", info.n));
    return fig;
  }

  function fill(box, ids) {
    box.textContent = "";
    if (!ids.length) box.appendChild(el("span", "none", ui.empty));
    ids.forEach(function (x) { box.appendChild(Array.isArray(x) ? card(x[0], x[1]) : card(x, 0)); });
  }

  function showPlayer(n, side, board) {
    var root = document.getElementById("p" + n);
    root.querySelectorAll("[data-k]").forEach(function (dd) { dd.textContent = side[dd.getAttribute("data-k")]; });
    root.querySelectorAll(".track").forEach(function (t) {
      var level = side.al[Number(t.getAttribute("data-f"))];
      var pips = t.querySelector(".pips");
      pips.textContent = "";
      for (var i = 1; i <= data.max; i++) pips.appendChild(el("i", i <= level ? "on" : ""));
      pips.setAttribute("data-level", level);
      pips.title = level + " / " + data.max;
      pips.setAttribute("aria-label", pips.getAttribute("data-label") + " " + pips.title);
    });
    fill(root.querySelector('[data-z="r"]'), side.r ? [side.r] : []);
    fill(root.querySelector('[data-z="f"]'), side.f);
    fill(root.querySelector('[data-z="pl"]'), side.pl);
    var deciding = board.w === null && board.d === n;
    root.classList.toggle("active", board.a === n && board.w === null);
    root.classList.toggle("winner", board.w === n);
    root.querySelector(".mark").hidden = !deciding;
  }

  function show(step) {
    step = Math.max(0, Math.min(last, step));
    if (step === current) return;
    current = step;
    var board = boards[step];
    showPlayer(0, board.p0, board);
    showPlayer(1, board.p1, board);
    var slots = document.querySelectorAll("#row .slot");
    board.row.forEach(function (id, i) {
      slots[i].textContent = "";
      slots[i].appendChild(id ? card(id, 0) : el("span", "none", ui.empty));
    });
    document.getElementById("rd").textContent = board.rd;
    document.getElementById("x").textContent = board.x;
    slider.value = step;
    where.textContent = ui.step.replace("{n}", step + 1).replace("{total}", last + 1) + " · " +
      ui.turn.replace("{turn}", board.t);
    var lastShown = null;
    logItems.forEach(function (li) {
      var s = Number(li.getAttribute("data-step"));
      li.hidden = s > step;
      li.classList.toggle("now", s === step);
      if (s === step && !lastShown) lastShown = li;
    });
    if (lastShown) follow(lastShown);
    if (failure) failure.hidden = !(data.failure && step >= data.failure.step);
    document.body.setAttribute("data-step", step);
    history.replaceState(null, "", "#step-" + (step + 1));
  }

  // The log scrolls to the step's lines by itself, never the page.
  function follow(item) {
    var box = document.querySelector(".log");
    var top = item.getBoundingClientRect().top - box.getBoundingClientRect().top;
    if (top < 0 || top > box.clientHeight - item.offsetHeight) box.scrollTop += top - box.clientHeight / 3;
  }

  // PageUp/PageDown: the start of the previous or next turn.
  function turnFrom(step, dir) {
    var turn = boards[step].t, i = step;
    if (dir > 0) {
      while (i < last && boards[i].t === turn) i++;
      return i;
    }
    while (i > 0 && boards[i - 1].t === turn) i--;
    if (i === step && i > 0) { turn = boards[i - 1].t; while (i > 0 && boards[i - 1].t === turn) i--; }
    return i;
  }

  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { show(last); });
  var decisions = document.getElementById("decisions");
  decisions.addEventListener("change", function () {
    document.querySelector(".log").classList.toggle("quiet", !decisions.checked);
  });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider) return;
    var to = {ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last,
              PageDown: turnFrom(current, 1), PageUp: turnFrom(current, -1)}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  var asked = /^#step-(\d+)$/.exec(location.hash);
  show(asked ? Number(asked[1]) - 1 : 0);
})();
