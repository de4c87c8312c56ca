"""A page's frame rendered once per build, not once per page.

A site's hand pages are rendered thousands of times a build, and all but three parts of each
(its title, its heading, its content) are the same on every hand page of a build: the head and
its style, the menu, the footer, which ``base.html`` and ``site_layout.html`` put around them
and which show only what every page is given (the league, its ruleset, the time of
generation, the way back to the site's folder). Rendering that frame was a quarter of the
page's rendering. :class:`PageFrames` renders it once per template and depth, with a marker
where each of the page's own blocks goes, and a page then renders only its own blocks into it:
the same text as the whole template.

A frame is rendered from what every page is given and the page's depth alone: a frame that
asks for anything else (a page's own value) fails (the templates' undefined values are
errors), and that template is then rendered whole, page by page, like any other; so is a
template whose frame does not show each of its blocks exactly once. Only the bundled
templates are framed: a club's run in the sandbox, whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jinja2 import Environment, Template

#: The templates rendered framed, and the blocks of each that every page renders itself.
FRAMED = {"site_hand.html": ("page_title", "heading", "content")}

#: A block's place in a frame (a NUL never comes out of a template's text).
_MARK = "\x00{}\x00"


class PageFrames:
    """The frames of ``env``'s templates (``FRAMED``) for a build whose pages are all given
    ``common``."""

    def __init__(self, env: Environment, common: dict, framed: dict | None = None) -> None:
        self.env = env
        self.common = common
        self.framed = FRAMED if framed is None else framed
        #: (template, root) -> the template, the frame's text around each block and the
        #: blocks in order; None when the template is rendered whole
        self.frames: dict[tuple[str, str], tuple[Template, list[str], list[str]] | None] = {}

    def render(self, name: str, root: str, context: dict) -> str | None:
        """The page of template ``name`` at depth ``root`` with its ``context`` (everything
        it is given: the common values, ``root``, ``url`` and its own), or None when the
        template is not rendered framed (the caller renders it whole)."""
        if name not in self.framed:
            return None
        if (name, root) not in self.frames:
            self.frames[name, root] = self._frame(name, root)
        frame = self.frames[name, root]
        if frame is None:
            return None
        template, texts, blocks = frame
        page_context = template.new_context(context)
        parts = [texts[0]]
        for block, text in zip(blocks, texts[1:]):
            parts.append("".join(template.blocks[block](page_context)))
            parts.append(text)
        return "".join(parts)

    def _frame(self, name: str, root: str) -> tuple[Template, list[str], list[str]] | None:
        template = self.env.get_template(name)
        own = self.framed[name]
        if not all(block in template.blocks for block in own):
            return None
        context = template.new_context({**self.common, "root": root})
        for block in own:
            context.blocks[block] = [_marker(_MARK.format(block))]
        try:
            text = "".join(template.root_render_func(context))
        except Exception:  # noqa: BLE001 - a frame that needs a page's values: not framed
            return None
        pieces = re.split("\x00(" + "|".join(map(re.escape, own)) + ")\x00", text)
        texts, blocks = pieces[0::2], pieces[1::2]
        if sorted(blocks) != sorted(own) or any("\x00" in piece for piece in texts):
            return None
        return template, texts, blocks


def _marker(mark: str) -> Callable[[object], Iterator[str]]:
    """A block's render function that writes only its marker (where the page's own block goes)."""
    return lambda _context: iter([mark])
