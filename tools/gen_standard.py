"""Regenerate rulesets/standard.toml from the ruleset schema (every option, its doc and source).

Run after adding or changing an option in mighty_cli/engine/ruleset/__init__.py:  python
tools/gen_standard.py
"""
import sys, textwrap
sys.path.insert(0, str(__import__('pathlib').Path(__file__).resolve().parent.parent))
from mighty_cli.engine.ruleset import iter_options, Ruleset, format_value, plain_value
r = Ruleset()
out = ['# Standard Mighty: the common core of the 5-player game (docs/rules.md §2).',
       '#',
       '# Sources: the standard international description (seed 003) and the community wiki',
       '# (seed 000 §3.2, §4). Every option the tool knows is listed here with its standard value;',
       '# a club ruleset `extends` this file and sets only what differs. Each comment says what the',
       '# option does and where its value comes from.',
       '']
current = None
for key, f in iter_options():
    table, _, name = key.rpartition('.')
    if table != current:
        current = table
        out.append('')
        out.append(f'[{table}]')
    if table == 'meta':
        vals = {'name': 'standard', 'title': '표준 마이티 (Standard Mighty)',
                'description': 'The common core with bid-bonus scoring and all four doublings (003).',
                'source': '003; 000 §3.2, §4'}
        out.append(f'{name} = {format_value(vals[name])}')
        continue
    doc = f.metadata.get('doc', '')
    src = f.metadata.get('source', '')
    text = doc + (f' Source: {src}.' if src else ' Source: the tool (no source covers it).')
    for line in textwrap.wrap(text, 96, break_on_hyphens=False):
        out.append('# ' + line)
    out.append(f'{name} = {format_value(plain_value(r.get(key), f))}')
open(__import__('pathlib').Path(__file__).resolve().parent.parent / 'rulesets' / 'standard.toml', 'w', encoding='utf-8').write('\n'.join(out).lstrip('\n') + '\n')
