"""The balance report's charts, drawn with matplotlib, as byte-identical PNG and SVG.

Figures are made with matplotlib's object API (``Figure`` and the Agg canvas),
never ``pyplot``: no global state, no window, any thread. The same data gives the
same bytes run to run and machine to machine (with the pinned matplotlib): the
SVG ids come from a fixed ``svg.hashsalt``, text is drawn as paths in the bundled
DejaVu Sans, and neither file carries a date nor the software's version.

Every chart takes the ``balance`` section of ``forge simulate --format json``
(forge.sim.simulate.balance) and shows sample sizes and 95 % intervals, so a reader
never sees a bare rate.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

#: matplotlib settings that make the files reproducible and readable.
RC = {"svg.hashsalt": "forge-balance", "svg.fonttype": "path", "font.family": "DejaVu Sans", "font.size": 9,
      "axes.spines.top": False, "axes.spines.right": False, "figure.dpi": 100, "savefig.dpi": 120,
      "path.simplify": False}
PNG_META = {"Software": None}
SVG_META = {"Date": None, "Creator": None, "Format": None, "Type": None}
GREY = "#9a9a9a"
SIGNIFICANT = "#c0392b"


@dataclass(frozen=True)
class Chart:
    """One chart: its file stem, a caption for people, and its PNG and SVG bytes."""

    name: str
    title: str
    caption: str
    png: bytes
    svg: bytes


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # lazy: loads matplotlib only when needed
    from matplotlib.figure import Figure  # lazy: loads matplotlib only when needed

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _save(fig, name: str, title: str, caption: str) -> Chart:
    png, svg = io.BytesIO(), io.BytesIO()
    fig.savefig(png, format="png", metadata=PNG_META)
    fig.savefig(svg, format="svg", metadata=SVG_META)
    return Chart(name, title, caption, png.getvalue(), svg.getvalue())


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.0f}%"


# -- the charts ---------------------------------------------------------------------------------

def matchup_heatmap(balance: dict, names: dict[str, str]) -> Chart:
    """The first seat's win rate for each ordered pairing: rows the first faction, columns the second."""
    import numpy as np  # lazy: loads numpy only when needed

    cells = balance["matrix"]["first_seat_wins"]
    factions = list(cells)
    grid = np.full((len(factions), len(factions)), np.nan)
    fig = _figure(6.2, 5.0)
    ax = fig.add_subplot()
    for i, a in enumerate(factions):
        for j, b in enumerate(factions):
            r = cells[a][b]
            if r and r["value"] is not None:
                grid[i, j] = r["value"]
    image = ax.imshow(grid, cmap="RdBu_r", vmin=0.2, vmax=0.8)
    for i, a in enumerate(factions):
        for j, b in enumerate(factions):
            r = cells[a][b]
            if r is None:
                ax.text(j, i, "—", ha="center", va="center", color=GREY)
            elif r["value"] is not None:
                ax.text(j, i, f"{_pct(r['value'])}\n{_pct(r['low'])}–{_pct(r['high'])}\nn={r['n']}",
                        ha="center", va="center", fontsize=8,
                        color="white" if abs(r["value"] - 0.5) > 0.18 else "black")
    ax.set_xticks(range(len(factions)), [names.get(f, f).replace(" ", "\n", 1) for f in factions])
    ax.set_yticks(range(len(factions)), [names.get(f, f) for f in factions])
    ax.set_xlabel("second player")
    ax.set_ylabel("first player")
    ax.set_title("First player's win rate by pairing (95 % interval)")
    fig.colorbar(image, ax=ax, shrink=0.8, format=lambda x, _: f"{100 * x:.0f}%")
    return _save(fig, "matchups", "Matchups", "The first player's win rate for each ordered pairing of factions, "
                 "with its 95 % Wilson interval and the number of games. Red: the first player wins more often; "
                 "blue: less.")


