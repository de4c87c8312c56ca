format = "mighty-hand-record/1"
ruleset = "standard"
players = [
    "Ana",
    "Bo",
    "Cy",
    "Di",
    "Ed",
]

[[hands]]
players = [
    "Ana",
    "Bo",
    "Cy",
    "Di",
    "Ed",
]
dealer = "Ana"
election = [
    "Ana 14C",
    "Bo 20H",
    "Cy 20NT",
    "Di pass",
    "Ed pass",
    "Ana pass",
    "Bo pass",
]
friend = "S3 lead:C"
tricks = [
    "S6 S5 S9 SQ JK",
    "C3! C4 CJ CK C5",
    "D2 DJ D7 DK SA",
    "C7 D8 CQ C9 C10",
    "H8 H4 HQ H5 HJ",
    "S10 SJ S7 SK S3",
]
opener = "Ana"
