// forge play: the live part of the page. The game's key (the link's #fragment, sent in x-forge-key, never in a
// URL the server sees), the CSRF token, the other player's moves as they happen (Server-Sent Events read with
// fetch, reconnecting by itself), whose turn it is and the clocks, the invite and spectators' links, and the lobby
// of the games this browser holds links to. app.js calls it at four places: headers, remember, follow, lobby.
"use strict";

const forgeLive = (() => {
  const STORE = "forge-play-games";  // localStorage: [{game, key, mode, seat, invite, spectate}]
  const KEY = /^[A-Za-z0-9_-]{32}$/;
  const $ = (id) => document.getElementById(id);

  function key() {
    const k = location.hash.slice(1);
    return KEY.test(k) ? k : null;
  }

  function headers(extra) {
    const h = Object.assign({}, extra || {});
    const k = key();
    if (k) h["x-forge-key"] = k;
    const meta = document.querySelector('meta[name="forge-csrf"]');
    if (meta && meta.content) h["x-forge-csrf"] = meta.content;
    return h;
  }

  function node(tag, attrs, ...children) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") n.textContent = v;
      else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
      else n.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) n.append(c);
    return n;
  }

  // -- the games this browser holds links to ---------------------------------------------------------------
  function games() {
    try {
      const list = JSON.parse(localStorage.getItem(STORE) || "[]");
      return Array.isArray(list) ? list.filter((g) => g && typeof g.game === "string" && KEY.test(g.key || "")) : [];
    } catch (e) {
      return [];
    }
  }

  function keep(entry) {
    const list = games().filter((g) => !(g.game === entry.game && g.key === entry.key));
    const old = games().find((g) => g.game === entry.game && g.key === entry.key) || {};
    list.unshift(Object.assign(old, entry));
    try { localStorage.setItem(STORE, JSON.stringify(list.slice(0, 100))); } catch (e) { /* private mode: no lobby */ }
  }

  function forget(entry) {
    const list = games().filter((g) => !(g.game === entry.game && g.key === entry.key));
    try { localStorage.setItem(STORE, JSON.stringify(list)); } catch (e) { /* nothing kept */ }
  }

  /** Keep a new game's links; the address of its page (with the key in the fragment). */
  function remember(made, lang) {
    keep({game: made.game, key: made.key, mode: made.mode, seat: made.seat, invite: made.invite || null,
          spectate: made.spectate || null});
    return `${made.url}?lang=${lang}#${made.key}`;
  }

  function full(path) {
    return new URL(path, location.href).href;
  }

  async function post(path, body) {
    const r = await fetch(path, {method: "POST", headers: headers({"content-type": "application/json"}),
                                 body: JSON.stringify(body || {})});
    const data = await r.json().catch(() => ({error: `${r.status}`}));
    if (!r.ok) throw new Error(data.error || `${r.status}`);
    return data;
  }

  // -- the lobby --------------------------------------------------------------------------------------------
  async function lobby(W) {
    const box = $("lobby");
    const mine = games();
    box.replaceChildren(node("h2", {id: "lobby-title", text: W.lobby}));
    box.hidden = false;
    if (!mine.length) {
      box.append(node("p", {class: "empty", text: W.lobby_empty}));
      return;
    }
    let states = [];
    try {
      states = (await post(`/api/lobby?lang=${document.documentElement.lang}`, {games: mine.map((g) => ({game: g.game, key: g.key}))})).games;
    } catch (e) {
      box.append(node("p", {class: "empty", text: e.message}));
      return;
    }
    const list = node("ul", {class: "lobby"});
    mine.forEach((g, i) => {
      const st = states[i] || {status: "gone"};
      const link = `/game/${g.game}?lang=${document.documentElement.lang}#${g.key}`;
      const what = [`#${g.game}`, st.factions ? st.factions.map((f) => W.factions[f] || f).join(" / ") : "",
                    st.role === "spectator" ? W.spectate.replace(/\s*[:(].*$/, "") : ""].filter(Boolean).join(" · ");
      const row = node("li", {"data-game": g.game, "data-status": st.status},
        node("span", {class: "what", text: what}), " ",
        node("b", {class: "state", text: W[`status_${st.status}`] || st.status}), " ",
        st.status !== "gone" ? node("a", {class: "button", href: link, text: W.resume}) : null);
      if (st.role === "player" && (st.status === "your_turn" || st.status === "their_turn")) {
        row.append(" ", node("button", {type: "button", class: "abandon", text: W.abandon, onclick: async () => {
          if (!confirm(W.abandon_confirm)) return;
          await fetch(`/api/games/${g.game}/abandon`, {method: "POST", body: "{}",
                      headers: Object.assign(headers({"content-type": "application/json"}), {"x-forge-key": g.key})});
          lobby(W);
        }}));
      }
      row.append(" ", node("button", {type: "button", class: "forget", text: W.forget, onclick: () => { forget(g); lobby(W); }}));
      list.append(row);
    });
    box.append(list);
  }

  // -- a game's live bar: whose turn, the clocks, the links ------------------------------------------------
  function clock(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  function bar(first, W) {
    const box = $("live");
    box.hidden = false;
    const entry = games().find((g) => g.game === first.game && g.key === key()) || {};
    const clocks = node("p", {class: "clocks", "aria-label": W.clock},
      [0, 1].map((p) => node("span", {class: "clock", "data-seat": p}, node("span", {class: "who", text: first.names[p]}), " ",
                                      node("b", {class: "time", text: "0:00"}))));
    const online = node("span", {id: "live-state", class: "off", text: ""});
    box.replaceChildren(node("div", {class: "liverow"}, clocks, online));
    if (first.role === "spectator") box.append(node("p", {class: "watching", text: W.watching}));
    const links = node("div", {class: "links"});
    const show = (label, path) => links.append(node("label", {}, node("span", {text: label}), " ",
      node("input", {type: "text", readonly: true, value: full(path), class: "link", onfocus: (e) => e.target.select()})));
    if (entry.invite) show(W.invite, entry.invite);
    if (entry.spectate) show(W.spectate, entry.spectate);
    if (first.role === "player" && first.mode === "remote") {
      links.append(node("button", {type: "button", id: "make-spectate", text: W.make_spectate, onclick: async (e) => {
        try {
          const made = await post(`/api/games/${first.game}/spectator`);
          keep(Object.assign(entry, {game: first.game, key: key(), spectate: made.spectate}));
          e.target.remove();
          show(W.spectate, made.spectate);
        } catch (err) { /* the alert of the next move says it */ }
      }}));
    }
    box.append(links);
    return {clocks, online};
  }

  /** Follow a game: render each new view the server sends, keep the clocks running, reconnect when cut. */
  function follow(first, current, render, W) {
    keep({game: first.game, key: key(), mode: first.mode, seat: first.role === "spectator" ? null : first.seat});
    if (first.mode !== "remote") return;
    const {clocks, online} = bar(first, W);
    let seen = null, base = [0, 0], at = 0;
    const tick = () => {
      const v = current();
      if (!v) return;
      if (v !== seen) { seen = v; base = v.clock_ms || [0, 0]; at = performance.now(); }
      for (const span of clocks.querySelectorAll(".clock")) {
        const p = Number(span.dataset.seat);
        const running = v.pending === p && !v.over;
        span.classList.toggle("running", running);
        span.querySelector(".time").textContent = clock(base[p] + (running ? performance.now() - at : 0));
      }
    };
    setInterval(tick, 1000);
    tick();
    const status = (on) => {
      online.className = on ? "on" : "off";
      online.textContent = on ? W.live_on : W.live_off;
    };
    const fresh = (v) => {
      const now = current();
      return !now || v.decision_no !== now.decision_no || v.log_total !== now.log_total || !!v.over !== !!now.over;
    };
    (async () => {
      let delay = 500;
      for (;;) {
        try {
          const r = await fetch(`/api/games/${first.game}/events?lang=${first.lang}`, {headers: headers({accept: "text/event-stream"}), cache: "no-store"});
          if (r.status === 403 || r.status === 404) return;  // a wrong link stays wrong: no retry
          if (!r.ok || !r.body) throw new Error(String(r.status));
          const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = "";
          for (;;) {
            const {value, done} = await reader.read();
            if (done) break;
            buffer += value;
            let end;
            while ((end = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
              status(true);
              delay = 500;
              if (!data) continue;
              const v = JSON.parse(data);
              if (fresh(v)) render(v);
              else if (current()) current().clock_ms = v.clock_ms;
              tick();
            }
          }
        } catch (e) { /* cut: said below, and tried again */ }
        status(false);
        await new Promise((ok) => setTimeout(ok, delay));
        delay = Math.min(delay * 2, 10000);
      }
    })();
  }

  // the language links and the record keep the game's key: the links by their fragment, the record by a fetch
  document.addEventListener("click", async (event) => {
    const a = event.target.closest && event.target.closest("#langs a, #record");
    if (!a || !key()) return;
    if (a.id !== "record") {
      a.hash = key();
      return;
    }
    event.preventDefault();
    const r = await fetch(a.getAttribute("href"), {headers: headers()});
    if (!r.ok) return;
    const url = URL.createObjectURL(await r.blob());
    const save = node("a", {href: url, download: (r.headers.get("content-disposition") || "").split('"')[1] || "game.jsonl"});
    document.body.append(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  });

  return {headers, remember, follow, lobby};
})();
