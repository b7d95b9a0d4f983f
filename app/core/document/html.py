"""A :class:`Document` as one HTML page: the title, each table under its caption (figures
right-aligned, every name escaped), its notes, the sections, the method. It prints and opens
anywhere (no script, no external file)."""

from __future__ import annotations

from app.core.document.model import Document, Table
from app.core.document.svg_chart import text

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222;
       line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; vertical-align: top; }
th { background: #eef3f9; text-align: left; } td.num { text-align: right; white-space: nowrap; }
.iqr { color: #666; font-size: 0.85em; } .meta, .note { color: #555; }
.paper { background: #fff8e6; } figure { margin: 1em 0; break-inside: avoid; }
svg.chart { max-width: 100%; height: auto; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; }
               table, figure { break-inside: avoid; } }
"""


def page(title: str, body: list[str]) -> str:
    """A whole page around ``body`` (lines of HTML) with the shared style."""
    head = (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{text(title)}</title><style>{STYLE}</style></head><body>"
    )
    return "\n".join([head, *body, "</body></html>", ""])


def table_html(table: Table) -> list[str]:
    out = [f"<h2>{text(table.caption)}</h2>"] if table.caption else []
    head = "".join(f"<th>{text(h)}</th>" for h in table.headers)
    out.append(f"<table><thead><tr>{head}</tr></thead><tbody>")
    for row in table.text_rows():
        cells = "".join(
            f'<td class="num">{text(c)}</td>' if table.numeric(i) else f"<td>{text(c)}</td>"
            for i, c in enumerate(row)
        )
        out.append(f"<tr>{cells}</tr>")
    out.append("</tbody></table>")
    out += [f'<p class="note">{text(n)}</p>' for n in table.notes]
    return out


def render(document: Document) -> str:
    body = [f"<h1>{text(document.title)}</h1>"] if document.title else []
    for table in document.tables:
        body += table_html(table)
    for section in document.sections:
        body += [f"<h2>{text(section.heading)}</h2>", "<ul>"]
        body += [f"<li>{text(line)}</li>" for line in section.lines]
        body.append("</ul>")
    if document.method:
        body += ["<h2>Method</h2>", f"<p>{text(document.method)}</p>"]
    return page(document.title or "CipherBench", body)
