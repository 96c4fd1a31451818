"""A self-contained HTML page of a report's Markdown: the plots embedded as data URIs.

Reads the Markdown that :mod:`doppelx.batch.report` and :mod:`doppelx.batch.sweep` write
(headings, paragraphs, pipe tables, ``![alt](file.png)`` images, inline code and bold) and
writes one HTML file that needs nothing beside it: open it in any browser, mail it, attach it.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from rules.common.atomic import write_text

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #1d1d1d; }
h1 { font-size: 1.6em; border-bottom: 2px solid #1f5fae; padding-bottom: .2em; }
h2 { font-size: 1.2em; margin-top: 1.8em; color: #1f5fae; }
table { border-collapse: collapse; margin: .6em 0; font-size: .92em; }
th, td { border: 1px solid #c8c8c8; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #eef3fa; }
tr:nth-child(even) td { background: #fafafa; }
code { background: #f1f1f1; padding: 0 .2em; border-radius: 3px; }
img { max-width: 100%; border: 1px solid #ddd; margin: .5em 0; }
.na { color: #8a5a00; }
"""

_IMAGE = re.compile(r"^!\[([^\]]*)\]\(([^)]+)\)$")


def _inline(text: str) -> str:
    """Escape a line and turn ``code`` and **bold** and *italic* into tags."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![\w*])\*([^*]+)\*(?![\w*])", r"<em>\1</em>", out)
    return out.replace("not measurable", '<span class="na">not measurable</span>')


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _image(alt: str, src: str, folder: Path) -> str:
    path = folder / src
    if not path.is_file():
        return f"<p>[missing image {html.escape(src)}]</p>"
    data = base64.b64encode(path.read_bytes()).decode()
    return f'<p><img alt="{html.escape(alt)}" src="data:image/png;base64,{data}"></p>'


def markdown_html(text: str, folder: Path, title: str = "DoppelX report") -> str:
    """The HTML page of the Markdown ``text`` (images read from ``folder`` and embedded)."""
    body: list[str] = []
    lines = text.splitlines()
    i = 0
    para: list[str] = []

    def flush() -> None:
        if para:
            body.append("<p>" + " ".join(_inline(p) for p in para) + "</p>")
            para.clear()

    while i < len(lines):
        line = lines[i].rstrip()
        if not line:
            flush()
        elif line.startswith("#"):
            flush()
            level = len(line) - len(line.lstrip("#"))
            body.append(f"<h{level}>{_inline(line[level:].strip())}</h{level}>")
        elif _IMAGE.match(line):
            flush()
            m = _IMAGE.match(line)
            assert m is not None
            body.append(_image(m.group(1), m.group(2), folder))
        elif line.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            head, rest = rows[0], [r for r in rows[1:] if not all(set(c) <= set("-: ") for c in r)]
            body.append(
                "<table><thead><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in head) + "</tr></thead>"
            )
            body.append(
                "<tbody>"
                + "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in rest)
                + "</tbody></table>"
            )
            continue
        else:
            para.append(line)
        i += 1
    flush()
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def write_html(markdown: Path, out: Path) -> Path:
    """Write the self-contained HTML page of the Markdown file ``markdown`` to ``out``."""
    text = markdown.read_text(encoding="utf-8")
    first = next((ln for ln in text.splitlines() if ln.startswith("# ")), "# DoppelX report")
    write_text(out, markdown_html(text, markdown.parent, first[2:]), what="report")
    return out