def card_deltas(balance: dict, names: dict[str, str], uses: tuple[str, ...] = ("bought", "in_hand")) -> Chart:
    """Per recruitment card: how much higher its users' win rate is, with the 95 % interval."""
    rows = [c for c in balance["cards"] if c["card"] in names and c[uses[0]]["value"] is not None]
    rows.sort(key=lambda c: c[uses[0]]["value"])
    fig = _figure(4.2 * len(uses) + 1.6, max(3.0, 0.19 * len(rows) + 1.2))
    axes = fig.subplots(1, len(uses), sharey=True, squeeze=False)[0]
    ys = list(range(len(rows)))
    for ax, use in zip(axes, uses):
        for y, c in zip(ys, rows):
            d = c[use]
            if d["value"] is None:
                continue
            colour = SIGNIFICANT if d["significant"] else "#34495e"
            ax.errorbar(100 * d["value"], y, xerr=[[100 * (d["value"] - d["low"])], [100 * (d["high"] - d["value"])]],
                        fmt="o", ms=3, color=colour, ecolor=colour, elinewidth=1, capsize=1.5)
        ax.axvline(0, color=GREY, lw=0.8)
        ax.set_xlabel(f"win-rate difference, points ({_USE_LABEL[use]})")
        ax.grid(axis="x", color="#e5e5e5", lw=0.6)
    axes[0].set_yticks(ys, [names[c["card"]] for c in rows], fontsize=7)
    axes[0].set_ylim(-1, len(rows))
    fig.suptitle("Win rate of the players who used a card minus those who did not (95 % interval)")
    return _save(fig, "card-deltas", "Per-card win-rate differences",
                 "For each recruitment card, the win rate of the players who bought it (left) or had it in hand "
                 "(right) minus the win rate of those who did not, in points, with the 95 % interval of the "
                 "difference. Red marks a difference significant after Holm's correction over every card and "
                 "use. These are associations: the player who is ahead buys and draws more.")


_USE_LABEL = {"bought": "bought", "played": "played", "activated": "activated", "in_hand": "had in hand"}


def cost_curve(balance: dict, names: dict[str, str], colours: dict[str, str]) -> Chart:
    """Each recruitment card's cost against how often players buy it, by faction."""
    fig = _figure(6.4, 4.2)
    ax = fig.add_subplot()
    points = [p for p in balance["cost_curve"] if p["bought"]["value"] is not None]
    factions = sorted({p["faction"] for p in points}, key=lambda f: list(colours).index(f) if f in colours else 99)
    offsets = {f: (i - (len(factions) - 1) / 2) * 0.12 for i, f in enumerate(factions)}
    for f in factions:
        mine = [p for p in points if p["faction"] == f]
        xs = [p["cost"] + offsets[f] for p in mine]
        ys = [100 * p["bought"]["value"] for p in mine]
        err = [[100 * (p["bought"]["value"] - p["bought"]["low"]) for p in mine],
               [100 * (p["bought"]["high"] - p["bought"]["value"]) for p in mine]]
        ax.errorbar(xs, ys, yerr=err, fmt="o", ms=4, color=colours.get(f, GREY), elinewidth=0.8, capsize=1.5,
                    label=names.get(f, f), alpha=0.85)
    costs = sorted({p["cost"] for p in points})
    means = [sum(p["bought"]["value"] for p in points if p["cost"] == c) / sum(p["cost"] == c for p in points)
             for c in costs]
    ax.plot(costs, [100 * m for m in means], color="black", lw=1.2, label="mean per cost")
    ax.set_xticks(costs)
    ax.set_xlabel("soul cost")
    ax.set_ylabel("players who bought it at least once (%)")
    ax.set_title("Cost curve against purchase rate (95 % interval)")
    ax.legend(frameon=False, fontsize=8)
    return _save(fig, "cost-curve", "Cost curve", "Each recruitment card at its cost (dots of a faction side by side), "
                 "the share of player-games in which it was bought at least once with its 95 % interval, and "
                 "the mean per cost. A card far above its cost's line is bought more than its price suggests.")


