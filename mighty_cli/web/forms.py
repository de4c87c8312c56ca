"""Request bodies: the HTML forms' fields, read with bounds, each bad one a 4xx with a message.

Forms are sent as ``application/x-www-form-urlencoded`` (the pages' forms say nothing else),
read here with the standard library: no file upload, no multipart parser. A body is refused
beyond :data:`BODY_MAX_BYTES`, a field beyond :data:`FIELD_MAX_CHARACTERS`, and so is a body
that is not UTF-8, of another type, or holding a field twice.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from ..engine.names import refused_character
from ..engine.translation import _

#: The largest form body read (bytes): the director's longest form is a round's players.
BODY_MAX_BYTES = 32 * 1024
#: The longest value of one field (characters), and the most fields a form may have.
FIELD_MAX_CHARACTERS = 4000
FIELDS_MAX = 40


class RequestError(Exception):
    """A request the server cannot take: its HTTP status and a message for the person."""

    def __init__(self, status: int, message: str, headers: dict | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


async def read_form(request) -> dict[str, str]:
    """The form's fields (each once), or :class:`RequestError`."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY_MAX_BYTES:
            raise RequestError(
                413, _("the form is larger than {size} KiB").format(size=BODY_MAX_BYTES >> 10)
            )
    if not body:  # a form of one button: nothing to read, whatever its type
        return {}
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise RequestError(415, _("send the form as application/x-www-form-urlencoded"))
    try:
        text = bytes(body).decode("utf-8")
        pairs = parse_qsl(
            text,
            keep_blank_values=True,
            strict_parsing=bool(text),
            max_num_fields=FIELDS_MAX,
            errors="strict",
        )
    except UnicodeDecodeError:
        raise RequestError(400, _("the form is not UTF-8 text")) from None
    except ValueError:  # a field without '=', too many fields, bad percent-encoding
        raise RequestError(400, _("the form cannot be read")) from None
    fields: dict[str, str] = {}
    for name, value in pairs:
        if name in fields:
            raise RequestError(400, _("the form gives {field} twice").format(field=name[:40]))
        if len(value) > FIELD_MAX_CHARACTERS:
            raise RequestError(400, _("the form's {field} is too long").format(field=name[:40]))
        fields[name] = value
    return fields


def text(
    fields: dict[str, str], name: str, label: str, *, required: bool = False, longest: int = 200
) -> str | None:
    """A field's text, trimmed (None when empty), with no character that changes what a screen
    shows; ``label`` names it in a message."""
    value = (fields.get(name) or "").strip()
    if not value:
        if required:
            raise RequestError(400, _("{field}: required").format(field=label))
        return None
    if len(value) > longest:
        raise RequestError(
            400, _("{field}: longer than {count} characters").format(field=label, count=longest)
        )
    wrong = refused_character(value)
    if wrong:
        raise RequestError(400, f"{label}: {wrong}")
    return value


def number(
    fields: dict[str, str],
    name: str,
    label: str,
    *,
    low: int = 0,
    high: int = 10**6,
    required: bool = False,
) -> int | None:
    """A field's whole number within ``low``..``high`` (None when empty)."""
    value = (fields.get(name) or "").strip()
    if not value:
        if required:
            raise RequestError(400, _("{field}: required").format(field=label))
        return None
    if not value.isascii() or not value.lstrip("-").isdigit() or len(value) > 12:
        raise RequestError(
            400, _("{field}: {value!r} is not a whole number").format(field=label, value=value[:20])
        )
    found = int(value)
    if not low <= found <= high:
        raise RequestError(
            400, _("{field}: from {low} to {high}").format(field=label, low=low, high=high)
        )
    return found


def names(fields: dict[str, str], name: str, label: str) -> list[str]:
    """A field's names, comma- or line-separated, each trimmed."""
    lines = (fields.get(name) or "").replace("\r\n", ",").replace("\n", ",")
    value = text({name: lines}, name, label, longest=FIELD_MAX_CHARACTERS) or ""
    return [part.strip() for part in value.split(",") if part.strip()]
