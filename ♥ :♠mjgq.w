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
    "H3 HK HA H2 H6",
    "D6 D9 D10 DA DQ",
    "H10 C6 S4 H7 D5",
    "C8 D4 S2 C2 D3",
]
opener = "Ana"

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
    "Cy 20D",
    "Di pass",
    "Ed 20NT",
    "Ana pass",
    "Bo pass",
    "Cy pass",
]
friend = "CJ lead:D"
tricks = [
    "H8 HJ H6 H9 H4",
    "D8 C9 D6 D10 SA",
    "HK HQ H2 D4 SQ",
    "S5 S10 SJ S9 JK",
    "D5 D2 DQ H3 DA",
    "S8 S6 H7 S2 S3",
    "C2 C7 C5 C3 C6",
    "S7 DJ C4 S4 SK",
    "D9 DK H5 C8 CQ",
    "CA HA CJ C10 CK",
]
opener = "Cy"

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
    "Ed 18D",
    "Ana 19NT",
    "Bo 20C",
    "Cy pass",
    "Di 20NT",
    "Ed pass",
    "Ana pass",
    "Bo pass",
]
friend = "SA"
tricks = [
    "S8 SA S7 S6 SQ",
    "HJ H7 HK HA H4",
    "C9 D8 C8 C6 CJ",
    "D4 DQ D10 DK DA",
    "C7 C2 C4 H8 C10",
    "S3 SJ S2 D6 S4",
    "CK C3 CA D9 H9",
    "D7 D3 SK C5 DJ",
    "HQ D5 S5 H2 H6",
    "CQ D2 S10 H10 S9",
]
opener = "Ed"

[[hands]]
players = [
    "Ana",
    "Bo",
    "Cy",
    "Di",
    "Ed",
]
dealer = "Ed"
election = [
    "Di 18C",
    "Ed 20NT",
    "Ana pass",
    "Bo pass",
    "Cy pass",
    "Di pass",
]
friend = "S3 lead:D"
tricks = [
    "H5 SA H8 JK H6",
    "HJ HK HQ H7 C9",
    "C5 CJ C6 C4 DA",
    "DJ D10",
]
opener = "Di"
