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
"""ROS 2 node: a simulated arm that integrates the forward dynamics of a robot model.

Commanded efforts (``~/effort_commands`` in ``joints`` order, or ``~/joint_commands`` by name)
drive a :class:`~robot_dynamics.simulation.simulator.Simulator` (effort and velocity limits,
joint stops, runaway checks, pacing: its docstring); a user's push arrives on
``~/external_wrench`` (:mod:`~robot_dynamics.nodes.wrench_input`). A diverging state is never
published: the node stops stepping, says why and reports ERROR on /diagnostics. The node
publishes ``joint_states`` (effort = applied torque) and optionally ``/clock``. See
docs/ros.md.
"""

import functools

import numpy as np
from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from rcl_interfaces.msg import SetParametersResult
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from std_srvs.srv import SetBool, Trigger

from robot_dynamics.control import simulation_settings
from robot_dynamics.errors import bounded, PlausibilityError
from robot_dynamics.model import bounds
from robot_dynamics.nodes.model_parameters import (declare_model_parameters, joint_order,
                                                   model_with_logged_warnings,
                                                   model_with_overrides)
from robot_dynamics.control.health import ThrottledLog
from robot_dynamics.nodes.node_health import publish_status
from robot_dynamics.nodes.parameters import (declare_array, declare_double_array, declare_settings,
                                             parameter_value)
from robot_dynamics.nodes.process import (check_startup, guarded_parameters, guarded_service,
                                          guarded_subscription, run)
from robot_dynamics.nodes.qos import STEADY
from robot_dynamics.nodes.wrench_input import WrenchInput
from robot_dynamics.simulation.simulator import check_integrator, setting_error, Simulator
from robot_dynamics.nodes.conversions import (BadInput, array_to_vector,
                                              joint_efforts_by_name, joint_state_message)


def declare_simulation_parameters(node):
    """Declare every parameter of :class:`SimulationNode` (control.simulation_settings)."""
    declare_model_parameters(node, at_start_only=True)      # the model is built once
    declare_array(node, 'joints', Parameter.Type.STRING_ARRAY,
                  'joint order of ~/effort_commands and joint_states; empty: model order',
                  read_only=True)
    declare_double_array(node, 'gravity', 'gravity vector in the base frame, m/s^2 (3 '
                         "values, |g| <= 100); unset or empty: the model's own gravity",
                         read_only=True)
    declare_settings(node, simulation_settings.STEPPING)
    declare_array(node, 'initial_positions', Parameter.Type.DOUBLE_ARRAY,
                  'initial joint positions in `joints` order; empty: the home posture '
                  '(0, or the middle of the range where 0 is outside the limits), where '
                  'the standard trajectory starts')
    declare_settings(node, simulation_settings.SAFETY)


