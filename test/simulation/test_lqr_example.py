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
"""The LQR worked example of docs/derivatives.md, run as written in the docs."""

import pathlib
import re

import numpy as np

DOC = pathlib.Path(__file__).resolve().parents[2] / 'docs' / 'derivatives.md'


def example_code():
    """Return the python block after the ``<!-- lqr-example -->`` marker."""
    text = DOC.read_text(encoding='utf-8')
    match = re.search(r'<!-- lqr-example -->\s*```python\n(.*?)```', text, re.S)
    assert match, 'docs/derivatives.md lost its LQR example block'
    return match.group(1)


def test_lqr_from_the_docs_stabilises_the_arm_at_the_posture(capsys):
    scope = {}
    exec(compile(example_code(), str(DOC), 'exec'), scope)          # noqa: S102 - our docs
    errors, A, B, K = scope['errors'], scope['A'], scope['B'], scope['K']
    assert errors[0] > 0.09                                          # it started off the posture
    assert errors[499] < 1e-2 and errors[-1] < 1e-5                  # and converged
    assert max(errors[1500:]) < 1e-4                                 # and stayed there
    closed, open_ = (np.max(np.abs(np.linalg.eigvals(X))) for X in (A - B @ K, A))
    assert closed < 1.0 < open_
    printed = capsys.readouterr().out
    assert printed.strip() == f'{errors[499]:.1e} rad after 0.5 s, {errors[-1]:.1e} rad after 2 s'
    documented = re.search(r'It prints `(.*?)`', DOC.read_text(encoding='utf-8')).group(1)
    assert documented == printed.strip(), 'docs/derivatives.md quotes other figures'
