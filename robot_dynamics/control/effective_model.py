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
"""What the dynamics node computes with, and the rules of its settings, without ROS.

:class:`EffectiveModel`: the source model with the payload and the parameter overrides, its
output order, its gravity-free copy, its plausibility bounds and the most names a
``joint_states`` message may carry; built whole or refused (the node keeps its current one).
:func:`checked_payload`, :func:`check_settings`, :func:`check_change`,
:class:`ReloadGate` and :func:`accepted_motion` are the rules of a payload, of the settings,
of a parameter change, of ``~/reload_model`` and of a desired trajectory. ``values`` is
``{parameter name: value}`` (:mod:`robot_dynamics.control.model_source`).
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics import solvers
from robot_dynamics.control.goals import GoalRules, commanded_motion
from robot_dynamics.control.joint_states import message_joint_limit
from robot_dynamics.control.model_source import (SOURCE_PARAMETERS, check_locked_joints,
                                                 check_model_name, check_model_source,
                                                 joint_order, with_overrides)
from robot_dynamics.control.policies import POLICIES, apply_policy
from robot_dynamics.model import bounds

PUBLISH_MODES = ('on_message', 'timer')
QOS_CHOICES = ('sensor_data', 'reliable')
RULES = GoalRules(allow_partial_joints_goal=True)   # a desired motion may name some joints
MODEL_FIELDS = frozenset({'gravity', 'joints', 'viscous_friction', 'coulomb_friction',
                          'rotor_inertia'})          # a change rebuilds the effective model


@dataclass(frozen=True)
class EffectiveModel:
    """The model computed with: ``source`` + ``payload`` + overrides (module docstring)."""

    source: object
    payload: tuple
    model: object
    no_gravity: object
    state_bounds: object
    names: list
    order: np.ndarray
    message_limit: int

    @classmethod
    def build(cls, source, payload, values):
        """Build it from ``values`` (gravity, friction, rotor inertia, joints); ValueError."""
        model = with_overrides(source if payload is None else source.with_payload(*payload),
                               values)
        if model.dof > bounds.MAX_NODE_JOINTS:
            raise ValueError(bounds.too_many_joints(model))
        names, order = joint_order(model, values.get('joints'))
        return cls(source, payload, model, model.with_gravity(np.zeros(3)),
                   bounds.StateBounds(model), names, order, message_joint_limit(model))


def checked_payload(source, mass, com, inertia):
    """Return the payload ``(mass, com, inertia)`` for ``source``; ValueError naming why not.

    ``inertia``: ``[ixx, iyy, izz, ixy, iyz, ixz]`` about the centre of mass ``com``.
    """
    if not np.all(np.isfinite([mass, *com, *inertia])):
        raise ValueError('payload contains NaN or inf')
    bounds.check_payload(mass, list(com), list(inertia))
    bounds.check_payload_on(source, mass)
    return mass, list(com), list(inertia)


def check_settings(values):
    """Refuse a ``solver``, ``feasibility``, ``publish_mode`` or QoS that does not exist."""
    solver = values.get('solver')
    if solver is not None and solver not in solvers.available():
        raise ValueError(f'solver: unknown {solver!r}; valid solvers: '
                         f"{', '.join(solvers.available())}")
    for name, choices in (('feasibility', POLICIES), ('publish_mode', PUBLISH_MODES),
                          ('joint_states_qos', QOS_CHOICES)):
        if values.get(name, choices[0]) not in choices:
            raise ValueError(f'{name}: {values[name]!r} is not one of {choices}')


def check_change(overrides, values, source, payload):
    """Refuse a parameter change the node could not run with; ValueError naming why.

    ``overrides``: the values being set; ``values``: every model value with them; ``source``,
    ``payload``: the node's (None: no model yet). Checked: the settings, the locked joints
    (against the loaded model unless the same change replaces it), the model's name, the
    sources' precedence, then the would-be effective model (gravity, friction, rotor inertia,
    joint order), built and discarded. Loading a new source is the node's (it may take a
    worker).
    """
    check_settings(overrides)
    if 'locked_joints' in overrides:
        check_locked_joints(None if SOURCE_PARAMETERS & set(overrides) else source,
                            overrides['locked_joints'])
    check_model_name(overrides.get('model'))
    check_model_source(overrides, values)
    gravity = overrides.get('gravity')
    if gravity is not None and len(gravity):
        bounds.check_gravity(gravity)
    if source is not None and MODEL_FIELDS & set(overrides):
        EffectiveModel.build(source, payload, values)


class ReloadGate:
    """One ``~/reload_model`` per ``interval`` s is served (a reload parses the whole model)."""

    def __init__(self, interval=1.0):
        self.interval, self.last = interval, None

    def refusal(self, now):
        """Return why a reload at ``now`` (monotonic s) is refused, or '' (then it is served)."""
        if self.last is not None and now - self.last < self.interval:
            return (f'reload refused: one per {self.interval} s; retry in '
                    f'{self.interval - (now - self.last):.2f} s')
        self.last = now
        return ''


def accepted_motion(model, request, current, at_ns, feasibility, deferred=False):
    """Return the desired trajectory to follow and why it is beyond the limits ('' if not).

    What is checked is the motion that will be commanded from ``current`` (``(q, qd)``, or
    None before a state: :class:`~robot_dynamics.control.goals.NeedsState`) at ``at_ns``;
    ``deferred``: kept until the first state (an ended one then holds its last point).
    Raises :class:`~robot_dynamics.control.goals.GoalError` or ``BadInput`` when refused.
    """
    motion = commanded_motion(request, model.joint_names, current, at_ns, model, RULES,
                              ended_ok=deferred)
    trajectory, _, report = apply_policy(model, motion, feasibility, 0.05)   # torque, speed
    return trajectory, '' if report.feasible else \
        f'desired_trajectory {feasibility}: {report.message()}'
