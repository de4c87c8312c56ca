"""Autoescaping at the speed of its common cases, for the bundled templates and the filters.

Every ``{{ value }}`` of an autoescaped template calls MarkupSafe's ``escape``, which is
Python around a C core: for text already safe (a filter's ``Markup``) it asks for
``__html__`` and makes a new ``Markup`` through ``Markup.__new__``; for a plain string it
scans it and makes a ``Markup`` the same way. A hand page calls it some hundred times.
:func:`escape` gives the same text with fewer steps: a ``Markup`` is itself, a string with
nothing to escape (most names, words and numbers) is marked safe as it is, a whole number is
its digits; anything else goes to MarkupSafe's ``escape``.

The bundled templates' compiled code calls it (:func:`bundled_template_class`); a club's
templates, in the sandbox, keep Jinja2's own.
"""

from __future__ import annotations

import functools
from typing import Any

from markupsafe import Markup
from markupsafe import escape as _markupsafe_escape

#: What HTML escaping replaces (MarkupSafe: & < > ' ").
_SPECIAL = ("&", "<", ">", "'", '"')
_new = str.__new__


def escape(value: Any) -> Markup:
    """``markupsafe.escape(value)``: the same text, as ``Markup``."""
    kind = type(value)
    if kind is Markup:
        return value
    if kind is str:
        for special in _SPECIAL:
            if special in value:
                return _markupsafe_escape(value)
        return _new(Markup, value)
    if kind is int:
        return _new(Markup, str(value))
    return _markupsafe_escape(value)


@functools.lru_cache(maxsize=None)
def bundled_template_class():
    """A Jinja2 template class whose compiled code escapes with :func:`escape` (imports
    Jinja2: asked for only where a page is rendered)."""
    from jinja2 import Template

    class BundledTemplate(Template):
        @classmethod
        def from_code(cls, environment, code, globals, uptodate=None):
            template = super().from_code(environment, code, globals, uptodate)
            # The compiled module's own namespace: its render functions, blocks and macros
            # look ``escape`` up there (imported from jinja2.runtime when the code ran).
            template.root_render_func.__globals__["escape"] = escape
            return template

    return BundledTemplate
