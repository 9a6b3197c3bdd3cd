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
"""ROS 2 node: feed-forward torques, gravity torques and mass matrix of a serial arm.

Subscribes to ``joint_states`` and ``~/desired_trajectory``; publishes
``~/feedforward_torques`` = ID(q_d, qd_d, qdd_d), ``~/gravity_torques`` = G(q) and
``~/mass_matrix`` = M(q) (see docs/ros.md for every topic, parameter and service). The node only
converts messages and calls :mod:`robot_dynamics.api`.
"""

import functools
import time

from builtin_interfaces.msg import Time as StampMessage
from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import InertiaStamped
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile, ReliabilityPolicy, qos_profile_sensor_data
from rclpy.serialization import deserialize_message
from rclpy.time import Time
from sensor_msgs.msg import JointState
from std_msgs.msg import String
from std_srvs.srv import SetBool, Trigger
from trajectory_msgs.msg import JointTrajectory

from robot_dynamics.control.cdr import read_joint_state
from robot_dynamics.control.dynamics_health import DynamicsRecord
from robot_dynamics.control.effective_model import (MODEL_FIELDS, ReloadGate, accepted_motion,
                                                    check_settings)
from robot_dynamics.control.goals import GoalError, NeedsState
from robot_dynamics.control.health import ThrottledLog
from robot_dynamics.control.locked_joints import LockedJointTracker
from robot_dynamics.control.outputs import OUTPUTS, dynamics_outputs, library_solver
from robot_dynamics.errors import PlausibilityError
from robot_dynamics.nodes.conversions import (BadInput, merge_message, serialized_name_count,
                                              stamp_to_nanoseconds, stamp_to_seconds,
                                              trajectory_message, trajectory_request)
from robot_dynamics.nodes.dynamics_model import DescriptionUpdates, DynamicsModel
from robot_dynamics.nodes.dynamics_outputs import ContactOutputs, OutputPublishers
from robot_dynamics.nodes.model_parameters import (MODEL_PARAMETERS, SOURCE_PARAMETERS,
                                                   declare_dynamics_parameters)
from robot_dynamics.nodes.node_health import DynamicsDiagnostics
from robot_dynamics.nodes.process import (check_startup, guarded_parameters, guarded_service,
                                          guarded_subscription, run)
from robot_dynamics.nodes.qos import LATCHED, STEADY
from robot_dynamics.nodes.trajectory_input import TrajectoryInput

# 'reliable' joint states: keep the last 500, the default stale_timeout (0.5 s) at 1 kHz, so
# that a node descheduled for less than that loses none (older ones would be stale anyway).
RELIABLE_STATES = QoSProfile(depth=500, reliability=ReliabilityPolicy.RELIABLE)
__all__ = ['DynamicsNode', 'LATCHED', 'main']


def _recorded(name):
    """Return a property reading and writing the node's ``record.<name>``."""
    return property(lambda node: getattr(node.record, name),
                    lambda node, value: setattr(node.record, name, value))


