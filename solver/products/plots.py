"""Pictures of a solve and its chart, drawn with matplotlib and saved as PNG and SVG.

Each ``plot_*`` function draws one figure from a finished main-game solve's
tables (or the chart) and returns it; :func:`save_figures` writes them all.
Output is reproducible: the SVG carries no date and a fixed hash salt.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from math import comb
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no screen is needed or wanted

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import ListedColormap  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from solver.game.config import GameConfig  # noqa: E402
from solver.products.chart import Chart  # noqa: E402
from solver.products.chart_lines import best_hold_values  # noqa: E402
from solver.render.document import Figure as DocFigure  # noqa: E402
from solver.runtime.files import written_atomically  # noqa: E402
from solver.tables.files import read_table  # noqa: E402

plt.rcParams["svg.hashsalt"] = "mahjong-poker"


def plot_ev_distribution(config: GameConfig, tables: Path) -> Figure:
    """Histogram of the best option's EV over all deals (each deal class counted by its weight)."""
    deals = read_table(tables / "deals.parquet", columns=["best_ev", "weight"])
    ev = deals.column("best_ev").to_numpy()
    share = deals.column("weight").to_numpy() / comb(config.geometry.size, 6)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.hist(ev, bins=60, weights=share, color="#4c72b0")
    mean = float(share @ ev)
    ax.axvline(mean, color="#c44e52", linestyle="--", label=f"mean {mean:+.4f} (the game's EV)")
    ax.set_xlabel("EV of the deal under optimal play (units of the tian-hu bet)")
    ax.set_ylabel("share of deals")
    ax.set_title("How good is the deal? EV of every deal, optimal play")
    ax.legend()
    return fig


def plot_ting_heatmap(chart: Chart) -> Figure:
    """The ting decision by number of outs (columns) and fa-hu bet F (rows)."""
    options = sorted({r["option"] for r in chart.ting_outs}, key=lambda o: (o != "fold", o))
    fas = sorted({r["fa_bet"] for r in chart.ting_outs})
    outs = sorted({r["outs"] for r in chart.ting_outs})
    grid = np.zeros((len(fas), len(outs)), dtype=int)
    for r in chart.ting_outs:
        grid[fas.index(r["fa_bet"]), outs.index(r["outs"])] = options.index(r["option"])
    # fold grey, then ever darker blues for ever bigger bets (as many as the configuration has)
    colours = ["#d9d9d9"] + [matplotlib.colormaps["Blues"](0.35 + 0.6 * i / max(1, len(options) - 2))
                             for i in range(len(options) - 1)]
    fig, ax = plt.subplots(figsize=(10, 2 + 0.6 * len(fas)))
    ax.imshow(grid, cmap=ListedColormap(colours), vmin=-0.5, vmax=len(colours) - 0.5, aspect="auto")
    ax.set_xticks(range(len(outs)), [str(o) for o in outs], fontsize=8)
    ax.set_yticks(range(len(fas)), [f"F = {f:g}" for f in fas])
    ax.set_xlabel(f"outs: unseen cards that complete a hu (of {chart.ting_outs[0]['unseen']} when you hold no joker)")
    ax.set_title("The ting decision by outs")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[i]) for i in range(len(options))]
    ax.legend(handles, options, loc="upper center", bbox_to_anchor=(0.5, -0.35), ncol=len(options), frameon=False)
    fig.tight_layout()
    return fig


def plot_fold_raise_regions(config: GameConfig, tables: Path) -> Figure:
    """The fa-hu decision of every post-draw state reached: the best hold's EV with F = each bet size.

    The DD already lost is added back, so folding is worth -1 everywhere;
    the colour is the optimal decision, the point's area the state's reach.
    """
    draws = read_table(tables / "draws.parquet", columns=["double_down", "reach", "best_action", "best_bet"])
    sizes = list(config.fa_hu_bets)
    best = best_hold_values(config, Path(tables)) + draws["double_down"].to_numpy()[:, None]
    action, bet = draws["best_action"].to_numpy(zero_copy_only=False), draws["best_bet"].to_numpy()
    shown = action != "claim"
    xs, ys = best[shown, 0], best[shown, -1]
    kinds = np.where(action[shown] == "fold", "fold", np.char.add("bet F = ", [f"{b:g}" for b in bet[shown]]))
    reach = draws["reach"].to_numpy()[shown]
    low, high = sizes[0], sizes[-1]
    fig, ax = plt.subplots(figsize=(6.5, 6))
    area = 40 * np.sqrt(reach / reach.max()) if len(reach) else reach
    colours = {"fold": "#c44e52"} | {f"bet F = {b:g}": c for b, c in zip(sizes, ["#55a868", "#4c72b0", "#8172b2"])}
    for kind in sorted(set(kinds)):
        mask = kinds == kind
        ax.scatter(xs[mask], ys[mask], s=area[mask], alpha=0.5, rasterized=True, color=colours.get(kind),
                   label=kind, edgecolors="none")
    lo = min(xs.min(initial=-1.0), ys.min(initial=-1.0)) - 0.2
    hi = max(xs.max(initial=-1.0), ys.max(initial=-1.0)) + 0.2
    ax.plot([lo, hi], [lo, hi], color="#444", linewidth=0.8, label="equal EV")
    ax.axvline(-1, color="#c44e52", linewidth=0.8, linestyle=":")
    ax.axhline(-1, color="#c44e52", linewidth=0.8, linestyle=":", label="fold (-1)")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel(f"EV of the best hold with F = {low:g}")
    ax.set_ylabel(f"EV of the best hold with F = {high:g}")
    ax.set_title("Fold or raise at fa-hu: every post-draw state reached")
    ax.legend(loc="upper left", fontsize=8)
    return fig


