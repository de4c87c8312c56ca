"""Citations lead to something a reader of the repository has (issue 36 item 6).

The code, its tests, the rulesets, the templates, the tools and the manual cite the rules as
``docs/rules.md §8``, the record format as ``docs/record-format.md``, and the four source
documents as ``000 §7.1`` or ``001 §4.3-2``. Each must lead somewhere: a file named in a citation
or a link exists in the repository, a ``docs/rules.md §N`` section is a heading of that page (and
of its Korean twin), a section of source 000 or 001 is in the page's map of that document, and
nothing points at the folder outside the repository the rules were first collected in. Reads
text only; no import of the package.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"

#: The text files that cite: everything of the repository a reader reads.
PATTERNS = (
    "mighty_cli/**/*.py",
    "mighty_cli/**/*.po",
    "rulesets/*.toml",
    "templates/**/*.html",
    "tools/**/*.py",
    "benchmarks/**/*.py",
    "tests/**/*.py",
    "tests/**/*.toml",
    "examples/*.toml",
    "docs/*.md",
    "*.md",
    "pyproject.toml",
)
#: Files that name a missing file on purpose: this test's own examples, and a test asserting
#: that the commands' help no longer sends users to one.
NAMES_MISSING_ON_PURPOSE = {"tests/test_citations.py", "tests/cli/test_club_evening_found.py"}


def scanned() -> list[Path]:
    files = {path for pattern in PATTERNS for path in ROOT.glob(pattern)}
    return sorted(
        path
        for path in files
        if ".venv" not in path.parts
        and path.relative_to(ROOT).as_posix() not in NAMES_MISSING_ON_PURPOSE
    )


# --- files -------------------------------------------------------------------------------------

#: What comes before ".md" in a file's name or path (docs/rules, ../DEVELOPERS, RULES).
NAME_BEFORE = re.compile(r"[\w./-]*$")
LINK = re.compile(r"\]\(([^)#\s]*)(#[^)\s]*)?\)")
SHARED = re.compile(r"(?:\.\./|/work/)shared\b|\bshared/(?:seeds|[A-Z_]+\.md)")


def cited_md(text: str) -> list[str]:
    """The .md files a text names: RULES.md, docs/rules.md, ../DEVELOPERS.md."""
    names = []
    for end in re.finditer(r"\.md\b", text):
        head = NAME_BEFORE.search(text, max(0, end.start() - 200), end.start()).group()
        if head.strip("./"):
            names.append(head + ".md")
    return names


def missing_files(text: str, where: Path) -> list[str]:
    """The .md files a text cites (a capitalised name, or a path) that are neither at the
    repository's root, nor in docs/, nor beside the text."""
    found = []
    for name in cited_md(text):
        if "/" not in name and not name[:-3].isupper():
            continue  # a lowercase bare name is an example of a name (page.md), not a citation
        bases = (ROOT, ROOT / "docs", where.parent)
        if not any((base / name).is_file() for base in bases):
            found.append(name)
    return found


def broken_links(text: str, where: Path) -> list[str]:
    """The relative links of a markdown text whose file does not exist, or whose anchor is no
    heading of the page it leads to."""
    found = []
    for target, anchor in LINK.findall(text):
        if "://" in target or target.startswith("mailto:"):
            continue
        page = (where.parent / target) if target else where
        if not page.is_file():
            found.append(target)
        elif anchor and page.suffix == ".md" and anchor[1:] not in anchors(page):
            found.append(target + anchor)
    return found


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lowercase, punctuation dropped, spaces to
    hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@functools.cache
def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


