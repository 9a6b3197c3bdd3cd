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
"""The dynamics node's outputs without ROS: gravity, mass matrix and feed-forward for a state.

``G(q)``, ``M(q)`` and ``ID(q_d, q̇_d, q̈_d)`` of the desired motion sampled now (gravity
alone while there is none: the arm held where it is), each computed only when wanted. The
dynamics node publishes them (``nodes/dynamics_outputs.py``); a plain Python loop can call
them the same way.
"""

import time

from robot_dynamics import api

OUTPUTS = ('feedforward_torques', 'gravity_torques', 'mass_matrix')
#: How long a count of a publisher's subscribers is used, s (:class:`Listened`).
LISTENERS_AGE = 0.05


def library_solver(solver, fast_path=True):
    """Return the library's solver argument: None (the compiled engine) or the solver's name.

    'rnea' runs on the engine on the fast path; 'generated' also runs the engine: a node
    never generates or compiles code in a callback (build a generated model offline with
    rd.fast / robot-dynamics codegen).
    """
    if solver == 'generated' or (solver == 'rnea' and fast_path):
        return None
    return solver


def dynamics_outputs(model, q, wanted, trajectory=None, now_ns=0, solver=None):
    """Return ``{name: array}`` (model order) of the ``wanted`` outputs at ``q``.

    ``trajectory``: the :class:`~robot_dynamics.control.trajectory.DesiredTrajectory`
    sampled at clock time ``now_ns`` for the feed-forward (None: the feed-forward is gravity,
    which holds the arm); ``model``: with zero gravity when gravity compensation is off.
    """
    outputs = {}
    if 'gravity_torques' in wanted or ('feedforward_torques' in wanted and trajectory is None):
        outputs['gravity_torques'] = api.gravity_torques(model, q, solver=solver)
    if 'mass_matrix' in wanted:
        outputs['mass_matrix'] = api.mass_matrix(model, q)
    if 'feedforward_torques' in wanted:
        if trajectory is None:
            outputs['feedforward_torques'] = outputs['gravity_torques']
        else:
            q_d, qd_d, qdd_d = trajectory.sample(now_ns)
            outputs['feedforward_torques'] = api.inverse_dynamics(model, q_d, qd_d, qdd_d,
                                                                  solver=solver)
    return outputs


class Listened:
    """Tell whether a publisher has subscribers; a yes holds for ``LISTENERS_AGE`` s.

    ``publisher``: anything with ``get_subscription_count()``; an rclpy ``Publisher`` is counted
    through its ``handle`` (the wrapper's use lock is 4× the count: ~1 µs of every output, every
    message). A count is a call into the rmw: at 1 kHz, the outputs' counts cost more than the
    gravity vector. A no is counted again at every call, so that a subscriber matched just
    before a single state gets its answer; a subscriber that left is served for
    ``LISTENERS_AGE`` s more.
    """

    def __init__(self):
        self._until = {}                 # publisher → monotonic time its yes expires
        self._counts = {}                # publisher → its count function

    def __call__(self, publisher):
        now = time.monotonic()
        if self._until.get(publisher, now) > now:
            return True
        count = self._counts.get(publisher)
        if count is None:
            count = self._counts[publisher] = getattr(publisher, 'handle',
                                                      publisher).get_subscription_count
        if count() > 0:
            self._until[publisher] = now + LISTENERS_AGE
            return True
        return False
