"""The table: the line-in, lines-out state machines a club's evening runs on, free of click.

A terminal, a test or any other front end feeds them lines and prints what they answer:

* :mod:`.referee_session`: one hand refereed card by card (:class:`RefereeSession`: every
  call and card checked, undo), with :mod:`.variants` for the tables that need more (6마/7마
  elimination, the ghost's cards, 허니문's friend hands);
* :mod:`.evening`: hand after hand (:class:`~.evening.Evening`: succession, sitting out, the
  league's session, the save file, quitting);
* :mod:`.evening_options`, :mod:`.evening_opening`, :mod:`.league_evening`: an evening
  opened from what the front end asks (a new table, a saved record resumed, a league's table
  with its hand in progress taken up);
* :mod:`.books`: where an evening is kept (the save file, the league through one database
  engine);
* the score-keeper's entry: :mod:`.next_hand` (the table before its next hand, the fields a
  keeper fills), :mod:`.answers` and :mod:`.taken` (each answer checked), :mod:`.keeper_questions`
  (a hand's questions, a hand half entered kept), :mod:`.score_entry` (a field, a whole outcome
  checked, and stored: the API of every front end entering hands), :mod:`.amended_hand` (a
  correction read as ``record`` reads it);
* :mod:`.view`: the table drawn in words; :mod:`.name_lookup`: players found by any case or a
  unique beginning; :mod:`.table_errors`: what the table refuses;
* :mod:`.words`: the words a table says besides cards and bids, in English and Korean (pass,
  the friend calls, no friend, the joker call, the commands), one vocabulary for the referee,
  ``mighty record`` and any other front end.

The command line (``mighty_cli.cli``) wires them to a terminal; they raise project errors
(:class:`~mighty_cli.engine.errors.MightyError`), never click's.
"""