#: A page cited with the title of one of its sections: docs/record-format.md "Seeded deals".
CITED_HEADING = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.md)(?:'s)?,? \"([^\"]{2,80})\"")


def missing_headings(text: str) -> list[str]:
    """The sections a text cites by title ("Seeded deals") that the cited page has no heading
    for (a heading starting with the title); a citation wrapped over lines counts as one."""
    found = []
    if '.md"' not in text and ".md," not in text and ".md's" not in text:
        return found
    joined = re.sub(r"[ \t]*\n[ \t]*(?:#+:?[ \t]*)?", " ", text)
    for name, title in CITED_HEADING.findall(joined):
        page = next(
            (base / name for base in (ROOT, ROOT / "docs") if (base / name).is_file()), None
        )
        if page is None:
            continue  # a missing page is test_every_cited_file_is_in_the_repository's
        headings = [
            line.lstrip("#").strip()
            for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")
        ]
        if not any(heading.startswith(title) for heading in headings):
            found.append(f'{name} "{title}"')
    return found


# --- docs/rules.md sections --------------------------------------------------------------------

SECTION = r"§\d+(?:\.\d+)*(?: note)?"
RULES_CITATION = re.compile(rf"docs/rules\.md ({SECTION}(?:(?:, |-| and ){SECTION})*)")


def rules_sections(page: Path) -> set[str]:
    """The sections a rules page has: its headings that start with §N (§8, §8.4, §8 note)."""
    sections = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        found = re.match(rf"#{{2,4}} ({SECTION})", line)
        if found:
            sections.add(found.group(1)[1:])
    return sections


def cited_rules_sections(text: str) -> list[str]:
    """Every section a text cites as docs/rules.md §N (ranges and lists: each end and item)."""
    return [
        section[1:]
        for cited in RULES_CITATION.findall(text)
        for section in re.findall(SECTION, cited)
    ]


# --- the source documents' sections ------------------------------------------------------------

SOURCE_000 = re.compile(r"000 §(\d+(?:\.\d+)*)")
SOURCE_001 = re.compile(r"001 §(\d+)(?:\.(\d+(?:-\d+)?))?")
FOOTNOTE_000 = re.compile(r"000 footnotes? (\d+)")


def cited(pattern: re.Pattern, text: str) -> list:
    """A pattern's groups wherever it is not the tail of a longer number (1000 §2)."""
    return [
        m.groups()
        for m in pattern.finditer(text)
        if m.start() == 0 or not text[m.start() - 1].isdigit()
    ]


@functools.cache
def source_map(heading: str) -> dict[str, str]:
    """The rows of a map of a source's sections in docs/rules.md: section → the rest."""
    text = RULES.read_text(encoding="utf-8")
    block = text.split(heading, 1)[1].split("\n#", 1)[0]
    rows = {}
    for line in block.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells and cells[0].startswith("§"):
            rows[cells[0][1:]] = " | ".join(cells[1:])
    return rows


@functools.cache
def items_001() -> dict[str, set[str]]:
    """Each section of 001 with the items the map lists (1, 2, 1-1, 3-4 ...)."""
    return {
        section: set(re.findall(r"(?:^|[;(|]\s*)(\d+(?:-\d+)?) ", items))
        for section, items in source_map("### The sections of 001").items()
    }


@functools.cache
def footnotes_000() -> int:
    return int(re.search(r"(\d+) numbered footnotes", RULES.read_text(encoding="utf-8")).group(1))


def unknown_source_sections(text: str) -> list[str]:
    """The citations of 000 and 001 that name a section (or an item) the documents lack."""
    if "00" not in text:
        return []
    sections_000 = source_map("### The sections of 000")
    items = items_001()
    found = [
        f"000 §{section}" for (section,) in cited(SOURCE_000, text) if section not in sections_000
    ]
    for section, item in cited(SOURCE_001, text):
        if section not in items or (item and item not in items[section]):
            found.append(f"001 §{section}" + (f".{item}" if item else ""))
    found += [
        f"000 footnote {number}"
        for (number,) in cited(FOOTNOTE_000, text)
        if not 1 <= int(number) <= footnotes_000()
    ]
    return found


# --- the tests ---------------------------------------------------------------------------------

FILES = scanned()


@functools.cache
def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_scan_reads_the_code_the_rulesets_and_the_manual():
    names = {path.relative_to(ROOT).as_posix() for path in FILES}
    assert {
        "mighty_cli/engine/scoring.py",
        "rulesets/standard.toml",
        "docs/rules.md",
        "README.md",
        "templates/base.html",
        "tools/gen_standard.py",
    } <= names


def test_every_cited_file_is_in_the_repository():
    problems = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in FILES
        for name in missing_files(text_of(path), path)
    ]
    assert problems == []


