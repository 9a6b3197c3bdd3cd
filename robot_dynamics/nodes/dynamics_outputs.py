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
"""The dynamics node's outputs: compute G, M and the feed-forward, check them, publish them.

A mixin of :class:`~robot_dynamics.nodes.dynamics_node.DynamicsNode`: the node holds the model,
the state, the trajectory and the publishers; these methods turn them into messages through
:mod:`robot_dynamics.api` (the compiled engine by default).
"""

import time

import numpy as np

import robot_dynamics as rd
from robot_dynamics.errors import PlausibilityError
from robot_dynamics.model import bounds
from robot_dynamics.nodes.conversions import (joint_state_message, matrix_rows_message,
                                              matrix_to_array, vector_to_array)

OUTPUTS = ('feedforward_torques', 'gravity_torques', 'mass_matrix')


class DynamicsOutputs:
    """Computing and publishing the outputs (methods of the dynamics node)."""

    def compute(self, q, qd, now_ns):
        """Feed-forward (n,), gravity (n,) and mass matrix (n, n) in model joint order.

        The desired trajectory is sampled at clock time ``now_ns`` (integer nanoseconds).
        """
        outputs = self._outputs(q, now_ns, OUTPUTS)
        return tuple(outputs[name] for name in OUTPUTS)

    def _outputs(self, q, now_ns, wanted):
        """Compute the ``wanted`` outputs ({name: array}, model order) at ``q``, ``now_ns``."""
        model = self.model if self._gravity_on else self._no_gravity_model
        solver = self._library_solver
        outputs = {}
        if 'gravity_torques' in wanted or ('feedforward_torques' in wanted
                                           and self._trajectory is None):
            outputs['gravity_torques'] = rd.gravity_torques(model, q, solver=solver)
        if 'mass_matrix' in wanted:
            outputs['mass_matrix'] = rd.mass_matrix(model, q)
        if 'feedforward_torques' in wanted:
            if self._trajectory is None:   # no desired motion: hold the arm against gravity
                outputs['feedforward_torques'] = outputs['gravity_torques']
            else:
                if self._trajectory.start_ns is None and now_ns > 0:   # the clock has begun
                    self._trajectory = self._trajectory.started(now_ns)
                    self._publish_accepted(self._trajectory)
                q_d, qd_d, qdd_d = self._trajectory.sample(now_ns)
                outputs['feedforward_torques'] = rd.inverse_dynamics(model, q_d, qd_d, qdd_d,
                                                                     solver=solver)
        return outputs

    def _engine_or(self, solver):
        """Return the library's solver argument: None (the engine) for 'rnea' on the fast path.

        'generated' also runs the engine: the node never generates or compiles code in a
        callback (build a generated model offline with rd.fast / robot-dynamics codegen).
        """
        if solver == 'generated' or (solver == 'rnea' and self.get_parameter('fast_path').value):
            return None
        return solver

    def _wanted(self):
        """Name the outputs to compute: those with a subscriber (all: publish_unsubscribed)."""
        if self._publish_all:
            return OUTPUTS
        return tuple(name for name in OUTPUTS
                     if any(p.get_subscription_count() for p in self._output_publishers[name]))

    def _compute_and_publish(self, now=None):
        q, qd, state_time, input_stamp = self._state
        now = self.get_clock().now() if now is None else now
        if now.nanoseconds * 1e-9 - state_time > self._stale_timeout:
            return  # stale: publish nothing (diagnostics report it)
        wanted = self._wanted()
        self._listened = bool(wanted)
        start = time.perf_counter()
        try:
            outputs = self._outputs(q, now.nanoseconds, wanted)
        except Exception as exc:  # noqa: BLE001 - a failing solver must not kill the node
            return self._error(f'computation failed: {exc}')
        self.statistics.durations.append(time.perf_counter() - start)
        # Each output is published when it is finite and within bounds.MAX_OUTPUT; the others
        # still go out (a bad desired trajectory must not silence gravity and mass matrix).
        complete = True
        for name in wanted:
            if self._plausible(name, outputs[name]):
                self._publish(name, outputs[name], now.to_msg() if name == 'feedforward_torques'
                              else input_stamp)
            else:
                complete = False
        if complete:
            self._last_publish = time.monotonic()

    def _publish(self, name, values, stamp):
        """Publish one output in the ``joints`` order (and its stamped copy if listened).

        ``stamp``: the input it was computed from: the joint state's stamp (gravity, mass
        matrix), the time the desired trajectory was sampled at (feed-forward).
        """
        order = self._output_order
        publishers = self._output_publishers[name]
        values_out = values[np.ix_(order, order)] if name == 'mass_matrix' else values[order]
        message = self._messages.get(name)
        if message is None or len(message.data) != values_out.size:   # layout built once
            convert = matrix_to_array if name == 'mass_matrix' else vector_to_array
            message = self._messages[name] = convert(values_out)
        else:
            message.data = values_out.reshape(-1).tolist()
        publishers[0].publish(message)              # serialised here: the message is reused
        if not publishers[1].get_subscription_count():   # the stamped, named copy
            return
        if name == 'mass_matrix':
            publishers[1].publish(matrix_rows_message(self.output_names, values_out, stamp))
        else:
            publishers[1].publish(joint_state_message(self.output_names, stamp,
                                                      effort=values_out))

    def _plausible(self, name, values):
        """Tell whether an output may be published; count and name it when it may not."""
        try:
            bounds.check_output(name, values)
        except PlausibilityError as exc:
            self.suppressed += 1
            self._error(f'{exc}; not published')
            return False
        return True