def plot_outcome_returns(tables: Path) -> Figure:
    """Each final outcome's contribution to the return (net result times probability)."""
    rows = read_table(tables / "outcomes.parquet", columns=["outcome", "return"]).to_pylist()
    rows.sort(key=lambda r: r["return"])
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(rows) + 1.5))
    ax.barh([r["outcome"] for r in rows], [r["return"] for r in rows],
            color=["#c44e52" if r["return"] < 0 else "#55a868" for r in rows])
    ax.axvline(0, color="#444", linewidth=0.8)
    ax.set_xlabel("contribution to the EV per hand (units of the tian-hu bet)")
    ax.set_title(f"Where the return comes from (the bars sum to the EV, {sum(r['return'] for r in rows):+.4f})")
    fig.tight_layout()
    return fig


def plot_loss_curve(chart: Chart) -> Figure:
    """The least exact loss found against the number of lines, one curve per form of chart tried: the whole
    chart (left) and each decision alone (right: the deal dashed, the draw dotted)."""
    fig, (whole, alone) = plt.subplots(1, 2, figsize=(11, 4.5), sharey=True)
    for i, form in enumerate(chart.curve or []):
        points = [p for p in form["points"] if p["lines"] != "full"]
        for ax, parts in ((whole, (("chart", "-"),)), (alone, (("deal", "--"), ("draw", ":")))):
            for part, style in parts:
                xy = [(p["lines"], p[part]) for p in points if p[part] is not None]
                if xy and (ax is whole or i < 2):  # alone, the better-of-both form repeats the other two
                    label = form["form"] if ax is whole else f"{form['form']}: the {part}"
                    ax.plot(*zip(*xy), style, marker="o", color=f"C{i}", label=label)
    for ax, title in ((whole, "the whole chart"), (alone, "each decision alone")):
        ax.axhline(0.005, color="#c44e52", linewidth=0.8, label="the goal: 0.005 a hand")
        ax.set_xscale("log", base=2)
        sizes = [p["lines"] for p in (chart.curve or [{"points": []}])[0]["points"] if p["lines"] != "full"]
        ax.set_xticks(sizes, [str(n) for n in sizes])
        ax.minorticks_off()
        ax.set_yscale("log")
        ax.set_xlabel("lines allowed (deal and draw together)" if ax is whole else "lines allowed (that decision)")
        ax.set_title(title)
        ax.legend(fontsize=7)
    whole.set_ylabel("exact loss a hand against optimal play")
    fig.suptitle("What a shorter chart costs")
    fig.tight_layout()
    return fig


#: name -> (caption, how to draw it)
FIGURES: dict[str, tuple[str, Callable[[GameConfig, Path, Chart], Figure]]] = {
    "ev_distribution": ("The distribution of EVs over deals under optimal play, weighted by how often each "
                        "deal occurs.", lambda c, t, ch: plot_ev_distribution(c, t)),
    "ting_heatmap": ("The ting decision by the number of outs and the fa-hu bet F.",
                     lambda c, t, ch: plot_ting_heatmap(ch)),
    "fold_raise_regions": ("Fold or raise at fa-hu: each post-draw state reached under optimal play, by the EV "
                           "of its best hold at each bet size; colour is the optimal decision.",
                           lambda c, t, ch: plot_fold_raise_regions(c, t)),
    "outcome_returns": ("The contribution of each final outcome to the return.",
                        lambda c, t, ch: plot_outcome_returns(t)),
    "loss_curve": ("The least exact loss found against the number of lines, one curve per form of chart tried "
                   "(only for a chart built with --max-lines).", lambda c, t, ch: plot_loss_curve(ch)),
}


def save_figure(fig: Figure, stem: Path, formats: tuple[str, ...] = ("png", "svg")) -> list[Path]:
    """Save ``fig`` as ``stem.<format>`` for each format (the SVG reproducible: no date) and close it."""
    written = []
    for fmt in formats:
        path = stem.with_name(f"{stem.name}.{fmt}")
        if fmt == "svg":
            fig.savefig(path, format="svg", dpi=120, metadata={"Date": None}, bbox_inches="tight")
        else:
            fig.savefig(path, dpi=120, bbox_inches="tight")
        written.append(path)
    plt.close(fig)
    return written


def save_figures(config: GameConfig, tables: Path | str, chart: Chart, out: Path | str,
                 formats: tuple[str, ...] = ("png", "svg")) -> tuple[list[DocFigure], list[Path]]:
    """Draw every figure, save it into ``out`` in each of ``formats`` (png, svg: none is fine), and return
    the figures as document blocks (with their SVG text, for inlining) and the files written."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    figures: list[DocFigure] = []
    written: list[Path] = []
    for name, (caption, draw) in FIGURES.items():
        if name == "loss_curve" and not chart.curve:
            continue
        fig = draw(config, Path(tables), chart)
        svg = io.StringIO()
        fig.savefig(svg, format="svg", dpi=120, metadata={"Date": None}, bbox_inches="tight")
        figures.append(DocFigure(name, caption, svg.getvalue()))
        written += save_figure(fig, out / name, tuple(f for f in formats if f != "svg"))
        if "svg" in formats:  # the text just drawn, which save_figure would draw again
            written.append(out / f"{name}.svg")
            with written_atomically(written[-1]) as tmp:
                tmp.write_text(svg.getvalue(), encoding="utf-8")
    return figures, written
