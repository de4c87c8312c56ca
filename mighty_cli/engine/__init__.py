"""The rules engine: cards, notation, rulesets, bidding, play, scoring and hand records.

Standard library only. Nothing here imports click, SQLModel or Jinja2, so every layer above can
use it and a test can check that in a subprocess.
"""
