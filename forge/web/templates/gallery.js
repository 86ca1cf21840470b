// The gallery's search, filters and language switch: it only shows and hides what the page holds.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("gallery-data").textContent);
  var root = document.documentElement;
  var form = document.getElementById("filters");
  var query = document.getElementById("q");
  var count = document.getElementById("count");
  var none = document.getElementById("none");
  var cards = Array.prototype.slice.call(document.querySelectorAll(".card"));
  var selects = ["faction", "type", "cost", "keyword"].map(function (n) { return document.getElementById("f-" + n); });

  // The same folding as the page's data-search: accents and case ignored, anything else kept as ASCII.
  function fold(text) {
    return text.normalize("NFKD").replace(/[^\x00-\x7f]/g, "").toLowerCase();
  }

  function matches(card, words, lang) {
    for (var i = 0; i < selects.length; i++) {
      var want = selects[i].value;
      if (want && card.getAttribute("data-" + selects[i].name).split(" ").indexOf(want) < 0) return false;
    }
    var text = card.getAttribute("data-search-" + lang) || "";
    return words.every(function (w) { return text.indexOf(w) >= 0; });
  }

  function apply() {
    var lang = root.getAttribute("data-lang");
    var words = fold(query.value).split(/\s+/).filter(Boolean);
    var shown = 0;
    cards.forEach(function (card) {
      var ok = matches(card, words, lang);
      card.hidden = !ok;
      if (ok) shown += 1;
    });
    count.textContent = data.ui[lang].shown.replace("{n}", shown).replace("{total}", cards.length);
    none.hidden = shown > 0;
  }

  function setLang(lang) {
    if (data.langs.indexOf(lang) < 0) return;
    root.setAttribute("data-lang", lang);
    root.setAttribute("lang", lang);
    document.querySelectorAll("[data-set-lang]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-set-lang") === lang));
    });
    document.querySelectorAll("[data-label-" + lang + "]").forEach(function (o) {
      o.textContent = o.getAttribute("data-label-" + lang);
    });
    query.placeholder = query.getAttribute("data-placeholder-" + lang);
    apply();
  }

  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  form.addEventListener("reset", function () { setTimeout(apply, 0); });
  document.querySelectorAll("[data-set-lang]").forEach(function (b) {
    b.addEventListener("click", function () {
      setLang(b.getAttribute("data-set-lang"));
      history.replaceState(null, "", "#" + b.getAttribute("data-set-lang"));
    });
  });
  var asked = location.hash.slice(1);
  setLang(data.langs.indexOf(asked) >= 0 ? asked : root.getAttribute("data-lang"));
})();
