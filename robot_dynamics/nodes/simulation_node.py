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
are saturated at the effort limits, cut by the drives' velocity limits (``velocity_limits``,
:mod:`~robot_dynamics.simulation.drives`) and held for ``dt`` steps of
:func:`robot_dynamics.simulation.integrators.step` (default ``integrator: implicit``, stable
under the stiff joint damping of real robot descriptions); position limits act as hard stops (a
perfectly inelastic impact within the step, :func:`~robot_dynamics.simulation.stops.stop_step`:
the engine's stops, as in ``rd.simulate``).
A diverging state (non-finite, a joint speed beyond ``bounds.MAX_VELOCITY`` or energy gained)
is never published: the node stops stepping, says why and reports ERROR on /diagnostics.
The node publishes ``joint_states`` (effort = applied torque) and optionally ``/clock``. See
docs/ros.md.
"""

import functools
import time

import numpy as np
from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from rcl_interfaces.msg import SetParametersResult
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray
from std_srvs.srv import SetBool, Trigger

import robot_dynamics as rd
from robot_dynamics.errors import bounded, PlausibilityError
from robot_dynamics.model import bounds
from robot_dynamics.nodes.model_parameters import (joint_order, model_with_logged_warnings,
                                                   model_with_overrides)
from robot_dynamics.nodes.node_health import ThrottledLog, publish_status
from robot_dynamics.nodes.parameters import parameter_value
from robot_dynamics.nodes.process import (check_startup, guarded_parameters, guarded_service,
                                          guarded_subscription, run)
from robot_dynamics.nodes.qos import STEADY
from robot_dynamics.nodes.simulation_parameters import declare_simulation_parameters
from robot_dynamics.nodes.wrench_input import WrenchInput
from robot_dynamics.simulation.integrators import INTEGRATORS, apply_position_limits, stop_step
from robot_dynamics.simulation.drives import drive_torque
from robot_dynamics.simulation.stability import beyond_plausible, divergence_advice
from robot_dynamics.simulation.trajectory import home_posture
from robot_dynamics.nodes.conversions import (BadInput, array_to_vector,
                                              joint_efforts_by_name, joint_state_message)

MIN_FACTOR = 1e-3      # real_time_factor: below this the simulation is frozen (issue 30 LOW)


class SimulationNode(Node):
    """Integrates ``M(q) qdd + V + G + F = tau`` at a fixed step, paced by wall time."""

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
        self._solver = None if self.get_parameter('fast_path').value else 'rnea'
        self.joint_names, self._order = joint_order(self.model, parameter_value(self, 'joints'))
        # Locked side-branch joints (fingers) are published too, at their locked positions, so
        # that a state publisher can place every link of the robot.
        locked = self.model.locked_joints
        self._locked_names = [name for name in locked if name not in self.joint_names]
        self._locked_zeros = np.zeros(len(self._locked_names))
        self._locked_positions = np.array([locked[name] for name in self._locked_names])
        check_startup(self, self._validate_parameters)
        self.dt = self.get_parameter('dt').value
        self.publish_period = 1.0 / self.get_parameter('publish_rate').value
        self.steps_per_publish = max(1, int(round(self.publish_period / self.dt)))
        self.dropped = 0
        self.last_dropped = ''     # why the last command was dropped (diagnostics)
        self.error = ''
        self.step_count = 0
        self.initial_positions(parameter_value(self, 'initial_positions'))   # fail fast
        self.reset()
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

    def _validate_parameters(self, parameters):
        for parameter in parameters:
            if parameter.name == 'integrator' and parameter.value not in INTEGRATORS:
                return SetParametersResult(
                    successful=False, reason=f'integrator: unknown {parameter.value!r}; use '
                    f'one of {sorted(INTEGRATORS)}')
            if parameter.name == 'real_time_factor' and 0 < parameter.value < MIN_FACTOR:
                return SetParametersResult(
                    successful=False, reason=f'real_time_factor: {parameter.value:.3g} would '
                    f'freeze the simulation; use at least {MIN_FACTOR:g} (one simulated ms per '
                    'wall second), or 0 to run as fast as possible')
            if parameter.name == 'initial_positions':
                try:
                    self.initial_positions(parameter.value)
                except ValueError as exc:
                    return SetParametersResult(successful=False, reason=str(exc))
        return SetParametersResult(successful=True)

    def initial_positions(self, values):
        """Return initial positions (n,) in model order from the parameter (``joints`` order).

        Unset or empty: the home posture (0, or the middle of the range where 0 is outside the
        limits), where the standard trajectory starts. Raises ``ValueError`` unless there is
        one finite value per joint within the position limits widened by
        ``bounds.POSITION_MARGIN``.
        """
        q0 = home_posture(self.model)
        if values is None or not len(values):
            return q0
        values = np.asarray(values, dtype=float)
        if values.size != self.model.dof or not np.all(np.isfinite(values)):
            raise ValueError(f'initial_positions: give {self.model.dof} finite values, got '
                             f'{values.tolist()}')
        q0[self._order] = values
        try:
            bounds.check_state(self.model, q0)
        except ValueError as exc:
            raise ValueError(f'initial_positions: {exc}') from None
        return q0

    # ------------------------------------------------------------------ state
    def reset(self):
        """Back to the initial state at rest, time 0, no command, not failed or paused."""
        q0 = self.initial_positions(parameter_value(self, 'initial_positions'))
        self.q, _ = apply_position_limits(self.model, q0, np.zeros(self.model.dof))
        self.qd = np.zeros(self.model.dof)
        self.tau = np.zeros(self.model.dof)
        self.sim_time = 0.0
        self.paused = False
        self.failed = False
        self.error = ''
        self._command = np.zeros(self.model.dof)
        self._command_time = None
        self._new_command = False
        self._published_at_wall = time.monotonic()
        self._energy_start = rd.total_energy(self.model, self.q, self.qd)
        self._work_in = 0.0
        self._work_stops = 0.0
        self._anchor()

    def _anchor(self):
        """Restart real-time pacing from now (after a reset, a pause or an overrun)."""
        self._wall_anchor = time.monotonic()
        self._sim_anchor = self.sim_time

    # ------------------------------------------------------------------ commands
    def _on_effort_array(self, msg):
        try:
            values = array_to_vector(msg, self.model.dof)
            bounds.check_output('effort command', values)
        except (BadInput, PlausibilityError) as exc:
            return self._drop(f'effort_commands dropped: {exc}')
        command = np.zeros(self.model.dof)
        command[self._order] = values
        self._set_command(command)

    def _on_joint_command(self, msg):
        try:
            command = joint_efforts_by_name(msg, self.model.joint_names)
            bounds.check_output('effort command', command)
        except (BadInput, PlausibilityError) as exc:
            return self._drop(f'joint_commands dropped: {exc}')
        self._set_command(command)

    def _set_command(self, command):
        self._command = command
        self._command_time = self.sim_time
        self._new_command = True
        if self.get_parameter('lockstep').value:
            self._on_tick()                 # step on at once instead of at the next tick

    def applied_torque(self):
        """Return the command saturated at the effort limits; zero once older than the timeout."""
        timeout = self.get_parameter('command_timeout').value
        if self._command_time is None or self.sim_time - self._command_time > timeout:
            return np.zeros(self.model.dof)
        limit = self.model.effort_limit
        return np.clip(self._command, -limit, limit)

    def drive_torque(self, tau):
        """Return the torque the drives deliver for ``tau``: speed-limited unless disabled.

        ``velocity_limits`` (default true): a drive gives no torque that would pass its joint's
        URDF velocity limit (:func:`~robot_dynamics.simulation.drives.drive_torque`).
        """
        if not self.get_parameter('velocity_limits').value:
            return tau
        return drive_torque(self.model, self.q, self.qd, tau, self.dt, self._solver)

    # ------------------------------------------------------------------ stepping
    def _on_tick(self):
        if self.paused or self.failed:
            return
        if self.get_parameter('lockstep').value and self._command_time is None:
            self._wait_for_first_command()
            return
        if self.get_parameter('lockstep').value and not self._new_command and \
                time.monotonic() - self._published_at_wall < \
                self.get_parameter('lockstep_timeout').value:
            return
        steps = self.steps_per_publish - self.step_count % self.steps_per_publish
        factor = self.get_parameter('real_time_factor').value
        if factor > 0:
            target = self._sim_anchor + (time.monotonic() - self._wall_anchor) * factor
            behind = int((target - self.sim_time) / self.dt + 1e-9)
            if behind > 10 * self.steps_per_publish:
                self._anchor()          # cannot keep up: run as fast as possible, no debt
            steps = min(steps, behind)
        if steps <= 0:
            return
        self.advance(steps)

    def _wait_for_first_command(self):
        """Lockstep: hold still until a controller answers, repeating the state meanwhile.

        The arm does not fall while the other nodes start (it would begin the trajectory off
        its first point); the repeated state reaches subscribers that joined late.
        """
        if time.monotonic() - self._published_at_wall >= \
                self.get_parameter('lockstep_timeout').value:
            self._publish_state()

    def advance(self, steps):
        """Integrate ``steps`` steps of ``dt``; publish when a publish instant is reached."""
        integrator = self.get_parameter('integrator').value
        for _ in range(steps):
            try:
                tau = self.drive_torque(self.applied_torque())
                push = self.push.torques(self.q, self.sim_time)   # not in the efforts
                total = tau if push is None else tau + push
                q, qd, _ = rd.step(self.model, self.q, self.qd, total, self.dt, integrator,
                                   solver=self._solver)
                self._work_in += float(total @ (qd + self.qd)) * 0.5 * self.dt
                self._apply_stops(q, qd)
            except (rd.SimulationError, np.linalg.LinAlgError, ValueError) as exc:
                return self._fail(f'integration failed at t = {self.sim_time:.4f} s: {exc}')
            self.tau = tau
            self.sim_time = round(self.sim_time + self.dt, 12)
            self.step_count += 1
            if self.step_count % self.steps_per_publish == 0:
                if self._check_runaway():
                    self._publish_state()
                return

    def _apply_stops(self, q, qd):
        """Take the state after the joint stops act on the step to ``(q, qd)``; count their work.

        The stops land the passing joints on their stop within the step and halt them
        (:func:`~robot_dynamics.simulation.stops.stop_step`: the engine's ``rd_stop_step``,
        the stops of ``rd.step``/``rd.simulate`` with ``position_limits=True``, on the free
        step): the whole energy change against the free step is their work, so that the
        runaway check measures the integration's own energy error.
        """
        self.q, self.qd = stop_step(self.model, self.q, q, qd, self.dt, self._solver)
        if not (np.array_equal(self.q, q) and np.array_equal(self.qd, qd)):
            self._work_stops += float(rd.total_energy(self.model, self.q, self.qd)
                                      - rd.total_energy(self.model, q, qd))

    def _check_runaway(self):
        """Return False (and stop) if the state is not finite or the energy ran away."""
        if not (np.all(np.isfinite(self.q)) and np.all(np.isfinite(self.qd))):
            return self._fail('state became NaN/inf')
        if not np.all(np.abs(self.qd) <= bounds.MAX_VELOCITY):
            return self._fail(beyond_plausible(
                self.model, self.qd, 'after the joint stops', 'state',
                (self.q, self.qd, self.tau), self.dt, self.get_parameter('integrator').value))
        energy = rd.total_energy(self.model, self.q, self.qd)
        if not np.isfinite(energy) or energy > self.get_parameter('max_energy').value:
            return self._fail(f'total energy {energy:.3g} J exceeds max_energy')
        excess = energy - self._energy_start - self._work_in - self._work_stops
        if excess > self.get_parameter('energy_tolerance').value:
            return self._fail(self._runaway_reason(excess))
        return True

    def _runaway_reason(self, excess):
        """Why the energy check tripped: the integration itself gained the energy."""
        integrator = self.get_parameter('integrator').value
        fix = ('reduce dt or use integrator rk4 (accurate) or implicit (stable under damping)'
               if integrator in ('euler', 'semi_implicit_euler') else
               'reduce dt' + (' or use integrator implicit' if integrator == 'rk4' else ''))
        advice = divergence_advice(self.model, self.q, self.qd, self.dt, integrator)
        if 'too stiff' in advice:
            fix = advice
        return (f'energy grew {excess:.3g} J more than the commands and the joint stops put '
                f'in (energy_tolerance {self.get_parameter("energy_tolerance").value:g} J): '
                f'the {integrator} integration at dt = {self.dt:g} s is unstable for this '
                f'model; {fix}')

    def _fail(self, reason):
        self.failed = True
        self.error = reason = bounded(reason)
        self.get_logger().error(f'simulation stopped: {reason}; call ~/reset to restart')
        self._publish_diagnostics()
        return False

    # ------------------------------------------------------------------ outputs
    def _publish_state(self):
        """Publish the state: stamped with simulated time when this node publishes /clock.

        Without /clock the other nodes run on their own clocks (wall time, or a /clock from
        elsewhere): the state is stamped with this node's clock, or every node on wall time
        would drop it as stale (simulated time starts at 0).
        """
        if self.pub_clock is not None:
            seconds, nanoseconds = divmod(int(round(self.sim_time * 1e9)), 10 ** 9)
            stamp = Time(sec=seconds, nanosec=nanoseconds)
        else:
            stamp = self.get_clock().now().to_msg()
        self._new_command = False           # before publishing: the answer may come fast
        self._published_at_wall = time.monotonic()
        if self.pub_clock is not None:
            self.pub_clock.publish(Clock(clock=stamp))
        order, zeros = self._order, self._locked_zeros
        self.pub_joint_states.publish(joint_state_message(
            self.joint_names + self._locked_names, stamp,
            np.concatenate([self.q[order], self._locked_positions]),
            np.concatenate([self.qd[order], zeros]), np.concatenate([self.tau[order], zeros])))

    def health(self):
        """Level and message for /diagnostics: ERROR when failed or silent while running."""
        if self.failed:
            return DiagnosticStatus.ERROR, self.error
        if self.paused:
            return DiagnosticStatus.OK, 'paused'
        factor = self.get_parameter('real_time_factor').value
        window = max(1.0, 3.0 * self.publish_period / factor) if factor > 0 else 1.0
        if self.get_parameter('lockstep').value:      # waits up to lockstep_timeout per step
            window = max(window, 3.0 * self.get_parameter('lockstep_timeout').value)
        silent = time.monotonic() - self._published_at_wall
        if silent > window:
            return DiagnosticStatus.ERROR, (f'running but nothing published for {silent:.2f} '
                                            f's: {self.error or "stepping stalled"}')
        return DiagnosticStatus.OK, 'running'

    def _publish_diagnostics(self):
        elapsed = time.monotonic() - self._wall_anchor
        factor = (self.sim_time - self._sim_anchor) / elapsed if elapsed > 0 else 0.0
        values = {'sim_time_s': f'{self.sim_time:.6f}', 'real_time_factor': f'{factor:.3f}',
                  'dropped_messages': str(self.dropped), 'last_dropped': self.last_dropped,
                  'last_error': self.error,
                  'integrator': self.get_parameter('integrator').value, **self.push.values()}
        publish_status(self, self.pub_diagnostics, 'simulation', self.model.name, self.health(),
                       values)

    # ------------------------------------------------------------------ services
    def _on_reset(self, request, response):
        try:
            self.reset()
            self._trial_step()
        except Exception as exc:  # noqa: BLE001 - report why instead of claiming success
            response.success, response.message = False, f'reset failed: {exc}'
            return response
        self._publish_state()
        response.success, response.message = True, 'reset to the initial state'
        return response

    def _trial_step(self):
        """Integrate one step from the current state (discarded): raise if it cannot run."""
        integrator = self.get_parameter('integrator').value
        tau = np.zeros(self.model.dof)
        q, qd, _ = rd.step(self.model, self.q, self.qd, tau, self.dt, integrator,
                           solver=self._solver)
        if not (np.all(np.isfinite(q)) and np.all(np.isfinite(qd))):
            raise rd.SimulationError('the first step from the initial state is not finite')

    def _on_pause(self, request, response):
        self.paused = bool(request.data)
        if not self.paused:
            self._anchor()
        response.success = True
        response.message = 'paused' if self.paused else 'running'
        return response

    def _drop(self, reason):
        self.dropped += 1
        self.last_dropped = bounded(reason)
        self._log.warning(self.last_dropped)

    def callback_failed(self, name, exc):
        """Log an exception caught around a callback (the node keeps running)."""
        self.error = bounded(f'{name} failed: {type(exc).__name__}: {exc}')
        self._log.error(self.error)


def check_integrator(name):
    """Refuse an unknown integrator name (at start as at run time)."""
    if name not in INTEGRATORS:
        raise ValueError(f'integrator: unknown {name!r}; use one of {sorted(INTEGRATORS)}')


def main(args=None):
    """Console-script entry point ``simulation_node``."""
    run(SimulationNode, args)


if __name__ == '__main__':
    main()