class SimulationNode(Node):
    """Steps a :class:`~robot_dynamics.simulation.simulator.Simulator` on a wall-time timer."""

    def __init__(self, node_name='simulation_node', **kwargs):
        super().__init__(node_name, **kwargs)
        self._log = ThrottledLog(self.get_logger())     # each reason once a second
        declare_simulation_parameters(self)
        source = model_with_logged_warnings(self)
        if source is None:
            raise ValueError('simulation_node needs a model: set robot_description, '
                             'urdf_file, dh_file or model')
        self.model = model_with_overrides(source, self)   # gravity; plausibility checked
        if self.model.dof > bounds.MAX_NODE_JOINTS:
            raise ValueError(bounds.too_many_joints(self.model))
        check_integrator(self.get_parameter('integrator').value)
        self.joint_names, self._order = joint_order(self.model, parameter_value(self, 'joints'))
        # Locked side-branch joints (fingers) are published too, at their locked positions, so
        # that a state publisher can place every link of the robot.
        locked = self.model.locked_joints
        self._locked_names = [name for name in locked if name not in self.joint_names]
        self._locked_zeros = np.zeros(len(self._locked_names))
        self._locked_positions = np.array([locked[name] for name in self._locked_names])
        check_startup(self, self._validate_parameters)
        self.dropped = 0
        self.last_dropped = ''     # why the last command was dropped (diagnostics)
        self.simulator = Simulator(
            self.model, self.get_parameter('dt').value,
            1.0 / self.get_parameter('publish_rate').value,
            functools.partial(parameter_value, self), self._order,
            None if self.get_parameter('fast_path').value else 'rnea',
            push=lambda q, t: self.push.torques(q, t), on_failure=self._report_failure)
        self.add_on_set_parameters_callback(guarded_parameters(self, self._validate_parameters))
        guard = functools.partial(guarded_subscription, self)
        self.push = WrenchInput(self, guard)        # ~/external_wrench: a user's push

        self.pub_joint_states = self.create_publisher(JointState, 'joint_states', 10)
        self.pub_clock = (self.create_publisher(Clock, '/clock', 10)
                          if self.get_parameter('publish_clock').value else None)
        self.pub_diagnostics = self.create_publisher(DiagnosticArray, '/diagnostics', 10)
        self.create_subscription(Float64MultiArray, '~/effort_commands',
                                 guard(self._on_effort_array), 10)
        self.create_subscription(JointState, '~/joint_commands', guard(self._on_joint_command),
                                 qos_profile_sensor_data)
        self.create_service(Trigger, '~/reset', guarded_service(self, self._on_reset))
        self.create_service(SetBool, '~/pause', guarded_service(self, self._on_pause))
        self.create_timer(self.get_parameter('tick_period').value, guard(self._on_tick))
        self.create_timer(1.0, guard(self._publish_diagnostics), clock=STEADY)
        self._publish_state()

    @property
    def sim_time(self):
        """Return the simulated time, s (the stamps of the states when /clock is published)."""
        return self.simulator.sim_time

    def _validate_parameters(self, parameters):
        for parameter in parameters:
            reason = setting_error(self.model, self._order, parameter.name, parameter.value)
            if reason is not None:
                return SetParametersResult(successful=False, reason=reason)
        return SetParametersResult(successful=True)

    # ------------------------------------------------------------------ commands
    def _on_effort_array(self, msg):
        try:
            self.simulator.set_command(array_to_vector(msg, self.model.dof), joint_order=True)
        except (BadInput, PlausibilityError) as exc:
            return self._drop(f'effort_commands dropped: {exc}')
        self._commanded()

    def _on_joint_command(self, msg):
        try:
            self.simulator.set_command(joint_efforts_by_name(msg, self.model.joint_names))
        except (BadInput, PlausibilityError) as exc:
            return self._drop(f'joint_commands dropped: {exc}')
        self._commanded()

    def _commanded(self):
        if self.get_parameter('lockstep').value:
            self._on_tick()                 # step on at once instead of at the next tick

    def _on_tick(self):
        if self.simulator.tick():
            self._publish_state()

    def _report_failure(self, reason):
        self.get_logger().error(f'simulation stopped: {reason}; call ~/reset to restart')
        self._publish_diagnostics()

    # ------------------------------------------------------------------ outputs
    def _publish_state(self):
        """Publish the state: stamped with simulated time when this node publishes /clock.

        Without /clock the other nodes run on their own clocks (wall time, or a /clock from
        elsewhere): the state is stamped with this node's clock, or every node on wall time
        would drop it as stale (simulated time starts at 0).
        """
        sim = self.simulator
        if self.pub_clock is not None:
            seconds, nanoseconds = divmod(int(round(sim.sim_time * 1e9)), 10 ** 9)
            stamp = Time(sec=seconds, nanosec=nanoseconds)
        else:
            stamp = self.get_clock().now().to_msg()
        sim.published()                     # before publishing: the answer may come fast
        if self.pub_clock is not None:
            self.pub_clock.publish(Clock(clock=stamp))
        order, zeros = self._order, self._locked_zeros
        self.pub_joint_states.publish(joint_state_message(
            self.joint_names + self._locked_names, stamp,
            np.concatenate([sim.q[order], self._locked_positions]),
            np.concatenate([sim.qd[order], zeros]), np.concatenate([sim.tau[order], zeros])))

    def health(self):
        """Level and message for /diagnostics: ERROR when failed or silent while running."""
        ok, message = self.simulator.health()
        return (DiagnosticStatus.OK if ok else DiagnosticStatus.ERROR), message

    def _publish_diagnostics(self):
        sim = self.simulator
        values = {'sim_time_s': f'{sim.sim_time:.6f}',
                  'real_time_factor': f'{sim.measured_factor():.3f}',
                  'dropped_messages': str(self.dropped), 'last_dropped': self.last_dropped,
                  'last_error': sim.error,
                  'integrator': self.get_parameter('integrator').value, **self.push.values()}
        publish_status(self, self.pub_diagnostics, 'simulation', self.model.name, self.health(),
                       values)

    # ------------------------------------------------------------------ services
    def _on_reset(self, request, response):
        try:
            self.simulator.reset()
            self.simulator.trial_step()
        except Exception as exc:  # noqa: BLE001 - report why instead of claiming success
            response.success, response.message = False, f'reset failed: {exc}'
            return response
        self._publish_state()
        response.success, response.message = True, 'reset to the initial state'
        return response

    def _on_pause(self, request, response):
        self.simulator.pause(request.data)
        response.success = True
        response.message = 'paused' if self.simulator.paused else 'running'
        return response

    def _drop(self, reason):
        self.dropped += 1
        self.last_dropped = bounded(reason)
        self._log.warning(self.last_dropped)

    def callback_failed(self, name, exc):
        """Log an exception caught around a callback (the node keeps running)."""
        self.simulator.error = bounded(f'{name} failed: {type(exc).__name__}: {exc}')
        self._log.error(self.simulator.error)


def main(args=None):
    """Console-script entry point ``simulation_node``."""
    run(SimulationNode, args)


if __name__ == '__main__':
    main()
