"""QR codes: a table's slip and the director's page show one that opens the table's page with
its entry code (``mighty serve``), and the terminal that starts the server shows one for the
director's address. Drawn by segno (pure Python): as inline SVG for a page (no image file, no
network) and as text blocks for a terminal (no escape sequences: ``cli/streams.py`` passes
them as they are).
"""

from __future__ import annotations

from markupsafe import Markup

# Deferred imports: segno loads only where a QR code is drawn.


def qr_svg(text: str, scale: int = 3) -> Markup:
    """``text`` (a URL) as an inline SVG QR code; its modules black on white."""
    import segno  # a runtime dependency, loaded where a code is drawn

    return Markup(
        segno.make(text, error="m").svg_inline(scale=scale, dark="#000", light="#fff", border=2)
    )


def qr_text(text: str) -> str:
    """``text`` as a QR code a terminal shows: half blocks, two rows of modules a line."""
    import io

    import segno  # a runtime dependency, loaded where a code is drawn

    out = io.StringIO()
    segno.make(text, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def table_link(base_url: str, table: int | str, code: str | None) -> str:
    """The address of a table's page on the server at ``base_url`` (``http://host:port``),
    with its entry code when given: what a slip's QR code opens."""
    from urllib.parse import quote

    link = f"{base_url.rstrip('/')}/tables/{quote(str(table), safe='')}"
    return f"{link}?code={quote(code, safe='')}" if code else link