class DynamicsNode(DynamicsModel, Node):
    """Publishes inverse-dynamics outputs for measured joint states and a desired trajectory.

    It holds the library's objects and its own helpers: ``outputs``
    (:class:`OutputPublishers`), ``diagnostics`` (:class:`DynamicsDiagnostics`), the
    trajectory input; the model's loading and updates are :class:`DynamicsModel`'s. Its
    counters and last error are its ``record`` (:class:`DynamicsRecord`).
    """

    received, dropped, suppressed, implausible_velocities, last_error = map(_recorded, (
        'received', 'dropped', 'suppressed', 'implausible_velocities', 'last_error'))

    def __init__(self, node_name='dynamics_node', **kwargs):
        super().__init__(node_name, **kwargs)
        declare_dynamics_parameters(self)
        self.record = DynamicsRecord()
        self.diagnostics = DynamicsDiagnostics(self)
        self._throttled = ThrottledLog(self.get_logger())
        self._reloads = ReloadGate(interval=1.0)   # ~/reload_model: one per second
        self.model = None          # effective model: source + payload + overrides + gravity
        self._source_model = None
        self._urdf_from_topic = None
        self._pending_source = None  # model loaded while validating a model-source change
        self._deferred_source = None  # (overrides, previous values) of one loaded in a worker
        self._reverting = False      # setting back parameters whose model did not load
        self._payload = None
        self.locked = None         # LockedJointTracker when the model has locked branches
        self._trajectory = None
        self._pending_trajectory = None  # one that starts from the state, before any state
        self.state = None          # (q, qd, state_time, input stamp) in model order
        self._merge = None          # JointStateMerge: the latest value and stamp per joint
        self.effective = None       # EffectiveModel: self.model, its bounds and order
        check_settings({name: self.get_parameter(name).value for name in (    # fail fast
            'solver', 'feasibility', 'publish_mode', 'joint_states_qos')})
        self.solver = self.get_parameter('solver').value
        self._library_solver = library_solver(self.solver, self.get_parameter('fast_path').value)
        self.gravity_on = self.get_parameter('gravity_compensation').value
        self._stale_timeout = self.get_parameter('stale_timeout').value

        self.add_on_set_parameters_callback(guarded_parameters(self, self._validate_parameters))
        self.add_post_set_parameters_callback(guarded_subscription(self, self._apply_parameters))
        self._create_interfaces()
        self._load_model()
        # A model that does not load (source, gravity, joints, overrides) is the documented
        # fallback: no outputs, /diagnostics ERROR "no model: <why>", fixable at run time.
        # Everything else that is invalid at startup stops the node.
        check_startup(self, self._validate_parameters,
                      skip=MODEL_FIELDS | set(MODEL_PARAMETERS) | SOURCE_PARAMETERS)

    # ------------------------------------------------------------------ setup
    def _create_interfaces(self):
        state_qos = qos_profile_sensor_data if self.get_parameter('joint_states_qos').value \
            == 'sensor_data' else RELIABLE_STATES
        self.on_message = self.get_parameter('publish_mode').value == 'on_message'

        guard = functools.partial(guarded_subscription, self)
        self.create_subscription(JointState, 'joint_states', guard(self._on_joint_state_bytes),
                                 state_qos, raw=True)
        self.trajectory_input = TrajectoryInput(self, JointTrajectory, '~/desired_trajectory',
                                                guard(self._on_trajectory),
                                                reject=self._drop)
        self.create_subscription(InertiaStamped, '~/payload', guard(self._on_payload), 10)
        self._descriptions = DescriptionUpdates(self, self._parse_description,
                                                guard(self._take_description),
                                                lambda: self._urdf_from_topic)
        self.create_subscription(String, 'robot_description', guard(self._on_description),
                                 LATCHED)
        self._parameter_models = DescriptionUpdates(
            self, lambda change: self._load_pending(change[0]), guard(self._take_parameter_model),
            lambda: None)
        self.outputs = OutputPublishers(self, self.get_parameter('publish_unsubscribed').value)
        self.contacts = ContactOutputs(self)    # ~/external_torques, ~/collision (issue 33)
        self.pub_diagnostics = self.create_publisher(DiagnosticArray, '/diagnostics', 10)
        # The one source of truth for the desired motion: what this node accepted, latched.
        self.pub_accepted = self.create_publisher(JointTrajectory, '~/accepted_trajectory',
                                                  LATCHED)
        self.create_service(SetBool, '~/enable_gravity_compensation',
                            guarded_service(self, self._on_enable_gravity))
        self.create_service(Trigger, '~/reload_model', guarded_service(self, self._on_reload))
        if not self.on_message:
            self.create_timer(1.0 / self.get_parameter('publish_rate').value,
                              guard(self._on_timer))
        # on wall time: it must also report a /clock that stopped (the simulator died)
        self.create_timer(self.get_parameter('diagnostics_period').value,
                          guard(self.diagnostics.publish), clock=STEADY)

    # ------------------------------------------------------------------ parameters
    def _apply_parameters(self, parameters):
        names = {p.name for p in parameters}
        if self.model is None and self._source_model is None and names & MODEL_FIELDS:
            self._load_model()       # a model refused for a bad parameter: retry with the fix
        if names & {'solver', 'fast_path'}:
            self.solver = self.get_parameter('solver').value
            self._library_solver = library_solver(self.solver,
                                                  self.get_parameter('fast_path').value)
            self.get_logger().info(f'solver switched to {self.solver!r}')
        if 'gravity_compensation' in names:
            self.gravity_on = self.get_parameter('gravity_compensation').value
        if self._reverting:
            return
        if names & SOURCE_PARAMETERS and self._deferred_source is not None:
            self._parameter_models.offer(self._deferred_source)
            self._deferred_source = None
        elif names & SOURCE_PARAMETERS:
            self._load_model(self._pending_source)
            self._pending_source = None
        elif 'locked_joints' in names:
            self._load_model()
        if self.locked is not None and names & {'locked_joints_rate', 'locked_joints_threshold'}:
            self.locked = LockedJointTracker(
                self.locked.model, self.get_parameter('locked_joints_threshold').value,
                self.get_parameter('locked_joints_rate').value)
        if 'stale_timeout' in names:
            self._stale_timeout = self.get_parameter('stale_timeout').value
        if self._source_model is not None and names & MODEL_FIELDS:
            self._set_model(self._source_model, self._payload)

    # ------------------------------------------------------------------ services
    def _on_enable_gravity(self, request, response):
        self.set_parameters([Parameter('gravity_compensation', value=bool(request.data))])
        response.success = True
        response.message = f"gravity compensation {'enabled' if request.data else 'disabled'}"
        return response

    # ------------------------------------------------------------------ inputs
    def _on_joint_state_bytes(self, data):
        """Refuse an oversized message from its bytes; else read it (control.cdr) and use it."""
        names = serialized_name_count(data)
        limit = self.effective.message_limit if self.effective else 0
        if names is not None and self.model is not None and names > limit:
            self.record.arrival()
            return self._drop(f'joint_states dropped: name has {names} entries, more than '
                              f"{limit} (a few times the model's joints); "
                              "publish this robot's joints only (refused before deserialising)")
        self._on_joint_state(read_joint_state(data, StampMessage)    # rclpy's, in 1/10 the time
                             or deserialize_message(data, JointState))

    def _on_joint_state(self, msg):
        self.record.arrival(time.monotonic())
        if self.model is None:
            return self._drop('joint state before the model was loaded')
        now = self.get_clock().now()
        seconds = now.nanoseconds * 1e-9
        try:
            updated = merge_message(self._merge, msg, seconds, self._stale_timeout,
                                    self.effective.message_limit,
                                    check=self.effective.state_bounds.check)
        except (BadInput, PlausibilityError) as exc:
            return self._drop(f'joint_states dropped: {exc}')
        self._follow_locked_joints(msg)      # a gripper's own message moves its branch
        if not updated:                      # another part of the robot, or refused
            unused = self._merge.unused(msg.name, self._source_model.locked_joints)
            return self._drop(f'joint_states dropped: {unused}') if unused else None
        try:
            q, qd, oldest = self._merge.fresh_state(seconds, self._stale_timeout)
        except BadInput as exc:
            return self._drop(f'joint_states: {exc}; nothing published')
        implausible = self.record.check_velocity(self.effective.state_bounds, q, qd)
        if implausible:
            self._throttled.warning(implausible)
        input_stamp = msg.header.stamp if stamp_to_seconds(msg.header.stamp) > 0 \
            else now.to_msg()
        self.state = (q, qd, oldest, input_stamp)
        if self._pending_trajectory is not None:
            self._on_trajectory(self._pending_trajectory, deferred=True)
        if self.on_message:
            self._compute_and_publish(now)
        self.contacts.on_state(msg, q, qd, oldest)      # after the outputs a controller waits for

    def _follow_locked_joints(self, msg):
        """Re-merge locked branches at measured positions (rate-limited, no code generated)."""
        if self.locked is None:
            return
        try:
            source = self.locked.update(msg.name, msg.position, time.monotonic())
            if source is not None:
                self._set_model(source, self._payload)    # raises, changing nothing, if bad
                self.locked.accept(source)
        except Exception as exc:  # noqa: BLE001 - keep the last good model and positions
            self.locked.problem = f'locked joints not re-merged: {exc}'
            self._drop(self.locked.problem)

    def _on_trajectory(self, msg, deferred=False):
        """Check and take a desired trajectory as the controllers read it (control.goals).

        What is checked is the motion that will be commanded: from the current state, now. One
        that arrived before any joint state is kept (``deferred``) and taken with the first
        state; its age was judged on arrival; if it has ended by then, it holds its last point
        when the arm is there, and is refused otherwise (a step).
        """
        self._pending_trajectory = None
        if self.model is None:
            return self._drop('trajectory before the model was loaded')
        current = None if self.state is None or \
            self.now_seconds() - self.state[2] > self._stale_timeout else self.state[:2]
        try:
            at = self.get_clock().now().nanoseconds if current is None else \
                stamp_to_nanoseconds(self.state[3])     # from the state, at its time
            trajectory, self.record.feasibility_note = accepted_motion(
                self.model, trajectory_request(msg), current, at,
                self.get_parameter('feasibility').value, deferred)
        except NeedsState:
            self._pending_trajectory = msg        # taken with the first joint state
            return None
        except (BadInput, PlausibilityError, GoalError) as exc:
            return self._drop(f'desired_trajectory rejected: {exc}')
        if self.record.feasibility_note:
            self.get_logger().warning(self.record.feasibility_note)
        self._trajectory = trajectory
        if trajectory.start_ns is None:
            self.get_logger().info('desired_trajectory accepted; it starts when the clock does '
                                   '(zero stamp, clock at 0: no /clock yet)')
        else:
            self._publish_accepted(trajectory)

    def _publish_accepted(self, trajectory):
        """Latch ``trajectory`` on ``~/accepted_trajectory``: model order, absolute start.

        The stamp is the start this node resolved (its receipt time for a zero stamp; the first
        clock time if the clock had not begun), so that a controller wired to this topic
        samples the same timeline as the feed-forward.
        """
        self.pub_accepted.publish(trajectory_message(
            self.model.joint_names, trajectory.times, trajectory.positions,
            trajectory.velocities, trajectory.accelerations,
            Time(nanoseconds=trajectory.start_ns).to_msg()))

    # ------------------------------------------------------------------ outputs
    def compute(self, q, qd, now_ns):
        """Feed-forward (n,), gravity (n,) and mass matrix (n, n) in model order at ``now_ns``."""
        outputs = self._outputs(q, now_ns, OUTPUTS)
        return tuple(outputs[name] for name in OUTPUTS)

    def _outputs(self, q, now_ns, wanted):
        if self._trajectory is not None and self._trajectory.start_ns is None and now_ns > 0:
            self._trajectory = self._trajectory.started(now_ns)    # the clock has begun
            self._publish_accepted(self._trajectory)
        model = self.model if self.gravity_on else self.effective.no_gravity
        return dynamics_outputs(model, q, wanted, self._trajectory, now_ns, self._library_solver)

    def _compute_and_publish(self, now=None):
        """Compute and publish the listened outputs; each one that is finite and bounded."""
        q, qd, state_time, input_stamp = self.state
        now = self.get_clock().now() if now is None else now
        if now.nanoseconds * 1e-9 - state_time > self._stale_timeout:
            return  # stale: publish nothing (diagnostics report it)
        wanted = self.outputs.wanted()
        self.record.listened = bool(wanted)
        start = time.perf_counter()
        try:
            outputs = self._outputs(q, now.nanoseconds, wanted)
        except Exception as exc:  # noqa: BLE001 - a failing solver must not kill the node
            return self._error(f'computation failed: {exc}')
        self.record.statistics.durations.append(time.perf_counter() - start)
        complete = True     # a bad desired trajectory must not silence gravity and M
        for name in wanted:
            try:
                self.outputs.publish(name, outputs[name], now.to_msg()
                                     if name == 'feedforward_torques' else input_stamp)
            except PlausibilityError as exc:
                self.suppressed, complete = self.suppressed + 1, False
                self._error(f'{exc}; not published')
        self.record.published(complete)

    # ------------------------------------------------------------------ health
    def health(self):
        """Level and message for /diagnostics (:meth:`DynamicsDiagnostics.status`)."""
        return self.diagnostics.status()

    def now_seconds(self):
        """Return the node's clock in seconds."""
        return self.get_clock().now().nanoseconds * 1e-9

    def _drop(self, reason):
        self._throttled.warning(self.record.drop(reason))

    def _error(self, reason):
        self._throttled.error(self.record.error(reason))

    def callback_failed(self, name, exc):
        """Log and count an exception caught around a callback (the node keeps running)."""
        self._error(f'{name} failed: {type(exc).__name__}: {exc}')

    def _on_timer(self):
        if self.state is not None:
            self._compute_and_publish()


def main(args=None):
    """Console-script entry point ``dynamics_node``."""
    run(DynamicsNode, args)


if __name__ == '__main__':
    main()
