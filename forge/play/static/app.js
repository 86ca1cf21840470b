// forge play: the page. It shows what the server's view holds and sends back one of the view's options;
// it knows no rule of the game (the engine offers every legal option, the page only draws them).
"use strict";

const LANG = document.documentElement.lang === "fr" ? "fr" : "en";
const FACTIONS = ["red", "white", "black", "blue"];
let W = {};        // the page's words in LANG (GET /api/words)
let CARDS = {};    // every card's name and printed text in LANG (GET /api/cards)
let view = null;   // the last view of the game
let shownSeat = null;  // hot-seat: the seat whose hand is shown

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function say(key, values) {
  let text = W[key] || key;
  for (const [k, v] of Object.entries(values || {})) {
    text = text.replace(new RegExp(`\\{${k}\\|([^|{}]*)\\|([^{}]*)\\}`, "g"), (m, one, many) => (v === 1 || (LANG === "fr" && v === 0)) ? one : many);
    text = text.split(`{${k}}`).join(String(v));
  }
  return text;
}

async function api(path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const init = body === undefined ? {} : {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)};
  init.headers = forgeLive.headers(init.headers);  // the game's key and the CSRF token (live.js)
  let r;
  try {
    r = await fetch(`${path}${sep}lang=${LANG}`, init);
  } catch (err) {  // no answer at all: the server is down or the network is
    throw Object.assign(new Error(W.offline || err.message), {offline: true});
  }
  const data = await r.json().catch(() => ({error: `${r.status}`}));
  if (!r.ok) throw Object.assign(new Error(data.error || `${r.status}`), {status: r.status});
  return data;
}

function refusal(err) {
  return err.offline ? err.message : say("error", {reason: err.message});
}

function alertText(text) {
  const a = $("alert");
  a.textContent = text || "";
  a.hidden = !text;
}

// -- cards ------------------------------------------------------------------------------------------
// A card on the board is a button that shows it at a readable size with its rules text (inspect);
// what it can do is offered there and in the options, never done by the first click.
function cardNode(card, extra) {
  extra = extra || {};
  const info = CARDS[card.id] || {name: card.name, text: []};
  const img = el("img", {src: `/card/${LANG}/${card.id}.jpg`, alt: "", width: 300, height: 419});
  img.addEventListener("error", () => img.closest(".card").classList.add("noimg"));
  const acts = extra.acts || [];
  // the name, as the caption shows it and then the badge: the spoken name holds the visible words in order
  const state = extra.exhausted ? ` ${W.exhausted}` : "";
  const cls = `card t-${card.type}` + (extra.exhausted ? " exhausted" : "") + (acts.length ? " can" : "");
  return el("button", {type: "button", class: cls, "data-cid": card.cid ?? null, "data-id": card.id,
                       "aria-haspopup": "dialog", "aria-label": say("inspect", {card: (card.name || info.name) + state}),
                       onclick: () => inspect(card, acts)},
            img, el("span", {class: "name", "aria-hidden": "true", text: card.name}),
            extra.exhausted ? " " : null,
            extra.exhausted ? el("span", {class: "badge", "aria-hidden": "true", text: W.exhausted}) : null);
}

function zone(label, cards, actsOf, cls) {
  const box = el("div", {class: "zonebox"}, el("h3", {text: label}));
  if (!cards.length) {  // an empty zone is a sentence, not an empty list
    box.append(el("p", {class: "empty", text: W.empty}));
    return box;
  }
  const list = el("ul", {class: `zone ${cls || ""}`, "aria-label": label});
  for (const c of cards) {
    const node = c ? cardNode(c, {acts: actsOf(c), exhausted: c.exhausted}) : el("span", {class: "card slot", text: "—"});
    list.append(el("li", {}, node));
  }
  box.append(list);
  return box;
}

