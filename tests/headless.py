"""Headless Chromium for the page tests: one browser per test session (the ``chromium``
fixture), a page (a tab of its own) per page a test opens.

Starting Chromium costs a second or more; a page loads in a few hundredths. The browser is
driven over its DevTools protocol on a pipe (``--remote-debugging-pipe``: JSON messages ended by
a NUL byte on file descriptors 3 and 4), with the standard library only. A page is given the
window size the test asks for, and what its scripts said on the console (and the errors they
threw, and what the browser logged about it) is kept for the test to check, as Chromium's own
log showed it when each page had a browser of its own."""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import signal
import time
from pathlib import Path

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--allow-file-access-from-files",
]

#: Seconds a page may take to load, or the browser to answer.
TIMEOUT = 120


def _above_4(descriptor: int) -> int:
    """The same pipe end at a descriptor above 4 (the old one closed)."""
    moved = fcntl.fcntl(descriptor, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(descriptor)
    return moved


class BrowserError(AssertionError):
    """The browser did not answer, answered an error, or went away."""


class Chromium:
    """A headless Chromium, started once, its pages opened one at a time."""

    def __init__(self, profile: Path, executable: str = CHROMIUM) -> None:
        commands, self._to_browser = os.pipe()
        self._from_browser, replies = os.pipe()
        commands, replies = _above_4(commands), _above_4(replies)  # never crossing 3 and 4
        self._log = open(profile.parent / f"{profile.name}.log", "w", encoding="utf-8")
        devnull = os.open(os.devnull, os.O_RDWR)
        # Spawned with the pipes as its descriptors 3 and 4 (posix_spawn: safe beside threads)
        self.pid = os.posix_spawn(
            executable,
            [
                executable,
                *FLAGS,
                "--remote-debugging-pipe",
                f"--user-data-dir={profile}",
                "about:blank",
            ],
            os.environ,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, devnull, 0),
                (os.POSIX_SPAWN_DUP2, devnull, 1),
                (os.POSIX_SPAWN_DUP2, self._log.fileno(), 2),
                (os.POSIX_SPAWN_DUP2, commands, 3),
                (os.POSIX_SPAWN_DUP2, replies, 4),
            ],
        )
        os.close(devnull)
        os.close(commands)
        os.close(replies)
        self._buffer = b""
        self._last_id = 0
        self._events: dict[str, list[dict]] = {}  # by session
        self.call("Browser.getVersion")

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=10)
        except (BrowserError, OSError):
            pass
        deadline = time.monotonic() + 10
        while not os.waitpid(self.pid, os.WNOHANG)[0]:
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                break
            time.sleep(0.05)
        for descriptor in (self._to_browser, self._from_browser):
            os.close(descriptor)
        self._log.close()

    # -- the protocol ------------------------------------------------------------------------

    def call(
        self,
        method: str,
        params: dict | None = None,
        session: str | None = None,
        timeout: float = TIMEOUT,
    ) -> dict:
        """Send a command and wait for its answer (events meanwhile are kept)."""
        self._last_id += 1
        message = {"id": self._last_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        try:
            os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        except BrokenPipeError:
            raise BrowserError(f"Chromium has gone away ({method})") from None
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline, method)
            if reply.get("id") == self._last_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def wait_for(self, session: str, event: str, timeout: float = TIMEOUT) -> dict:
        """The first event of that name on that page not yet waited for."""
        deadline = time.monotonic() + timeout
        while True:
            for found in self._events.get(session, []):
                if found["method"] == event and not found.get("seen"):
                    found["seen"] = True
                    return found["params"]
            self._receive(deadline, event)

    def _receive(self, deadline: float, waiting_for: str) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_browser], [], [], max(left, 0))
            if not ready:
                raise BrowserError(f"Chromium did not answer in time ({waiting_for})")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise BrowserError(f"Chromium has gone away ({waiting_for})")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        parsed = json.loads(message)
        if "method" in parsed and "sessionId" in parsed:
            self._events.setdefault(parsed["sessionId"], []).append(parsed)
        return parsed

    # -- pages ------------------------------------------------------------------------------

    def open(self, url: str, width: int = 1280, height: int = 900) -> Tab:
        """A new tab of that size, ``url`` loaded in it (its load event fired)."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        tab = Tab(self, target, session)
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=session)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            session=session,
        )
        for earlier in self._events.get(session, []):  # about:blank's, if any
            earlier["seen"] = True
        navigated = self.call("Page.navigate", {"url": url}, session=session)
        if navigated.get("errorText"):
            tab.close()
            raise BrowserError(f"{url}: {navigated['errorText']}")
        self.wait_for(session, "Page.loadEventFired")
        return tab


class Tab:
    """One page in the browser; closed when the ``with`` block ends."""

    def __init__(self, browser: Chromium, target: str, session: str) -> None:
        self.browser, self.target, self.session = browser, target, session

    def __enter__(self) -> Tab:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.browser.call("Target.closeTarget", {"targetId": self.target})
        self.browser._events.pop(self.session, None)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page."""
        result = self.browser.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            session=self.session,
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def dom(self) -> str:
        """The page's DOM as HTML (what ``chromium --dump-dom`` prints)."""
        return self.evaluate("document.documentElement.outerHTML")

    def pdf(self) -> bytes:
        """The page printed (``chromium --print-to-pdf --no-pdf-header-footer``)."""
        data = self.browser.call(
            "Page.printToPDF", {"displayHeaderFooter": False}, session=self.session
        )["data"]
        return base64.b64decode(data)

    def console(self) -> list[str]:
        """What the page's scripts wrote on the console, the errors they threw and what the
        browser logged about the page, a line each, as Chromium's log shows them:
        ``CONSOLE(line) "text", source: url``."""
        lines = []
        for event in self.browser._events.get(self.session, []):
            params = event["params"]
            if event["method"] == "Runtime.consoleAPICalled":
                frames = (params.get("stackTrace") or {}).get("callFrames") or [{}]
                text = " ".join(
                    str(arg.get("value", arg.get("description", "")))
                    for arg in params.get("args", [])
                )
                lines.append(
                    f"CONSOLE({frames[0].get('lineNumber', 0)}) "
                    f'{params["type"]}: "{text}", source: {frames[0].get("url", "")}'
                )
            elif event["method"] == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                text = (details.get("exception") or {}).get("description") or details["text"]
                lines.append(
                    f'CONSOLE({details.get("lineNumber", 0)}) error: "{text}", '
                    f"source: {details.get('url', '')}"
                )
            elif event["method"] == "Log.entryAdded":
                entry = params["entry"]
                lines.append(
                    f"CONSOLE({entry.get('lineNumber', 0)}) {entry['level']}: "
                    f'"{entry["text"]}", source: {entry.get("url", "")}'
                )
        return lines