def test_no_citation_points_outside_the_repository():
    problems = [
        f"{path.relative_to(ROOT)}: {match}"
        for path in FILES
        if "shared" in text_of(path)
        for match in SHARED.findall(text_of(path))
    ]
    assert problems == []


def test_every_section_cited_by_its_title_is_a_heading_of_its_page():
    problems = [
        f"{path.relative_to(ROOT)}: {cited}"
        for path in FILES
        for cited in missing_headings(text_of(path))
    ]
    assert problems == []


@pytest.mark.parametrize(
    "page", sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"], ids=lambda p: p.name
)
def test_links_lead_to_a_page_and_its_heading(page):
    assert broken_links(page.read_text(encoding="utf-8"), page) == []


def test_every_cited_rules_section_is_a_heading_of_the_rules_page():
    sections = rules_sections(RULES)
    problems = [
        f"{path.relative_to(ROOT)}: docs/rules.md §{section}"
        for path in FILES
        for section in cited_rules_sections(text_of(path))
        if section not in sections
    ]
    assert problems == []


def test_the_korean_rules_page_has_the_same_sections():
    assert rules_sections(ROOT / "docs" / "rules.ko.md") == rules_sections(RULES)


def test_the_rules_page_keeps_the_sections_the_code_cites():
    """§1 Vocabulary to §11 Named club rulesets, the numbering the code was written against."""
    assert {str(n) for n in range(1, 12)} | {"8 note"} <= rules_sections(RULES)


def test_every_cited_section_of_the_sources_exists():
    problems = [
        f"{path.relative_to(ROOT)}: {cited}"
        for path in FILES
        for cited in unknown_source_sections(text_of(path))
    ]
    assert problems == []


# --- the checks catch what they should ---------------------------------------------------------


def test_a_missing_file_is_caught_and_a_present_one_is_not():
    here = ROOT / "mighty_cli" / "engine" / "scoring.py"
    text = (
        "RULES.md §9; see HAND_RECORD.md and ../shared/seeds/; docs/nowhere.md; "
        "DEVELOPERS.md, docs/rules.md, README.md; a page.md of the manual"
    )
    assert missing_files(text, here) == ["RULES.md", "HAND_RECORD.md", "docs/nowhere.md"]
    assert SHARED.findall(text) == ["../shared"]
    assert SHARED.findall("mighty replay shared/season.toml; /work/shared/RULES.md") == [
        "/work/shared"
    ]


def test_a_section_title_the_page_lacks_is_caught():
    text = (
        '(docs/record-format.md, "Seeded\n  deals" step 5; DEVELOPERS.md, "Citations"; '
        'docs/record-format.md "Seeded dealing"; docs/rules.md, "Scoring rules")'
    )
    assert missing_headings(text) == [
        'docs/record-format.md "Seeded dealing"',
        'docs/rules.md "Scoring rules"',
    ]


def test_a_rules_section_the_page_lacks_is_caught():
    text = "docs/rules.md §2-§7, §10; docs/rules.md §8 note, 000 §4 (docs/rules.md §12, §7.9)"
    assert cited_rules_sections(text) == ["2", "7", "10", "8 note", "12", "7.9"]
    sections = rules_sections(RULES)
    assert [s for s in cited_rules_sections(text) if s not in sections] == ["12", "7.9"]


def test_a_source_section_the_documents_lack_is_caught():
    text = (
        "000 §7.16, 000 §2.1, 000 §3.3-3.5; 001 §4.3-2, 001 §4.3-5, 001 §1.10, 001 §7; "
        "000 footnote 64, 000 footnote 85"
    )
    assert unknown_source_sections(text) == ["000 §2.1", "001 §4.3-5", "001 §7", "000 footnote 85"]


def test_a_link_to_a_missing_heading_is_caught():
    page = ROOT / "docs" / "index.md"
    text = "[a](rules.md#sources) [b](rules.md#nowhere) [c](gone.md) [d](#the-manual)"
    assert broken_links(text, page) == ["rules.md#nowhere", "gone.md", "#the-manual"]
    assert slug("## Two jokers (`cards.jokers = 2`)".lstrip("#")) == "two-jokers-cardsjokers--2"
    assert slug(" 시드 딜 (`mighty-deal/1`)") == "시드-딜-mighty-deal1"
