"""Terminal tables line up with Hangul: columns are measured in display columns (a Hangul
syllable takes two), so Korean headers and names sit over the right values."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mighty_cli.render.text import display_width, table


def test_korean_headers_and_names_line_up():
    text = table(
        ["플레이어", "판", "점수", "주공"],
        [["김철수", 12, "+40", 3], ["Bo", 9, "-5", 0], ["남궁민수", 100, "+1200", 11]],
        align="<>>>",
    )
    lines = text.splitlines()
    ends = {display_width(line) for line in lines}
    assert len(ends) == 1  # right-aligned last column: same end
    assert lines[2].startswith("김철수    ") and lines[3].startswith("Bo        ")
    # the second column's right edge is the same on every row
    edges = [
        display_width(line[: line.index(cell) + len(cell)])
        for line, cell in zip(lines[2:], ["12", "9", "100"])
    ]
    assert len(set(edges)) == 1


def test_display_width_counts_hangul_as_two_columns():
    assert display_width("주공") == 4 and display_width("Bo") == 2
    assert display_width("민수 Bo") == 7


@given(
    st.lists(
        st.tuples(
            st.text(alphabet="가나다라마바사아자차카타파하ABCdef", min_size=1, max_size=6),
            st.integers(-999, 999),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_every_row_has_the_width_of_the_header_rule(rows):
    text = table(["이름", "점수"], [[name, f"{score:+d}"] for name, score in rows], align="<>")
    lines = text.splitlines()
    assert {display_width(line) for line in lines} == {display_width(lines[1])}
