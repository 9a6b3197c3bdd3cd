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
"""The validation plot of identification/report.py: its axes say what they show."""

import types

import matplotlib.figure
import numpy as np

from robot_dynamics.identification.report import plot_validation
from robots import random_model


def test_validation_plot_labels_a_prismatic_joints_force_in_newtons(tmp_path, monkeypatch):
    """Trial 3: a prismatic joint's force was labelled "(N m)"."""
    model = random_model(np.random.default_rng(3), 4, prismatic_fraction=0.5)
    assert 'prismatic' in model.joint_types and 'revolute' in model.joint_types
    t = np.linspace(0.0, 1.0, 11)
    torques = np.zeros((t.size, model.dof))
    check = types.SimpleNamespace(t=t, measured=torques, nominal=torques, physical=torques,
                                  others={})
    labels = []
    saved = matplotlib.figure.Figure.savefig

    def savefig(figure, *args, **kwargs):
        labels.extend(axis.get_ylabel() for axis in figure.axes)
        return saved(figure, *args, **kwargs)
    monkeypatch.setattr(matplotlib.figure.Figure, 'savefig', savefig)
    plot_validation(types.SimpleNamespace(validation=check, model=model),
                    str(tmp_path / 'validation.png'))
    units = ['(N)' if kind == 'prismatic' else '(N m)' for kind in model.joint_types]
    assert [label.split('\n')[1] for label in labels] == units
    assert (tmp_path / 'validation.png').stat().st_size > 0