// -- inspect: one card at a readable size ------------------------------------------------------------
function inspect(card, acts) {
  const info = CARDS[card.id] || {name: card.name, text: []};
  const dialog = $("inspect");
  $("inspect-img").src = `/card/${LANG}/${card.id}.jpg`;
  $("inspect-name").textContent = card.name || info.name;
  $("inspect-type").textContent = [info.type_line, info.cost !== null && info.cost !== undefined ? say("cost", {n: info.cost}) : null,
                                   card.exhausted ? W.exhausted : null].filter(Boolean).join(" · ");
  $("inspect-rules").replaceChildren(...(info.text || []).map((t) => el("p", {text: t})));
  $("inspect-acts").replaceChildren(...(acts || []).map((o) => el("button", {type: "button", class: `opt k-${o.kind}`,
    "data-kind": o.kind, onclick: () => { dialog.close(); choose(o); }}, o.label)));
  if (!dialog.open) dialog.showModal();
  ($("inspect-acts").querySelector("button") || $("inspect-close")).focus();
}

/** What each card of the board can do now: the options naming it (in the hand, one of several identical
 * cards names only the first: the others offer the same options). */
function actions(v) {
  const byCid = new Map(), byId = new Map();
  for (const o of (v.decision ? v.decision.options : [])) {
    if (!o.card) continue;
    if (!byCid.has(o.card.cid)) byCid.set(o.card.cid, []);
    byCid.get(o.card.cid).push(o);
    if (["play", "summon"].includes(o.kind)) byId.set(o.card.id, byCid.get(o.card.cid));
  }
  const hand = new Set((v.players[v.seat].hand || []).map((c) => c.cid));
  return (c) => byCid.get(c.cid) || (hand.has(c.cid) && byId.get(c.id)) || [];
}

// -- the board --------------------------------------------------------------------------------------
function stat(label, value, cls) {
  return el("li", {class: cls || ""}, el("span", {class: "k", text: label}), " ", el("b", {text: String(value)}));
}

function tracks(p) {
  return el("ul", {class: "tracks", "aria-label": W.allegiance}, p.allegiance.map((a) =>
    el("li", {class: `track f-${a.faction}`, title: `${W.allegiance} ${a.name} ${a.n}/${a.max}`},
       el("span", {class: "fname", text: a.name}), " ",
       el("span", {class: "pips", "aria-hidden": "true"}, Array.from({length: a.max}, (_, i) => el("i", {class: i < a.n ? "on" : ""}))),
       el("span", {class: "n", text: `${a.n}/${a.max}`}))));
}

function heading(v, p) {
  const pl = v.players[p];
  return el("h2", {}, `${v.names[p]} — ${pl.faction_name}`, v.active === p ? el("span", {class: "turnmark", text: ` · ${say("turn", {n: v.turn})}`}) : null);
}

function resources(node, v, p) {
  const pl = v.players[p];
  const stats = el("ul", {class: "stats"},
    stat(W.health, pl.health, "health"), stat(W.essence, pl.essence), stat(W.poison, pl.poison),
    stat(W.hand, pl.hand_count), stat(W.deck, pl.deck), stat(W.discard, pl.discard));
  if (pl.shield) stats.append(el("li", {class: "flag", text: W.shield}));
  if (pl.protect) stats.append(el("li", {class: "flag", text: W.protect}));
  node.append(stats, tracks(pl));
  node.append(el("p", {class: "rite"}, el("span", {class: "k", text: W.rite + (LANG === "fr" ? "\u00a0: " : ": ")}),
                 pl.rite ? el("b", {text: pl.rite.name, title: (CARDS[pl.rite.id] && CARDS[pl.rite.id].text || []).join("\n")}) : W.no_rite));
}

function tableCards(node, pl, actsOf) {
  node.append(zone(W.battlefield, pl.field, actsOf, "field"));
  if (pl.played.length) node.append(zone(W.played, pl.played, actsOf, "played"));
  if (pl.discard_top.length) node.append(zone(`${W.discard} (${pl.discard})`, pl.discard_top, actsOf, "discard small"));
}

/** The other player: all in one panel on the board. */
function theirPanel(v, p, actsOf) {
  const node = $("p-them"), pl = v.players[p];
  node.replaceChildren(heading(v, p));
  node.className = `player f-${pl.faction}` + (v.active === p ? " active" : "");
  resources(node, v, p);
  tableCards(node, pl, actsOf);
}

