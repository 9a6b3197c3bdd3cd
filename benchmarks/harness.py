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
"""The benchmarks' shared harness: the installed package, paired timing, the machine.

Every benchmark times the package as installed (``./scripts/setup_venv.sh`` or ``colcon
build``): the source tree has no compiled engine, and importing it would time the numpy
fallback (:func:`require_engine` refuses that). On a shared machine the ratio of two
back-to-back timings is steadier than either time: :func:`paired` times ours and the peer's
call at the same state, one right after the other, and keeps every repeat's ratio.
"""

import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import timeit
import warnings

import numpy as np
import pinocchio as pin

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / 'test')]   # test helpers; the installed package, not the tree

import robot_dynamics as rd  # noqa: E402
from robots import pinocchio_configuration  # noqa: E402


def require_engine():
    """Exit with the fix unless ``robot_dynamics`` is an installed package with its engine."""
    where = pathlib.Path(rd.__file__).resolve().parent
    if rd.engine.ENGINE is None:
        sys.exit(f'robot_dynamics imported from {where} has no compiled engine: the benchmark '
                 'would time the numpy fallback; install the package (./scripts/setup_venv.sh '
                 'or colcon build) and run it with that Python, without PYTHONPATH=<tree>')
    return where


def child_options(**env):
    """``subprocess.run`` keywords for a Python child that imports the installed package.

    ``python -c``/``-m`` put the working directory first on ``sys.path``: started in the
    checkout, the child would import the source tree (no engine: the numpy fallback). It runs
    in the temporary directory with ``PYTHONSAFEPATH=1``; ``env`` adds variables.
    """
    return dict(cwd=tempfile.gettempdir(),
                env=dict(os.environ, PYTHONSAFEPATH='1', PYTHONPATH='', **env))


def machine():
    """CPU model and core count (lscpu), Python, numpy and Pinocchio versions."""
    model, cores = platform.processor() or 'unknown', os.cpu_count()
    try:
        text = subprocess.run(['lscpu'], capture_output=True, text=True).stdout
        fields = dict(line.split(':', 1) for line in text.splitlines() if ':' in line)
        model, cores = fields.get('Model name', model).strip(), fields.get('CPU(s)', cores)
    except OSError:
        pass
    return (f'{model}, {str(cores).strip()} cores; Python {platform.python_version()}, numpy '
            f'{np.__version__}, Pinocchio {pin.__version__}')


def load(name):
    """Bundled model (friction and rotors as shipped), warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return rd.load_model(name)


def pinocchio(model):
    """Pinocchio model (rotor inertia as armature, same gravity) and data."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        pm = pin.buildModelFromXML(model.to_urdf())
    pm.gravity = pin.Motion(np.asarray(model.gravity, float), np.zeros(3))
    pm.armature = np.asarray(model.reflected_inertia, float)
    return pm, pm.createData()


def state(rng, n, rows=None):
    """``q`` in [-π, π], ``qd`` and ``qdd`` in [-2, 2]."""
    shape = (n,) if rows is None else (rows, n)
    return rng.uniform(-np.pi, np.pi, shape), rng.uniform(-2, 2, shape), rng.uniform(-2, 2, shape)


def seconds(function, number, best_of=3):
    """Seconds per call of ``function()``: best of ``best_of`` loops of ``number`` calls.

    The best of a few loops drops the ones another process interrupted (shared machine).
    """
    function()
    return min(timeit.repeat(function, number=number, repeat=best_of)) / number


def paired(pairs, model, repeat, number, seed=0):
    """Operation → (our µs, the peer's µs, ours / peer) arrays over ``repeat`` states.

    ``pairs(model, pm, pd, q, qd, x)`` returns ``{operation: (ours, theirs)}`` callables at
    one state; each repeat draws a new state and times ours then theirs right after.
    """
    pm, pd = pinocchio(model)
    rng = np.random.default_rng(seed)
    results = {}
    for _ in range(repeat):
        for name, (ours, theirs) in pairs(model, pm, pd, *state(rng, model.dof)).items():
            a, b = seconds(ours, number), seconds(theirs, number)
            results.setdefault(name, []).append((a * 1e6, b * 1e6, a / b))
    return {name: tuple(np.array(rows).T) for name, rows in results.items()}


def ratio_text(ratios):
    """Median ratio and its spread, e.g. ``0.52× [0.48, 0.57]``."""
    return f'{np.median(ratios):.2f}× [{np.min(ratios):.2f}, {np.max(ratios):.2f}]'


def batch_against_loop(model, functions, rows, repeat, best_of=3, seed=1):
    """Label → (our ms, the loop's ms, ours / loop) arrays over ``repeat`` batches of ``rows``.

    ``functions``: label → (ours on (N, n) arrays ``(model, Q, QD, X)``, Pinocchio's call on
    one state ``(pm, pd, c, v, a)``). Each repeat draws new states and times ours (best of
    ``best_of``), then a Python loop of Pinocchio's call over the same states (best of 2).
    """
    pm, pd = pinocchio(model)
    rng = np.random.default_rng(seed)
    measured = {}
    for _ in range(repeat):
        Q, QD, X = state(rng, model.dof, rows)
        configs = [pinocchio_configuration(pm, q) for q in Q]
        for label, (ours, theirs) in functions.items():
            def loop(theirs=theirs):
                for c, v, a in zip(configs, QD, X):
                    theirs(pm, pd, c, v, a)
            a = seconds(lambda ours=ours: ours(model, Q, QD, X), 1, best_of)
            b = seconds(loop, 1, best_of=2)
            measured.setdefault(label, []).append((a * 1e3, b * 1e3, a / b))
    return {label: tuple(np.array(values).T) for label, values in measured.items()}
