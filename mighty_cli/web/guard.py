"""Who may write: a table's entry code, the director's key, and forms sent from this site only.

* **Codes and the key** are compared with :func:`hmac.compare_digest` (in constant time: how
  long a refusal takes says nothing of how much of a guess was right). A phone shows its code
  once (the slip's QR code opens ``/tables/T?code=...``) and keeps it in a cookie for that
  table; the director's address carries the key once and the browser keeps it in a cookie.
  Both cookies are ``HttpOnly`` and ``SameSite=Strict``: no script reads them and no other
  site's page sends them.
* **Wrong codes are slowed down** per client address and per table (or the director's key):
  three wrong tries are free (a thumb slips), then each further try is refused unheard for 2,
  4, 8 ... seconds, up to a minute (:class:`WrongCodes`); a right code clears the count. Five
  digits are then out of a guesser's reach for the night. The count is kept in the process: a
  PostgreSQL server with several workers slows each one apart.
* **Cross-site forms** are refused by the request's own headers (:func:`cross_site`): a
  browser says where a form comes from (``Sec-Fetch-Site``; ``Origin`` in older ones), and
  anything but this site is refused. Chosen over a token in every form: it needs no state kept
  between requests (several workers share nothing), works on pages without script, and cannot
  go stale on a phone left open all evening; a program that sends neither header (curl, a
  keeper's script) is no browser another site could drive, and still needs the code. The
  cookies' ``SameSite=Strict`` is a second wall.
"""

from __future__ import annotations

import hmac
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

#: The cookie holding the director's key.
DIRECTOR_COOKIE = "mighty_director"
#: How a table's cookie is named: ``mighty_code_2`` (table 2), ``mighty_code_s5`` (session 5).
CODE_COOKIE = "mighty_code_{table}"
#: Wrong tries heard before the next ones wait, the first wait and the longest (seconds).
FREE_TRIES = 3
FIRST_WAIT = 2.0
LONGEST_WAIT = 60.0
#: Clients remembered at most (the oldest forgotten first), and how long a client who stopped
#: trying is remembered (seconds).
REMEMBERED = 10_000
FORGOTTEN_AFTER = 15 * 60


def codes_match(given: str | None, stored: str | None) -> bool:
    """Whether ``given`` is the stored code or key, compared in constant time (no stored code:
    nothing matches)."""
    if not given or not stored:
        return False
    return hmac.compare_digest(given.strip().encode("utf-8"), stored.encode("utf-8"))


@dataclass
class _Tries:
    wrong: int
    last: float
    heard_after: float


class WrongCodes:
    """Wrong codes counted per (client, target): after :data:`FREE_TRIES`, each further try
    waits twice as long as the one before (from :data:`FIRST_WAIT`, at most
    :data:`LONGEST_WAIT`) before it is heard at all. ``clock`` gives seconds (a test's own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._tries: OrderedDict[tuple[str, str], _Tries] = OrderedDict()

    def wait(self, client: str, target: str) -> float:
        """Seconds before this client's next try at ``target`` is heard (0: now)."""
        found = self._tries.get((client, target))
        if found is None:
            return 0.0
        now = self.clock()
        if now - found.last > FORGOTTEN_AFTER:
            del self._tries[(client, target)]
            return 0.0
        return max(0.0, found.heard_after - now)

    def failed(self, client: str, target: str) -> float:
        """Count a wrong try; the seconds the next one waits."""
        now = self.clock()
        key = (client, target)
        found = self._tries.pop(key, None) or _Tries(0, now, now)
        found.wrong += 1
        found.last = now
        over = found.wrong - FREE_TRIES
        found.heard_after = now + (
            min(LONGEST_WAIT, FIRST_WAIT * 2 ** (over - 1)) if over > 0 else 0.0
        )
        self._tries[key] = found  # the latest at the end: the oldest are forgotten first
        while len(self._tries) > REMEMBERED:
            self._tries.popitem(last=False)
        return found.heard_after - now

    def passed(self, client: str, target: str) -> None:
        """A right code: the client's count for ``target`` starts again."""
        self._tries.pop((client, target), None)


def cross_site(headers, scheme: str) -> bool:
    """Whether a request that changes something was sent by a page of another site: the
    browser's ``Sec-Fetch-Site`` when it sends one (this site's pages, or typed by the user,
    pass), else its ``Origin`` compared with the address the request was sent to. A request
    with neither comes from no browser page."""
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = headers.get("origin")
    if origin is None:
        return False
    return origin != f"{scheme}://{headers.get('host', '')}"


def client_of(request) -> str:
    """The client's address, as the server saw it (``?`` when unknown)."""
    return request.client.host if request.client is not None else "?"
