"use strict";
// The live preview: fetch the state, draw it, and again each time the server says it changed.
// Every text comes from card files that anyone may have written: it is set with textContent only.

const main = document.getElementById("cards");
const summary = document.getElementById("summary");
const general = document.getElementById("general");
const onlyFindings = document.getElementById("only-findings");
const langChoice = document.getElementById("lang");
let last = null;

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

function findingList(findings) {
  const list = el("ul", { class: "findings" });
  for (const f of findings) {
    const item = el("li", { class: f.severity });
    item.append(el("code", {}, f.at), document.createTextNode(` [${f.rule}] ${f.message}`));
    if (f.hint) item.append(el("span", { class: "hint" }, `hint: ${f.hint}`));
    list.append(item);
  }
  return list;
}

function draw(state) {
  last = state;
  const s = state.summary;
  const pending = state.pending ? ` · drawing ${state.pending} image(s)…` : "";
  summary.textContent = s.errors
    ? `✗ ${s.errors} error(s), ${s.warnings} warning(s), ${s.cards} cards${pending}`
    : `✓ valid, ${s.warnings} warning(s), ${s.cards} cards${pending}`;
  summary.className = s.errors ? "bad" : "";
  general.hidden = state.findings.length === 0;
  general.querySelector("ul").replaceWith(findingList(state.findings));
  const langs = langChoice.value === "all" ? state.langs : [langChoice.value];
  const cards = [];
  for (const card of state.cards) {
    if (onlyFindings.checked && card.findings.length === 0) continue;
    const errors = card.findings.some((f) => f.severity === "error");
    const article = el("article", { id: `card-${card.id}`, class: [errors ? "has-error" : "", card.stale ? "stale" : ""].join(" ").trim() });
    article.append(el("h2", {}, card.name), el("div", { class: "where" }, `${card.file}:${card.line} · ${card.id}${card.stale ? " · not loading: last good image" : ""}`));
    const images = el("div", { class: "images" });
    for (const lang of langs) {
      const figure = el("figure");
      const version = card.images[lang];
      const img = el("img", { alt: `${card.name} (${lang})`, loading: "lazy" });
      if (version) img.src = `/card/${lang}/${card.id}.jpg?v=${version}`;
      figure.append(img, el("figcaption", {}, lang.toUpperCase()));
      images.append(figure);
    }
    article.append(images);
    if (card.findings.length) article.append(findingList(card.findings));
    cards.push(article);
  }
  main.replaceChildren(...cards);
}

async function refresh() {
  const response = await fetch("/state.json", { cache: "no-store" });
  if (response.ok) draw(await response.json());
}

onlyFindings.addEventListener("change", () => last && draw(last));
langChoice.addEventListener("change", () => last && draw(last));
const connection = document.getElementById("connection");
const events = new EventSource("/events");
events.onmessage = () => { connection.textContent = ""; refresh(); };
events.onerror = () => { connection.textContent = "· forge watch is not running"; };
refresh();