/** The seat's own side: its resources and hand stay in view (the dock), its cards in play are on the board. */
function myPanels(v, p, actsOf) {
  const dock = $("p-me"), mine = $("p-mine"), pl = v.players[p];
  dock.replaceChildren(heading(v, p));
  dock.className = `player f-${pl.faction}` + (v.active === p ? " active" : "");
  resources(dock, v, p);
  if (pl.hand) dock.append(zone(W.hand, pl.hand, actsOf, "hand"));
  mine.replaceChildren(el("h2", {class: "sr-only", text: W.you_panel}));
  mine.className = `player mine f-${pl.faction}`;
  tableCards(mine, pl, actsOf);
}

function middle(v, actsOf) {
  const node = $("middle");
  node.replaceChildren(zone(`${W.row} · ${W.recruit_deck} ${v.recruit_deck}`, v.row, actsOf, "row"));
  const rites = v.rites.map((r) => Object.assign({}, r, {name: r.held_by ? `${r.name} — ${r.held_by}` : r.name}));
  node.append(zone(W.rites, rites, actsOf, "rites small"));
  if (v.exile.length) node.append(zone(W.exile, v.exile, actsOf, "exile small"));
}

// -- the decision -----------------------------------------------------------------------------------
function decisionPanel(v) {
  const box = $("options");
  box.replaceChildren();
  $("decision-title").textContent = W.decision;
  if (v.over) {
    $("prompt").textContent = v.over.text;
    box.append(el("a", {class: "button", href: `/?lang=${LANG}`, text: W.new_game}));
    return;
  }
  if (!v.decision) {
    $("prompt").textContent = v.waiting || "";
    return;
  }
  $("prompt").textContent = v.decision.prompt;
  v.decision.options.forEach((o, n) => {
    box.append(el("button", {type: "button", class: `opt k-${o.kind}`, "data-kind": o.kind, "data-i": o.i,
                             "data-cid": o.card ? o.card.cid : null,
                             "aria-keyshortcuts": n < 9 ? String(n + 1) : null, onclick: () => choose(o)},
                  n < 9 ? el("kbd", {"aria-hidden": "true", text: String(n + 1)}) : null, o.label));
  });
}

let seenLines = null;  // how many log lines the page had shown: the lines after them are marked new
function logPanel(v) {
  const list = $("log-lines");
  const first = v.log_total - v.log.length;
  const isNew = (n) => seenLines !== null && first + n >= seenLines;
  list.replaceChildren(...v.log.map((line, n) => el("li", {class: (line.startsWith("—") ? "turnline" : "") + (isNew(n) ? " new" : ""), text: line})));
  seenLines = v.log_total;
  list.start = v.log_total - v.log.length + 1;
  list.scrollTop = list.scrollHeight;
  const rec = $("record");
  rec.hidden = !(v.over || v.mode === "hotseat");
  rec.href = `/api/games/${v.game}/record`;
  rec.textContent = W.record;
}

function render(v) {
  const wasInOptions = !document.activeElement || document.activeElement === document.body ||
    $("options").contains(document.activeElement) || !document.activeElement.isConnected;
  view = v;
  const actsOf = actions(v);
  if ($("inspect").open) $("inspect").close();  // what it offered was the last decision's
  theirPanel(v, 1 - v.seat, actsOf);
  middle(v, actsOf);
  myPanels(v, v.seat, actsOf);
  decisionPanel(v);
  logPanel(v);
  $("status").textContent = v.over ? v.over.text : `${say("turn", {n: v.turn})} — ${v.decision ? v.decision.prompt : (v.waiting || "")}`;
  sheetHeight();
  document.body.classList.toggle("over", !!v.over);
  document.body.dataset.decision = v.decision_no;  // where the game stands, for people's tools and the tests
  document.body.dataset.seat = v.seat;
  if (v.mode === "hotseat" && v.decision && shownSeat !== v.seat) {
    $("cover-text").textContent = say("cover", {player: v.names[v.seat]});
    $("cover").hidden = false;
    $("game").setAttribute("aria-hidden", "true");
    $("game").classList.add("covered");
    $("reveal").focus();
    return;
  }
  if (wasInOptions) focusFirst();
}

function focusFirst() {
  const first = $("options").querySelector("button, a");
  if (first) first.focus({preventScroll: true});
}

