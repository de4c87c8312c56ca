"""Rendering: terminal tables (stdlib only, in ``text``) and HTML pages via Jinja2 (``html``)."""
