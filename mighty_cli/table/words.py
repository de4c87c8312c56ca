"""The words a table types besides cards and bids, in English and Korean: the referee's short
forms and commands, and the words for a friend hand, no friend, the kitty and the dummy."""

from __future__ import annotations

#: The short forms and Korean commands the table types (``p`` for ``pass``, ``무르기`` undo).
SHORT_FORMS = {"p": "pass", "u": "undo", "s": "show", "t": "table", "l": "legal", "h": "help",
               "?": "help", "q": "quit", "exit": "quit", "ft": "first-trick", "lt": "last-trick",
               "no": "none", "nf": "none",
               # the table's Korean commands, followed by a word (무르기 2, 저장 FILE, 패 김철수)
               "무르기": "undo", "취소": "undo", "보기": "table", "도움말": "help", "저장": "save",
               "종료": "quit", "패": "hand", "가능": "legal"}
#: 허니문: the declarer's own friend hand called in short form.
OWN_FRIEND = ("friend", "partner", "own", "프렌드", "프렌드 패", "프렌드패", "친구")
#: 허니문: "no friend", which the game does not have (refused in one line).
NO_FRIEND = ("none", "no", "nf", "alone", "노프렌드", "노프랜드", "노프", "없음")
#: The kitty, where an elimination call's card lies (6마, 7마 with open cards).
KITTY = ("kitty", "키티", "바닥", "-")
#: 시흥 은마's dummy as the referee may type it.
DUMMY_WORDS = ("dummy", "더미", "은실")