let busy = false;
async function choose(option) {
  if (busy || !view || !view.decision) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    const v = await api(`/api/games/${view.game}/decide`, {decision: view.decision_no, action: option.action, seat: view.seat});
    alertText("");
    render(v);
  } catch (err) {
    alertText(refusal(err));
    if (!err.offline) try { render(await api(`/api/games/${view.game}`)); } catch (e) { /* the alert says enough */ }
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

/** A phone: the sheet (hand, resources, decision) is fixed at the bottom; the page leaves room for it. */
function sheetHeight() {
  const sheet = $("sheet");
  const fixed = getComputedStyle(sheet).position === "fixed";
  document.documentElement.style.setProperty("--sheet-h", fixed ? `${sheet.offsetHeight}px` : "0px");
}
window.addEventListener("resize", sheetHeight);

// -- pages ------------------------------------------------------------------------------------------
function fillWords() {
  for (const node of document.querySelectorAll("[data-w]")) node.textContent = W[node.dataset.w] || node.dataset.w;
  document.title = W.title;
  $("setup-title").textContent = W.setup;
  $("log-title").textContent = W.log;
  $("keys").textContent = `${W.keys} ${W.inspect_keys}`;
  $("inspect-close").textContent = W.close;
  $("inspect-close").addEventListener("click", () => $("inspect").close());
  $("reveal").textContent = W.reveal;
  for (const a of $("langs").querySelectorAll("a")) {
    a.href = `${location.pathname}?lang=${a.getAttribute("hreflang")}`;
    if (a.getAttribute("hreflang") === LANG) a.setAttribute("aria-current", "true");
  }
  $("home").href = `/?lang=${LANG}`;
}

function showSetup() {
  $("setup").hidden = false;
  const form = $("setup-form");
  for (const [name, pick] of [["f0", "red"], ["f1", "blue"]]) {
    const select = form.elements[name];
    select.replaceChildren(...FACTIONS.map((f) => el("option", {value: f, selected: f === pick, text: W.factions[f]})));
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const seed = data.get("seed");
    const body = {mode: data.get("mode"), factions: [data.get("f0"), data.get("f1")], first: Number(data.get("first")),
                  expert: data.get("expert") === "on", seed: seed === "" || seed === null ? null : Number(seed),
                  spectator: data.get("spectator") === "on"};
    try {
      const made = await api("/api/games", body);
      location.assign(forgeLive.remember(made, LANG));  // the game's link, kept in the lobby (live.js)
    } catch (err) {
      alertText(refusal(err));
    }
  });
  $("start").focus();
  forgeLive.lobby(W);  // this browser's games (live.js)
}

async function showGame(gid) {
  $("game").hidden = false;
  $("status").textContent = W.loading;
  try {
    render(await api(`/api/games/${gid}`));
    forgeLive.follow(view, () => view, render, W);  // the other player's moves, the clock (live.js)
  } catch (err) {
    // no game to show: say why where "Loading" was, and offer a new one
    $("status").replaceChildren(err.status === 404 ? say("no_game", {game: gid})
                                : err.status === 403 ? say("no_key", {game: gid}) : refusal(err), " ",
                                el("a", {class: "button", href: `/?lang=${LANG}`, text: W.new_game}));
  }
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || !view || !$("cover").hidden || $("inspect").open) return;
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  if (event.key === "i" || event.key === "I") {  // inspect the card of the focused option or card
    const cid = event.target.dataset && event.target.dataset.cid;
    const card = cid ? document.querySelector(`#game .card[data-cid="${cid}"]`) : null;
    if (card) { event.preventDefault(); card.click(); }
    return;
  }
  if (!view.decision) return;
  if (/^[1-9]$/.test(event.key)) {
    const option = view.decision.options[Number(event.key) - 1];
    if (option) { event.preventDefault(); choose(option); }
  }
});

async function main() {
  [W, CARDS] = await Promise.all([api("/api/words"), api("/api/cards")]);
  fillWords();
  $("reveal").addEventListener("click", () => {
    shownSeat = view.seat;
    $("cover").hidden = true;
    $("game").removeAttribute("aria-hidden");
    $("game").classList.remove("covered");
    focusFirst();
  });
  const m = location.pathname.match(/^\/game\/([0-9]+)$/);
  if (m) await showGame(m[1]); else showSetup();
}

main();
