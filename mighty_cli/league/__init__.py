"""The league's pure logic, free of the store and of click: the standings table from scored
hands (:mod:`.standings`), the seating of an evening (:mod:`.seating`), the rating
(:mod:`.rating`), and seasons of players of known skill to measure it on, drawn from the
rating's own model (:mod:`.model_seasons`) or played card by card (:mod:`.played_seasons`)."""