def length_histogram(balance: dict) -> Chart:
    lengths = balance["lengths"]
    hist = {int(k): v for k, v in lengths["histogram"].items()}
    fig = _figure(6.4, 3.6)
    ax = fig.add_subplot()
    if hist:
        ax.bar(list(hist), list(hist.values()), width=0.85, color="#5d6d7e")
        ax.axvline(lengths["median"], color=SIGNIFICANT, lw=1.2, label=f"median {lengths['median']}")
        ax.axvspan(lengths["q1"] - 0.5, lengths["q3"] + 0.5, color=SIGNIFICANT, alpha=0.08, label="quartiles")
        ax.legend(frameon=False)
    ax.set_xlabel("game turns (both players' turns)")
    ax.set_ylabel("games")
    ax.set_title(f"Game length ({lengths['n']} games)")
    return _save(fig, "game-length", "Game length", "How many turns the games lasted (both players' turns "
                 "counted; half of it is turns per player), with the median and the quartiles.")


def health_over_turns(balance: dict) -> Chart:
    fig = _figure(6.4, 3.8)
    ax = fig.add_subplot()
    for role, colour in (("winner", "#2e86c1"), ("loser", SIGNIFICANT)):
        rows = [r for r in balance["health"][role] if r["n"] >= 10]
        if not rows:
            continue
        xs = [r["turn"] for r in rows]
        ax.fill_between(xs, [r["q1"] for r in rows], [r["q3"] for r in rows], color=colour, alpha=0.15, lw=0)
        ax.plot(xs, [r["median"] for r in rows], color=colour, lw=1.5, label=f"eventual {role}: median, quartiles")
    ax.set_ylim(bottom=0)
    ax.set_xlabel("game turn (health at its start)")
    ax.set_ylabel("health")
    ax.set_title("Health over turns")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(frameon=False)
    else:  # too few games to draw a curve: say so instead of an empty frame
        ax.text(0.5, 0.5, "fewer than 10 games reached any turn", transform=ax.transAxes,
                ha="center", va="center", color="#666666")
    return _save(fig, "health", "Health over turns", "The health of the eventual winner and loser at the start of "
                 "each game turn: median and quartiles over the games still running (turns reached by fewer "
                 "than 10 games are left out).")


def seat_rates(balance: dict, names: dict[str, str], colours: dict[str, str]) -> Chart:
    by_seat = balance["matrix"]["by_seat"]
    fig = _figure(6.4, 3.6)
    ax = fig.add_subplot()
    for i, (f, seats) in enumerate(by_seat.items()):
        for j, seat in enumerate(("first", "second")):
            r = seats[seat]
            if r["value"] is None:
                continue
            x = i + (j - 0.5) * 0.36
            ax.bar(x, 100 * r["value"], width=0.34, color=colours.get(f, GREY), alpha=1.0 if j == 0 else 0.55)
            ax.errorbar(x, 100 * r["value"], yerr=[[100 * (r["value"] - r["low"])], [100 * (r["high"] - r["value"])]],
                        color="black", elinewidth=0.8, capsize=2)
    ax.axhline(50, color=GREY, lw=0.8)
    ax.set_xticks(range(len(by_seat)), [f"{names.get(f, f)}\nfirst | second" for f in by_seat])
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 100)
    ax.set_title("Each faction's win rate in the first and second seat (95 % interval)")
    return _save(fig, "seats", "Factions by seat", "Each faction's win rate when it plays first (solid) and "
                 "second (light), with the 95 % interval.")


#: The report's charts, by name, in reading order: what ``all_charts`` draws (and a test's blank stand-in names).
CHARTS = ("matchups", "seats", "game-length", "health", "cost-curve", "card-deltas")


def all_charts(balance: dict, card_names: dict[str, str], faction_names: dict[str, str],
               colours: dict[str, str]) -> list[Chart]:
    """Every chart of the report, in reading order (``card_names``: the recruitment cards, by id)."""
    import matplotlib  # lazy: loads matplotlib only when needed

    with matplotlib.rc_context(RC):
        return [matchup_heatmap(balance, faction_names), seat_rates(balance, faction_names, colours),
                length_histogram(balance), health_over_turns(balance), cost_curve(balance, faction_names, colours),
                card_deltas(balance, card_names)]
