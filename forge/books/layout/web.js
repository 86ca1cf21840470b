/* The web edition's behaviour (forge render books --html): card previews, search, the language switch,
   the contents folded on a phone. Plain JavaScript, no library, nothing fetched: the page carries its
   data in <script id="book-data">. The page's Content-Security-Policy allows this script by its hash. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("book-data").textContent);
  var main = document.getElementById("main");

  /* -- card previews: point at a card's name, focus it, or tap it ------------------------------- */
  var preview = document.getElementById("card-preview");
  var picture = preview.querySelector("img");
  var shown = null;
  var pinned = false;

  function place(button) {
    var box = button.getBoundingClientRect();
    var width = preview.offsetWidth, height = preview.offsetHeight, gap = 8;
    var top = box.bottom + gap;
    if (top + height > window.innerHeight && box.top - gap - height >= 0) top = box.top - gap - height;
    top = Math.max(gap, Math.min(top, window.innerHeight - height - gap));
    var left = Math.max(gap, Math.min(box.left, window.innerWidth - width - gap));
    preview.style.top = top + "px";
    preview.style.left = left + "px";
  }

  function show(button, pin) {
    var card = data.cards[button.getAttribute("data-card")];
    if (!card) return;
    if (shown && shown !== button) hide();
    picture.src = card[0];
    picture.alt = card[1];
    preview.hidden = false;
    button.setAttribute("aria-describedby", "card-preview");
    button.classList.add("shown");
    shown = button;
    pinned = pin || pinned;
    place(button);
  }

  function hide() {
    if (!shown) return;
    shown.removeAttribute("aria-describedby");
    shown.classList.remove("shown");
    preview.hidden = true;
    shown = null;
    pinned = false;
  }

  function cardOf(event) {
    return event.target.closest ? event.target.closest("button.card-ref") : null;
  }

  document.addEventListener("mouseover", function (event) {
    var button = cardOf(event);
    if (button && !pinned) show(button, false);
  });
  document.addEventListener("mouseout", function (event) {
    var button = cardOf(event);
    if (button && button === shown && !pinned && !button.contains(event.relatedTarget)) hide();
  });
  document.addEventListener("focusin", function (event) {
    var button = cardOf(event);
    if (button) show(button, false);
  });
  document.addEventListener("focusout", function (event) {
    if (cardOf(event) === shown && !pinned) hide();
  });
  document.addEventListener("click", function (event) {
    var button = cardOf(event);
    if (button) {
      if (button === shown && pinned) hide(); else show(button, true);
    } else if (shown) {
      hide();
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && shown) {
      var button = shown;
      hide();
      button.focus();
    }
  });
  window.addEventListener("scroll", function () { if (shown) place(shown); }, { passive: true });
  window.addEventListener("resize", function () { if (shown) place(shown); });

  /* -- search: every section of the page, accents and case ignored -------------------------------- */
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function titleOf(heading) {
    var copy = heading.cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll(".other, .cost, .pips"), function (e) { e.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  var sections = [];
  (function index() {
    var current = null;
    var walker = document.createTreeWalker(main, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === 1) {
        if (/^H[1-4]$/.test(node.tagName) && node.id) {
          current = { id: node.id, title: titleOf(node), text: [] };
          sections.push(current);
        }
      } else if (current && !(node.parentNode.closest && node.parentNode.closest("h1, h2, h3, h4"))) {
        current.text.push(node.nodeValue);
      }
    }
    sections.forEach(function (s) {
      s.text = s.text.join("").replace(/\s+/g, " ").trim();
      s.folded = fold(s.title + " " + s.text);
      s.foldedTitle = fold(s.title);
    });
  })();

  var form = document.getElementById("search");
  var input = document.getElementById("q");
  var panel = document.getElementById("results");
  var list = document.getElementById("results-list");
  var title = panel.querySelector(".results-title");
  var status = document.getElementById("results-status");

  function snippet(section, word) {
    var at = fold(section.text).indexOf(word);
    if (at < 0) return section.text.slice(0, 140);
    var start = Math.max(0, at - 60);
    return (start > 0 ? "…" : "") + section.text.slice(start, at + 100) + "…";
  }

  function search(query) {
    var words = fold(query).split(/\s+/).filter(Boolean);
    list.textContent = "";
    if (!words.length) {
      panel.hidden = true;
      status.textContent = "";
      return [];
    }
    var found = sections.filter(function (s) {
      return words.every(function (w) { return s.folded.indexOf(w) >= 0; });
    });
    found.sort(function (a, b) {
      var ta = words.every(function (w) { return a.foldedTitle.indexOf(w) >= 0; }) ? 0 : 1;
      var tb = words.every(function (w) { return b.foldedTitle.indexOf(w) >= 0; }) ? 0 : 1;
      return ta - tb || sections.indexOf(a) - sections.indexOf(b);
    });
    found.slice(0, 40).forEach(function (s) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = "#" + s.id;
      link.textContent = s.title;
      var text = document.createElement("p");
      text.textContent = snippet(s, words[0]);
      item.appendChild(link);
      item.appendChild(text);
      list.appendChild(item);
    });
    var message = found.length === 0 ? data.ui.results_none.replace("{q}", query)
      : found.length === 1 ? data.ui.results_one : data.ui.results_many.replace("{n}", found.length);
    title.textContent = message;
    status.textContent = message;
    panel.hidden = false;
    return found;
  }

  input.addEventListener("input", function () { search(input.value); });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    search(input.value);
    var first = list.querySelector("a");
    if (first) first.focus();
  });
  panel.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("a")) panel.hidden = true;
  });
  form.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      input.value = "";
      search("");
    }
  });
  panel.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      panel.hidden = true;
      input.focus();
    }
  });

  /* -- language switch: the same section in the other language ------------------------------------ */
  var headings = Array.prototype.slice.call(main.querySelectorAll("h1[id], h2[id], h3[id], h4[id]"));
  var bar = document.querySelector(".bar");

  /* an anchor lands below the bar, whatever its height (it takes two rows on a phone) */
  function measure() { document.documentElement.style.setProperty("--bar", bar.offsetHeight + "px"); }
  measure();
  window.addEventListener("resize", measure);

  /* the heading the reader is under: the last one above the upper quarter of the window */
  function currentSection() {
    var top = bar.getBoundingClientRect().bottom + window.innerHeight / 4;
    var found = null;
    for (var i = 0; i < headings.length; i++) {
      var box = headings[i].getBoundingClientRect();
      if (box.height <= 1) continue;  /* the book's title, there for screen readers only */
      if (box.top <= top) found = headings[i]; else break;
    }
    var target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target && target.getBoundingClientRect().top >= 0 && target.getBoundingClientRect().top < window.innerHeight) {
      var index = target.closest ? target.closest("[id^='index-'], #index") : null;
      if (index) return index.id;
    }
    return found ? found.id : null;
  }

  Array.prototype.forEach.call(document.querySelectorAll("a[data-lang]"), function (link) {
    var other = data.langs[link.getAttribute("data-lang")];
    if (!other) return;
    function aim() {
      var id = currentSection();
      var there = id && other.map[id];
      link.href = other.href + (there ? "#" + encodeURIComponent(there) : "");
    }
    link.addEventListener("click", aim);
    link.addEventListener("focus", aim);
    link.addEventListener("mouseenter", aim);
  });

  /* -- contents: folded on a narrow screen, open beside the text on a wide one ------------------- */
  var contents = document.getElementById("toc-box");
  var narrow = window.matchMedia("(max-width: 60rem)");
  function fit() { contents.open = !narrow.matches; }
  fit();
  narrow.addEventListener("change", fit);
  contents.addEventListener("click", function (event) {
    if (narrow.matches && event.target.closest && event.target.closest("a")) contents.open = false;
  });
})();
