"""The command reference, generated from the commands' own help in both languages:
``docs/reference.md`` (English) and ``docs/reference.ko.md`` (한국어).

    python tools/cli_reference.py write    # after changing a command, an option or its help
    python tools/cli_reference.py check    # CI: exit 1 naming the files that drifted

Each command's help is what ``mighty --lang LANG COMMAND --help`` prints, at a fixed width, so the
reference never says anything the tool does not (tests/test_cli_reference.py runs the check).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import click  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from mighty_cli.cli import cli  # noqa: E402

#: The reference files, by language.
FILES = {"en": ROOT / "docs" / "reference.md", "ko": ROOT / "docs" / "reference.ko.md"}
TITLES = {
    "en": (
        "# mighty: command reference",
        "Generated from the commands' own help by `python tools/cli_reference.py write`"
        " (checked in CI: do not edit by hand). In Korean: [reference.ko.md]"
        "(reference.ko.md).",
    ),
    "ko": (
        "# mighty 명령 설명서",
        "각 명령의 도움말에서 `python tools/cli_reference.py write` 로 만든 문서입니다 "
        "(CI 가 맞는지 검사하니 손으로 고치지 마세요). 영어: [reference.md](reference.md).",
    ),
}
#: The help's width: fixed, so the reference is the same on every machine.
WIDTH = 100


def command_paths(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> list[tuple]:
    """Every command's words after ``mighty``, groups before their commands."""
    ctx = click.Context(group, info_name="mighty")
    paths = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        paths.append(prefix + (name,))
        if isinstance(command, click.Group):
            paths += command_paths(command, prefix + (name,))
    return paths


def help_text(path: tuple, lang: str) -> str:
    result = CliRunner().invoke(
        cli, ["--lang", lang, *path, "--help"], terminal_width=WIDTH, prog_name="mighty"
    )
    if result.exit_code != 0:
        raise SystemExit(f"mighty {' '.join(path)} --help failed: {result.output}")
    return result.output.rstrip() + "\n"


def render(lang: str) -> str:
    """The whole reference in one language."""
    title, note = TITLES[lang]
    paths = command_paths()
    parts = [title, "", note, "", "- [mighty](#mighty)"]
    parts += [f"- [mighty {' '.join(p)}](#{'-'.join(('mighty',) + p)})" for p in paths]
    for path in [()] + paths:
        name = " ".join(("mighty",) + path)
        anchor = "-".join(("mighty",) + path)
        parts += [
            "",
            f'<a id="{anchor}"></a>',
            "",
            f"## {name}",
            "",
            "```text",
            help_text(path, lang).rstrip(),
            "```",
        ]
    return "\n".join(parts) + "\n"


def drifted(files: dict | None = None) -> list[Path]:
    """The reference files that differ from what the commands' help says now."""
    return [
        path
        for lang, path in (files or FILES).items()
        if not path.exists() or path.read_text(encoding="utf-8") != render(lang)
    ]


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "check"
    if what == "write":
        for lang, path in FILES.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render(lang), encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
        return
    stale = drifted()
    for path in stale:
        print(
            f"{path.relative_to(ROOT)} does not match the commands' help: run "
            "'python tools/cli_reference.py write'",
            file=sys.stderr,
        )
    sys.exit(1 if stale else 0)


if __name__ == "__main__":
    main()
