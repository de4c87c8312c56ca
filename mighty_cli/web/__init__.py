"""``mighty serve``: the league served to the players' phones on the club's Wi-Fi for the night.

Thin like ``cli/``: each view parses the request, calls the store (and ``render/``, the site),
and renders one of the bundled templates. The stack is Starlette (a small, well-kept ASGI
toolkit: routing, requests and responses, a test client; no ORM or forms of its own to fight
with the store) served by uvicorn, pure Python both (no C extras: the README's install is all a
laptop needs). Nothing is served from outside the package: the pages are the bundled templates,
the script and style are ``web/static/`` by name, the league's site pages are rendered from the
database into the server's own folder.

* :mod:`.app` makes the application (:func:`.app.create_app`: no module-level database; each
  worker of a PostgreSQL server makes its own from :func:`.app.app_from_environment`).
* :mod:`.reads` gathers what each page shows, in one read-only transaction.
* :mod:`.board_views` the board (``/``, ``/projector``), ``GET /api/round``, the live events;
  :mod:`.table_views` a table's page and its correction of its last hand;
  :mod:`.referee_views` the tablet referee (``/tables/T/referee``: the terminal referee's own
  evening, each tap a line it reads; :mod:`.referee_desk` the tablets and who holds a table,
  :mod:`.referee_picker` the choices each prompt offers);
  :mod:`.director_views` the director's page and actions; :mod:`.site_views` the league's site
  and the static files.
* :mod:`.entry_api` a table's entry of its next hand, the fixed ``POST /api/tables/T/hands``
  and the field checks, on :mod:`mighty_cli.table.score_entry`; :mod:`.entry_body` its JSON
  body; :mod:`.entry_form` and :mod:`.entry_views` the table page's form (``POST
  /tables/T/hands``, ``templates/serve_entry.html``, ``static/entry.js``).
* :mod:`.guard` who may write: the tables' entry codes and the director's key (compared in
  constant time, wrong ones slowed per client), and the refusal of forms sent from another site.
* :mod:`.watch` the change marker every live page listens to; :mod:`.forms` request bodies;
  :mod:`.pages` rendering and the answers' shapes.

Reading is open; writing needs the table's code or the director's key. Every change goes
through the store functions the commands call, logged with who made it (``director``,
``table 2``).
"""
