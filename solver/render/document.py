"""A small document model, so that one description of a chart or a par sheet renders as Markdown and as HTML.

Blocks are headings, paragraphs, bullet lists, tables and figures; text may
carry ``**bold**``, ``*emphasis*`` and ```code```, as in Markdown. Nothing else: the reports need no more, and two small
renderers are easier to trust than a templating dependency.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.render.textfmt import text_table


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str = ""


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Bullets:
    items: Sequence[str]


@dataclass(frozen=True)
class Table:
    header: Sequence[str]
    rows: Sequence[Sequence[str]]
    align: str = ""
    """One letter per column, ``l`` or ``r`` (default: left)."""


@dataclass(frozen=True)
class Figure:
    name: str
    """File stem of the picture: ``name.svg`` and ``name.png`` beside the document."""
    caption: str
    svg: str = field(default="", repr=False)
    """The SVG text, inlined by the HTML renderer (the report must open offline, from one file)."""


Block = Heading | Paragraph | Bullets | Table | Figure


def to_markdown(blocks: Sequence[Block]) -> str:
    """The blocks as Markdown (figures as image links to their PNG)."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out += ["#" * block.level + " " + block.text, ""]
        elif isinstance(block, Paragraph):
            out += [block.text, ""]
        elif isinstance(block, Bullets):
            out += [f"- {item}" for item in block.items] + [""]
        elif isinstance(block, Table):
            align = block.align or "l" * len(block.header)
            out.append("| " + " | ".join(block.header) + " |")
            out.append("|" + "|".join("---:" if a == "r" else "---" for a in align) + "|")
            out += ["| " + " | ".join(row) + " |" for row in block.rows]
            out.append("")
        else:
            out += [f"![{block.caption}]({block.name}.png)", "", f"*{block.caption}*", ""]
    return "\n".join(out)


def to_text(blocks: Sequence[Block]) -> str:
    """The blocks as plain text for a terminal (headings underlined, tables aligned, figures as captions)."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            plain = _plain(block.text)
            out += [plain, ("=" if block.level <= 2 else "-") * len(plain), ""]
        elif isinstance(block, Paragraph):
            out += [_plain(block.text), ""]
        elif isinstance(block, Bullets):
            out += [f"- {_plain(item)}" for item in block.items] + [""]
        elif isinstance(block, Table):
            out += [text_table(block.header, block.rows, block.align or None), ""]
        else:
            out += [f"[figure: {block.caption}]", ""]
    return "\n".join(out).rstrip("\n")


#: Markdown's inline marks the blocks may carry, each with its HTML element.
_MARKS = ((re.compile(r"\*\*(.+?)\*\*"), "strong"), (re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])"), "em"),
          (re.compile(r"`([^`]+)`"), "code"))


def _inline(text: str) -> str:
    out = html.escape(text)
    for mark, element in _MARKS:
        out = mark.sub(rf"<{element}>\1</{element}>", out)
    return out


_KEPT_TOGETHER = (re.compile(r"(?<=\w) = (?=\w)"),  # a bet: F = 2
                  re.compile(r"(?<=[mps]) (?=\d+[mps]\b|J\b)|(?<=\bJ) (?=\d+[mps]\b)"))  # a hand: 23m 246p J


def _cell(text: str) -> str:
    """A table cell's HTML: a bet (``F = 2``) and a hand's card groups (``23m 246p J``) never wrap inside."""
    out = _inline(text)
    for together in _KEPT_TOGETHER:
        out = together.sub(lambda m: m.group(0).replace(" ", "\u00a0"), out)
    return out


def _plain(text: str) -> str:
    """Text without its inline marks, for a terminal."""
    for mark, _ in _MARKS:
        text = mark.sub(r"\1", text)
    return text


def _prefix_ids(svg: str, prefix: str) -> str:
    """Prefix every id of an SVG, and its references, so that several inlined SVGs (whose generator
    numbers ids from 1 in each) do not share ids in one page."""
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    if not ids:
        return svg
    pattern = "|".join(sorted(map(re.escape, ids), key=len, reverse=True))
    svg = re.sub(rf'\bid="({pattern})"', lambda m: f'id="{prefix}-{m.group(1)}"', svg)
    return re.sub(rf'#({pattern})\b(?=["\)])', lambda m: f"#{prefix}-{m.group(1)}", svg)


def to_html(blocks: Sequence[Block], title: str) -> str:
    """The blocks as one self-contained HTML page: inline CSS and SVG, no outside resources.

    A short script builds the table of contents from the ``h2`` headings
    when the page loads, so a browser that renders the page shows it (the
    report's test checks for it).
    """
    body: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            anchor = f' id="{html.escape(block.anchor)}"' if block.anchor else ""
            body.append(f"<h{block.level}{anchor}>{_inline(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            body.append(f"<p>{_inline(block.text)}</p>")
        elif isinstance(block, Bullets):
            body.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, Table):
            align = block.align or "l" * len(block.header)
            cls = ['class="num"' if a == "r" else "" for a in align]
            head = "".join(f"<th {c}>{_inline(h)}</th>" for h, c in zip(block.header, cls))
            rows = "".join("<tr>" + "".join(f"<td {c}>{_cell(v)}</td>" for v, c in zip(row, cls)) + "</tr>"
                           for row in block.rows)
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        else:
            svg = _prefix_ids(re.sub(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>", "", block.svg, flags=re.S).strip(),
                              block.name)
            body.append(f'<figure id="figure-{html.escape(block.name)}">{svg}'
                        f"<figcaption>{_inline(block.caption)}</figcaption></figure>")
    return _PAGE.format(title=html.escape(title), body="\n".join(body))


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 75em; margin: 2em auto; padding: 0 1em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }}
th, td {{ border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }}
th {{ background: #f0f0f0; }}
td.num, th.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
figure {{ margin: 1.5em 0; }}
figure svg {{ max-width: 100%; height: auto; }}
figcaption {{ font-style: italic; color: #555; }}
nav#contents {{ background: #f7f7f7; padding: 0.5em 1em; border: 1px solid #ddd; }}
@media print {{
  /* the chart prints on its own pages; the curve, the reference lists and the par sheet after it */
  body {{ max-width: none; margin: 0; font-size: 9pt; }}
  nav#contents {{ display: none; }}
  h2#exceptions, h2#curve, h2#reference, h2#par-sheet, h2#pictures {{ break-before: page; }}
  table {{ break-inside: auto; }} tr {{ break-inside: avoid; }}
}}
</style>
</head>
<body>
{body}
<script>
const contents = document.createElement("nav");
contents.id = "contents";
contents.innerHTML = "<strong>Contents</strong><ol></ol>";
(document.querySelector("h1") || document.body.firstChild).after(contents);
for (const h of document.querySelectorAll("h2[id]")) {{
  const item = document.createElement("li");
  const link = document.createElement("a");
  link.href = "#" + h.id;
  link.textContent = h.textContent;
  item.appendChild(link);
  contents.querySelector("ol").appendChild(item);
}}
</script>
</body>
</html>
"""
