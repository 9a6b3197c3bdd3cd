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
"""Solver ``'generated'``: the model's customised straight-line code (seed 001).

On first use for a model (and gravity vector, and with or without a tip wrench) the solver
generates the customised inverse dynamic model with numeric parameters
(:func:`robot_dynamics.codegen.generate`, base parameters) and keeps the compiled Python
function in a cache keyed by the model's fingerprint, outside the immutable model. The
generated code is elementwise numpy, so one call evaluates a whole batch (N, n); it also runs
on complex and object arrays.
"""

import weakref

import numpy as np

from robot_dynamics.codegen.generator import fingerprint, generate
from robot_dynamics.solvers.registry import Solver

_functions = {}
_keys = weakref.WeakKeyDictionary()


def generated_function(model, gravity, tip_wrench):
    """Return the generated rigid-body inverse dynamics of ``model`` (cached by fingerprint)."""
    base = _keys.get(model)
    if base is None:
        base = _keys[model] = fingerprint(model)
    key = (base, tuple(float(g) for g in gravity), bool(tip_wrench))
    function = _functions.get(key)
    if function is None:
        rigid = model.without_joint_effects()
        code = generate(rigid, symbolic_inertia=False, regroup_parameters='base',
                        gravity=gravity, tip_wrench=tip_wrench)
        function = _functions[key] = code.python_namespace()['inverse_dynamics']
    return function


def generated(model, q, qd, qdd, gravity, f_tip=None):
    """Rigid-body joint torques (N, n) by the model's generated code."""
    N, n = q.shape
    function = generated_function(model, gravity, f_tip is not None)
    arguments = [q.T, qd.T, qdd.T] + ([] if f_tip is None else [np.asarray(f_tip).T])
    values = function(*arguments)
    dtype = np.result_type(q, qd, qdd, float)
    tau = np.empty((n, N), dtype)
    for i, value in enumerate(values):
        tau[i] = value
    return tau.T


SOLVER = Solver(
    name='generated',
    function=generated,
    description="Customised model generated from Renaud's recursion (straight-line code, "
                'base parameters)',
    reference='Renaud 1987 (seed 001), analytical iterative computation; robot_dynamics.codegen',
)
