"""The strategy report: the chart, its pictures and the par sheet, as Markdown, JSON, PNG, SVG and one HTML page."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from solver.errors import InputError
from solver.game.config import GameConfig
from solver.products.chart import Chart, build_chart, chart_document
from solver.products.edge import par_sheet, par_sheet_document
from solver.products.patterns import DEFAULT_WORDS
from solver.render.document import Block, Heading, Paragraph, to_html, to_markdown
from solver.runtime.files import written_atomically

FORMATS = ("png", "svg", "html", "md")


def parse_formats(text: str) -> tuple[str, ...]:
    """``"png,svg"`` -> ``("png", "svg")``; refuses a format that is not one of :data:`FORMATS`."""
    formats = tuple(f.strip().lower() for f in text.split(","))
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise InputError(f"--format takes a comma-separated list of {', '.join(FORMATS)}; got {text!r}")
    return formats


def _write(path: Path, text: str) -> None:
    with written_atomically(path) as tmp:
        tmp.write_text(text)


def write_report(config: GameConfig, tables: Path | str, out: Path | str, formats: tuple[str, ...] = FORMATS,
                 exact: bool = False, n_jobs: int = -1, quiet: bool = True, words: str = DEFAULT_WORDS,
                 max_lines: int | None = None, seats: Sequence[int] = (), table_hands: int = 1_000_000
                 ) -> tuple[Chart, list[Path]]:
    """Build the chart from a main-game solve and write it in ``formats`` into ``out``; returns the files.

    ``md`` writes ``chart.md`` and ``chart.json``; ``png`` and ``svg`` the
    pictures; ``html`` one self-contained ``index.html`` (chart, pictures
    inlined as SVG, par sheet) that opens offline. ``exact`` prices the
    whole chart exactly (:func:`solver.products.chart.chart_exact`); ``words`` names the holds
    (:func:`solver.products.chart.build_chart`); ``max_lines`` builds the best chart found within that many
    lines, with its curve of loss against length (:func:`solver.products.chart_short.build_short_chart`);
    ``seats`` adds the par sheet's table of that many seats, ``table_hands`` hands each (simulated:
    :func:`solver.products.edge.table_figures`).
    """
    from solver.products.edge import check_table_seats
    from solver.products.plots import save_figures  # matplotlib is slow to import; only pictures need it

    check_table_seats(config, seats)  # before the chart is built (minutes on the real deck), as edge does
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if max_lines is None:
        chart = build_chart(config, tables, exact=exact, n_jobs=n_jobs, quiet=quiet, words=words)
    else:
        from solver.products.chart_short import build_short_chart

        chart = build_short_chart(config, tables, max_lines, exact=exact, n_jobs=n_jobs, quiet=quiet, words=words)
    pictures = tuple(f for f in ("png", "svg") if f in formats)
    figures, written = save_figures(config, tables, chart, out, pictures) if pictures or "html" in formats else ([], [])
    if "md" in formats:
        linked = [Heading(2, "Pictures"), *figures] if "png" in formats else []  # Markdown links the PNGs
        _write(out / "chart.md", to_markdown(chart_document(chart) + linked))
        _write(out / "chart.json", json.dumps(chart.to_json(), indent=1))
        written += [out / "chart.md", out / "chart.json"]
    if "html" in formats:
        sheet = par_sheet(config, tables, quiet=quiet, seats=seats, table_hands=table_hands)
        blocks: list[Block] = [
            Heading(1, "Mahjong Poker: strategy and par sheet"),
            Paragraph(f"Configuration {config.fingerprint()} ({config.geometry.size} cards). "
                      "The par sheet and each decision's cost are exact, computed from the solve's tables; "
                      "the ting table by outs restates the exact win-probability thresholds under the "
                      "simplifications it states."),
        ]
        blocks += chart_document(chart)[1:]  # the page has its own title; the chart leads, then the figures
        blocks += par_sheet_document(sheet)
        blocks += [Heading(2, "Pictures", "pictures")] + figures
        _write(out / "index.html", to_html(blocks, "Mahjong Poker: strategy and par sheet"))
        written.append(out / "index.html")
    return chart, written
