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
"""Manual pages read as manuals: what, how, examples; measurements under Benchmarks (issue 36).

Was: docs/derivatives.md read like a changelog (dated runs, before/after columns, what
changed in which session, in the middle of the manual).
"""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]


def sections(path):
    """Return {heading: text} of a page's ``## `` sections, in order."""
    parts = re.split(r'^## ', path.read_text(encoding='utf-8'), flags=re.M)
    return {part.splitlines()[0]: part for part in parts[1:]}


def test_derivatives_page_is_a_manual_with_one_benchmarks_table_at_its_end():
    found = sections(ROOT / 'docs' / 'derivatives.md')
    assert list(found)[-1] == 'Benchmarks'
    manual = ''.join(text for heading, text in found.items() if heading != 'Benchmarks')
    assert not re.search(r'\b20\d\d-\d\d-\d\d\b', manual)         # no dated runs
    assert not re.search(r'\b(before|after)\b.*\|', manual)          # no before/after columns
    block = re.search(r'<!-- benchmark derivatives_vs_pinocchio -->(.*)'
                      r'<!-- /benchmark derivatives_vs_pinocchio -->', found['Benchmarks'], re.S)
    assert block, 'the Benchmarks section holds the block the script writes'
    outside = found['Benchmarks'].replace(block.group(0), '')
    assert not re.findall(r'(?m)^\|---', outside)                     # one block to regenerate
    assert 'benchmarks/derivatives_vs_pinocchio.py' in found['Benchmarks']
    for heading in ('What is differentiated', 'How they are computed', 'Accuracy'):
        assert heading in found
