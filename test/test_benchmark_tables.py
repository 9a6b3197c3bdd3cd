# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""The docs' timing tables are the benchmark scripts' output, row for row.

Each generated block (``<!-- benchmark NAME -->``, written by ``benchmarks/NAME.py
--write-docs``) holds the script's tables in order, and every table's rows name exactly what
the script measures (its ``table_rows``: the arms, functions and sizes its loops run over), so
a function added to a benchmark and not to the docs, or a row edited by hand, fails here. No
timing value is asserted. The block's first line names its provenance (date, commit, machine,
load, command).
"""

import importlib
import pathlib
import re
import sys

import pytest

BENCHMARKS = pathlib.Path(__file__).resolve().parents[1] / 'benchmarks'
sys.path.insert(0, str(BENCHMARKS))

import doc_tables  # noqa: E402

BLOCKS = [('docs/performance.md', 'engine_vs_pinocchio'),
          ('docs/codegen.md', 'fast_path_vs_pinocchio'),
          ('docs/derivatives.md', 'derivatives_vs_pinocchio'),
          ('docs/models.md', 'urdf_loading')]


def expected_tables(script, text):
    """Return the script's tables' row keys (the fast path's scaling table: --quick)."""
    module = importlib.import_module(script)
    if script == 'fast_path_vs_pinocchio':
        return module.table_rows(quick='--quick' in text.splitlines()[0])
    rows = module.table_rows()
    return list(rows.values()) if isinstance(rows, dict) else rows


@pytest.mark.parametrize('document, script', BLOCKS, ids=[b[1] for b in BLOCKS])
def test_every_docs_table_names_exactly_what_its_script_measures(document, script):
    text = doc_tables.block_text(document, script)
    assert re.match(rf'\*Generated \d{{4}}-\d\d-\d\d \d\d:\d\d UTC by `python benchmarks/'
                    rf'{script}\.py[^`]*` at commit \w+', text.strip()), text[:200]
    assert 'load average' in text.splitlines()[0]
    tables = doc_tables.block_tables(document, script)
    expected = expected_tables(script, text)
    assert len(tables) == len(expected)
    for rows, keys in zip(tables, expected):
        assert [tuple(cells[:len(key)]) for cells, key in zip(rows, keys)] == keys
        assert len(rows) == len(keys)


def test_a_block_is_found_once_and_only_between_its_markers(tmp_path, monkeypatch):
    monkeypatch.setattr(doc_tables, 'ROOT', tmp_path)
    begin, end = doc_tables.markers('x')
    (tmp_path / 'doc.md').write_text(f'| a | b |\n|---|---|\n| out | side |\n{begin}\nold\n{end}\n'
                                     'after\n', encoding='utf-8')
    doc_tables.write_block('doc.md', 'x', ['*line*', '', '| k | v |', '|---|---:|',
                                           '| one | 1 |', '', '| k |', '|---|', '| two |'])
    text = (tmp_path / 'doc.md').read_text(encoding='utf-8')
    assert 'old' not in text and text.endswith(f'{end}\nafter\n')
    assert text.startswith('| a | b |')
    assert doc_tables.block_tables('doc.md', 'x') == [[['one', '1']], [['two']]]
    (tmp_path / 'doc.md').write_text(f'{begin}\n{begin}\n{end}\n', encoding='utf-8')
    with pytest.raises(ValueError, match='expected one'):
        doc_tables.block_tables('doc.md', 'x')
