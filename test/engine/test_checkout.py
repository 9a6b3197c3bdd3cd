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
"""A Python started in the source checkout's root uses the installed engine (trial F7).

The checkout holds no compiled engine; ``sys.path[0]`` (the working directory) makes such a
Python import the checkout. It must borrow the installed engine when that was built from the
same engine sources, and otherwise warn with the real cause and the fix (``pip install .``).
Each case copies the package's source tree into a temporary "checkout" and runs the test
session's interpreter there, without ``PYTHONSAFEPATH``.
"""

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import engine
from robot_dynamics.engine.provenance import recorded_hash

SOURCE_TREE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = r'''
import json, warnings
warnings.simplefilter('always')
with warnings.catch_warnings(record=True) as caught:
    import numpy as np
    import robot_dynamics as rd
    from robot_dynamics import engine
    model = rd.load_model('puma560')
    q = np.linspace(-1, 1, model.dof)
    tau = rd.inverse_dynamics(model, q, q, q)
print(json.dumps({'package': rd.__file__, 'engine': getattr(engine.ENGINE, '__file__', None),
                  'messages': [str(w.message) for w in caught
                               if w.category.__name__ == 'EngineUnavailableWarning'],
                  'tau': tau.tolist()}))
'''


def checkout_copy(root):
    """Copy the source package (no build products) into ``root``, like a fresh clone."""
    shutil.copytree(os.path.join(SOURCE_TREE, 'robot_dynamics'),
                    os.path.join(root, 'robot_dynamics'),
                    ignore=shutil.ignore_patterns('__pycache__', '_engine*', '*.sha256'))
    return root


def run_in(root):
    """Run SCRIPT with the test interpreter, in ``root``, as a user would: ``python -c``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ('PYTHONSAFEPATH', 'ROBOT_DYNAMICS_NO_ENGINE')}
    # A colcon workspace puts its install on PYTHONPATH: keep that, drop the source tree.
    env['PYTHONPATH'] = os.pathsep.join(
        entry for entry in env.get('PYTHONPATH', '').split(os.pathsep)
        if entry and not os.path.abspath(entry).startswith(SOURCE_TREE))
    result = subprocess.run([sys.executable, '-c', SCRIPT], capture_output=True, text=True,
                            env=env, cwd=root, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def expected_tau():
    model = rd.load_model('puma560')
    q = np.linspace(-1, 1, model.dof)
    return rd.inverse_dynamics(model, q, q, q)


def test_the_checkout_borrows_the_installed_engine_built_from_its_sources(tmp_path):
    if recorded_hash(os.path.dirname(engine.ENGINE.__file__)) is None:
        pytest.skip('a develop (colcon --symlink-install) build records no engine-source hash')
    root = checkout_copy(str(tmp_path))
    out = run_in(root)
    assert out['package'].startswith(root + os.sep)              # the checkout is imported
    assert out['messages'] == []
    assert out['engine'] == engine.ENGINE.__file__               # the installed, compiled one
    assert not out['engine'].startswith(root + os.sep)
    assert np.array_equal(out['tau'], expected_tau())            # same engine, same bits


def test_modified_engine_sources_refuse_the_installed_engine_and_say_why(tmp_path):
    root = checkout_copy(str(tmp_path))
    source = os.path.join(root, 'robot_dynamics', 'engine', 'src', 'rnea.c')
    with open(source, 'a', encoding='utf-8') as stream:
        stream.write('\n/* a local edit */\n')
    out = run_in(root)
    assert out['package'].startswith(root + os.sep)
    assert out['engine'] is None
    [message] = out['messages']
    assert 'source checkout' in message and 'different engine sources' in message
    assert 'pip install .' in message and 'circular import' not in message
    assert np.allclose(out['tau'], expected_tau(), rtol=1e-10, atol=1e-10)   # numpy twin
