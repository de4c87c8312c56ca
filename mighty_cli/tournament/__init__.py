"""Tournaments and multi-table nights, pure: no click, no database.

* :mod:`.plan`: table plans for a round (how many tables of which sizes, who sits where), scored
  against the rounds already played and held to a proven lower bound on repeated pairs; exact
  designs where they exist (the affine plane: 25 players at tables of 5 for six rounds with no
  pair meeting twice), a seeded local search elsewhere, and several known rounds planned
  together.

Rounds in the league store, the ``round`` commands, scoring across tables and duplicate deals
build on it (issue 23).
"""
