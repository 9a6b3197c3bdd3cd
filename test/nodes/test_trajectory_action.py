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
"""FollowJointTrajectory from a client in this process, the graph under the real ``launch``.

``simulation.launch.py`` runs in a subprocess (simulator, dynamics node, trajectory
controller, trajectory publisher); this process is the client, as MoveIt would be. The
standard trajectory of the publisher is shortened in the config so that the goals do not
compete with it. Oracles: the goal positions, the library's scale factor (itself checked
against a bisection with Pinocchio in test/analysis/test_feasibility.py) and the URDF limits.
"""

import itertools
import pathlib

import numpy as np
import pytest
from action_msgs.msg import GoalStatus
from builtin_interfaces.msg import Duration
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
from rclpy.action import ActionClient
from sensor_msgs.msg import JointState
from std_srvs.srv import Trigger
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint
import yaml

from conftest import RosGraph
from nodes.test_launch_files import HOW_TO_GET, Launch, ROS2, wait_for_node
import robot_dynamics as rd
from robot_dynamics.nodes.qos import LATCHED
from robot_dynamics.analysis import feasibility
from robot_dynamics.simulation.trajectory import home_posture

control_msgs = pytest.importorskip('control_msgs.action', reason='control_msgs not installed: '
                                   'pip install ../shared/wheels/ros_control_msgs-*.whl')
FJT = control_msgs.FollowJointTrajectory
pytestmark = pytest.mark.skipif(ROS2 is None, reason=HOW_TO_GET)
ROOT = pathlib.Path(__file__).resolve().parents[2]
ACTION = '/joint_trajectory_controller/follow_joint_trajectory'


#: Controller configurations besides a feasibility policy: upstream's switches, goal_time 0.
VARIANTS = {'upstream_switches': {'feasibility': 'reject', 'allow_partial_joints_goal': True,
                                  'allow_nonzero_velocity_at_trajectory_end': True,
                                  'goal_time_tolerance': 0.0},   # margin: the feedback's
            'time_optimal': {'feasibility': 'time_optimal', 'feasibility_margin': 0.15}}


def config(tmp_path, robot, policy):
    """Write the demo config for ``robot`` with ``feasibility: policy``, a short motion."""
    data = yaml.safe_load((ROOT / 'config' / 'simulation.yaml').read_text())
    for section in data.values():
        parameters = section['ros__parameters']
        if 'model' in parameters:
            parameters['model'] = robot
    data['/**/joint_trajectory_controller']['ros__parameters'].update(
        VARIANTS.get(policy, {'feasibility': policy}))
    # start_delay 2 s (config: 0.2 s): a motion that reaches the dynamics node after its end
    # is refused as old and never relayed, and Client.wait_ready waits for it (seen at load 4.6:
    # published at 0.05 s, received at 0.955 s simulated).
    data['/**/trajectory_publisher']['ros__parameters'].update(moves=1, move_time=0.3,
                                                               amplitude=0.05, start_delay=2.0)
    path = tmp_path / f'{robot}_{policy}.yaml'
    path.write_text(yaml.safe_dump(data))
    return str(path)


class Client:
    """A FollowJointTrajectory client, joint states and diagnostics seen from this process."""

    def __init__(self, ros, launched, namespace):
        self.ros, self.launched, self.namespace = ros, launched, namespace
        self.node = ros.node(f'fjt_client_{namespace}', namespace='/')
        self.action = ActionClient(self.node, FJT, f'/{namespace}{ACTION}')
        self.states, self.diagnostics, self.controller_states = [], [], []
        self.node.create_subscription(JointState, f'/{namespace}/joint_states',
                                      self.states.append, 100)
        self.node.create_subscription(
            control_msgs_msg().JointTrajectoryControllerState,
            f'/{namespace}/joint_trajectory_controller/controller_state',
            self.controller_states.append, 100)
        self.node.create_subscription(DiagnosticArray, '/diagnostics',
                                      self.diagnostics.append, 100)
        self.reset = self.node.create_client(Trigger, f'/{namespace}/simulation_node/reset')
        self.standard = []             # the publisher's motion, as the dynamics node relays it
        self.node.create_subscription(JointTrajectory,
                                      f'/{namespace}/dynamics_node/accepted_trajectory',
                                      self.standard.append, LATCHED)
        self.published = []            # ... as the publisher sent it
        self.node.create_subscription(JointTrajectory, f'/{namespace}/desired_trajectory',
                                      self.published.append, LATCHED)

    def wait_ready(self, names):
        """Wait for the action server and for the standard motion to be over.

        The motion reaches the controller on the dynamics node's latched
        ``accepted_trajectory``; a goal sent before it arrives would be preempted by it
        (a loaded machine can start the publisher seconds late), so wait for it to have been
        relayed and to have ended (it is relayed even when the first joint state comes after
        its end: the dynamics node judges its age on arrival). At least 2 s of simulated time
        pass, so that a stamp 1 s in the past is not zero (zero means "start now").
        """
        assert self.action.wait_for_server(timeout_sec=120), self.launched.output()[-4000:]
        # The publisher's motion, relayed by the dynamics node unless it took it too late (a
        # loaded machine: refused as old, nothing relayed, nothing to preempt a goal): wait
        # for its end, and for the end of what was relayed.
        assert self.ros.spin_until(lambda: self.states and self.published, 120), \
            self.launched.output()[-4000:]
        ends = [stamp_seconds(m.header.stamp) + stamp_seconds(m.points[-1].time_from_start)
                for m in self.published[-1:] + self.standard[-1:]]
        end = max(ends)
        assert self.ros.spin_until(lambda: self.sim_time() > max(end + 0.5, 2.0), 120), \
            self.launched.output()[-4000:]

    def sim_time(self):
        """Stamp of the last joint state, s."""
        return stamp_seconds(self.states[-1].header.stamp)

    def position(self, names):
        """Last measured positions of ``names``."""
        by_name = dict(zip(self.states[-1].name, self.states[-1].position))
        return np.array([by_name[name] for name in names])

    def send(self, goal, feedback=None):
        """Send a goal; return its handle (accepted) after the server answered."""
        future = self.action.send_goal_async(goal, feedback_callback=feedback)
        assert self.ros.spin_until(future.done, 60), 'no answer to the goal'
        return future.result()

    def result(self, handle, timeout=120):
        """Wait for the result of an accepted goal: ``(status, result)``."""
        future = handle.get_result_async()
        assert self.ros.spin_until(future.done, timeout), self.launched.output()[-3000:]
        self.catch_up()
        return future.result().status, future.result().result

    def catch_up(self, seconds=1.0):
        """Take the joint states queued while this process waited (the result comes first)."""
        self.ros.spin_for(seconds)

    def run(self, goal, timeout=120):
        """Send ``goal`` and wait for its result; feedback messages are kept."""
        feedback = []
        handle = self.send(goal, feedback.append)
        assert handle.accepted
        status, result = self.result(handle, timeout)
        return status, result, feedback


def stamp_seconds(stamp):
    """Return a Time or Duration message in seconds."""
    return stamp.sec + 1e-9 * stamp.nanosec


def trajectory(names, points, velocities=True):
    """Return a JointTrajectory: ``points`` is a list of (time, positions)."""
    msg = JointTrajectory(joint_names=list(names))
    for t, q in points:
        point = JointTrajectoryPoint(positions=[float(v) for v in q])
        if velocities:
            point.velocities = [0.0] * len(q)
            point.accelerations = [0.0] * len(q)
        seconds, nanoseconds = divmod(int(round(t * 1e9)), 10 ** 9)
        point.time_from_start = Duration(sec=seconds, nanosec=nanoseconds)
        msg.points.append(point)
    return msg


def goal_to(model, offset, duration, **tolerances):
    """Return a goal moving every joint by ``offset`` from home in ``duration`` s."""
    home = home_posture(model)
    goal = FJT.Goal(trajectory=trajectory(model.joint_names,
                                          [(duration, home + offset)]))
    for key, value in tolerances.items():
        setattr(goal, key, value)
    return goal


def gone(ros, probe, namespace, timeout=30.0):
    """Give the stopped graph's nodes time to leave (each graph has a namespace of its own)."""
    ros.spin_until(lambda: f'/{namespace}' not in {
        space for _, space in probe.get_node_names_and_namespaces()}, timeout)


@pytest.fixture(scope='module', name='graph')
def graph_fixture(rclpy_session, tmp_path_factory):
    """Start a launch per (robot, policy) on demand; stop them all at the end.

    Each launch runs in a namespace of its own (its ``/clock`` remapped with it), so a graph
    that is slow to leave the DDS graph cannot answer for the next one.
    """
    started = {}
    ros = RosGraph(rclpy_session)
    tmp = tmp_path_factory.mktemp('fjt')
    count = itertools.count()

    def get(robot, policy):
        if (robot, policy) not in started:
            stopped = list(started.values())
            started.clear()
            for other in stopped:                 # one graph at a time: less load
                other[1].stop()
                gone(ros, other[0].node, other[0].namespace)
            namespace = f'fjt{next(count)}'
            launched = Launch(tmp / f'{robot}_{policy}.log', 'simulation.launch.py',
                              f'robot:={robot}', f'config:={config(tmp, robot, policy)}',
                              f'namespace:={namespace}')
            client = Client(ros, launched, namespace)
            started[(robot, policy)] = (client, launched)     # stopped at the end, even if
            wait_for_node(ros, client.node, f'/{namespace}/joint_trajectory_controller',
                          launched)                           # it never gets ready
            client.wait_ready(rd.load_model(robot).joint_names)
        return started[(robot, policy)][0]
    yield get
    for _, launched in started.values():
        output = launched.stop()
        assert 'Traceback' not in output, output[-4000:]
    ros.close()


@pytest.mark.parametrize('robot', ['ur5', 'panda'])
def test_goal_succeeds_within_goal_tolerance(graph, robot):
    client = graph(robot, 'reject')
    model = rd.load_model(robot)
    goal = goal_to(model, 0.2, 1.5)
    status, result, feedback = client.run(goal)
    assert status == GoalStatus.STATUS_SUCCEEDED, result.error_string
    assert result.error_code == FJT.Result.SUCCESSFUL
    target = np.array(goal.trajectory.points[-1].positions)
    assert np.abs(client.position(model.joint_names) - target).max() <= 0.01
    assert len(feedback) >= 10, 'feedback at 20 Hz over 1.5 s'
    assert list(feedback[-1].feedback.joint_names) == list(model.joint_names)
    state = client.controller_states[-1]
    assert list(state.joint_names) == list(model.joint_names)
    np.testing.assert_array_equal(np.array(state.error.positions), np.array(
        state.reference.positions) - np.array(state.feedback.positions))
    assert len(state.output.effort) == model.dof and state.speed_scaling_factor == 1.0


def test_stamp_older_than_the_trajectory_is_old_header_timestamp(graph):
    client = graph('ur5', 'reject')
    model = rd.load_model('ur5')
    goal = goal_to(model, 0.1, 0.5)
    now = client.sim_time()
    assert now > 1.5, 'a stamp 1 s ago must not be zero (zero: start now)'
    seconds, nanoseconds = divmod(int((now - 1.0) * 1e9), 10 ** 9)
    goal.trajectory.header.stamp.sec = seconds                # ended 0.5 s ago
    goal.trajectory.header.stamp.nanosec = nanoseconds
    status, result, _ = client.run(goal)
    assert status == GoalStatus.STATUS_ABORTED
    assert result.error_code == FJT.Result.OLD_HEADER_TIMESTAMP, result.error_string


def test_unknown_and_repeated_joints_are_invalid_joints(graph):
    client = graph('ur5', 'reject')
    model = rd.load_model('ur5')
    for names in (['no_such_joint'], [model.joint_names[0]] * 2):
        goal = FJT.Goal(trajectory=trajectory(names, [(1.0, [0.0] * len(names))]))
        status, result, _ = client.run(goal)
        assert status == GoalStatus.STATUS_ABORTED
        assert result.error_code == FJT.Result.INVALID_JOINTS, result.error_string
        assert names[0] in result.error_string


def test_non_monotonic_times_and_limits_are_invalid_goal(graph):
    client = graph('ur5', 'reject')
    model = rd.load_model('ur5')
    home = home_posture(model)
    cases = {'increase strictly': [(1.0, home), (0.5, home + 0.1)],
             'outside its limits': [(1.0, home + 7.0)]}
    for words, points in cases.items():
        status, result, _ = client.run(FJT.Goal(trajectory=trajectory(model.joint_names,
                                                                      points)))
        assert status == GoalStatus.STATUS_ABORTED
        assert result.error_code == FJT.Result.INVALID_GOAL and words in result.error_string


def test_partial_goal_is_refused_unless_allowed_and_holds_the_other_joints(graph):
    """Upstream: allow_partial_joints_goal, default false (issue 31.2)."""
    client = graph('ur5', 'reject')
    model = rd.load_model('ur5')
    before = client.position(model.joint_names)
    goal = FJT.Goal(trajectory=trajectory(model.joint_names[:1], [(1.0, [before[0] + 0.1])]))
    status, result, _ = client.run(goal)
    assert status == GoalStatus.STATUS_ABORTED
    assert result.error_code == FJT.Result.INVALID_JOINTS
    assert 'allow_partial_joints_goal' in result.error_string
    client = graph('ur5', 'upstream_switches')
    before = client.position(model.joint_names)
    target = before[0] + 0.1
    goal = FJT.Goal(trajectory=trajectory(model.joint_names[:1], [(1.0, [target])]))
    status, result, _ = client.run(goal)
    assert status == GoalStatus.STATUS_SUCCEEDED, result.error_string
    assert result.error_string == 'Goal successfully reached!'
    after = client.position(model.joint_names)
    assert abs(after[0] - target) <= 0.01
    assert np.abs(after[1:] - before[1:]).max() <= 0.01


def test_cancel_stops_and_holds(graph):
    client = graph('ur5', 'reject')
    model = rd.load_model('ur5')
    start = client.position(model.joint_names)
    handle = client.send(goal_to(model, 0.4, 4.0))
    assert handle.accepted
    # Cancel once the arm is seen moving (this process's last joint state can lag the goal's
    # start by seconds on a loaded machine: waiting 1 s from it may cancel before the motion).
    assert client.ros.spin_until(
        lambda: np.abs(client.position(model.joint_names) - start).max() > 0.03, 60), \
        'the goal did not move the arm'
    cancel = handle.cancel_goal_async()
    assert client.ros.spin_until(cancel.done, 30)
    status, _ = client.result(handle)
    assert status == GoalStatus.STATUS_CANCELED
    stopped = client.position(model.joint_names)
    assert np.abs(stopped - start).max() > 0.02, 'it moved before the cancel'
    now = client.sim_time()
    client.ros.spin_until(lambda: client.sim_time() > now + 1.5, 60)
    assert np.abs(client.position(model.joint_names) - stopped).max() < 0.02, 'not held'


def test_new_goal_preempts_the_running_one(graph):
    client = graph('ur5', 'reject')
    model = rd.load_model('ur5')
    first = client.send(goal_to(model, -0.3, 4.0))
    begin = client.sim_time()
    client.ros.spin_until(lambda: client.sim_time() > begin + 0.5, 60)
    second = goal_to(model, 0.1, 1.5)
    status2, result2, _ = client.run(second)
    status1, result1 = client.result(first)
    assert status1 == GoalStatus.STATUS_CANCELED
    assert result1.error_code == FJT.Result.INVALID_GOAL
    assert 'new incoming action' in result1.error_string
    assert status2 == GoalStatus.STATUS_SUCCEEDED, result2.error_string


def test_disturbance_violates_the_path_tolerance(graph):
    client = graph('ur5', 'reject')
    model = rd.load_model('ur5')
    tolerance = [control_msgs_tolerance(name, 0.05) for name in model.joint_names]
    handle = client.send(goal_to(model, 0.5, 4.0, path_tolerance=tolerance))
    begin = client.sim_time()
    client.ros.spin_until(lambda: client.sim_time() > begin + 1.5, 60)
    # The disturbance: the simulator's state is reset to home mid-motion.
    assert client.ros.call(client.reset, Trigger.Request(), timeout=30).success
    status, result = client.result(handle)
    assert status == GoalStatus.STATUS_ABORTED
    assert result.error_code == FJT.Result.PATH_TOLERANCE_VIOLATED, result.error_string


def control_msgs_msg():
    """Return the control_msgs.msg module."""
    import control_msgs.msg
    return control_msgs.msg


def control_msgs_tolerance(name, position):
    """Return a JointTolerance on ``position``."""
    from control_msgs.msg import JointTolerance
    return JointTolerance(name=name, position=float(position))


def fast_goal(model, client):
    """Return a UR5 goal whose shoulder needs 223 of its 150 N m: all joints +0.7 rad in 0.3 s.

    Its peak speed, 4.4 rad/s, is above the 3.14 rad/s limit but within the plausible 1.5x.
    """
    start = client.position(model.joint_names)
    return FJT.Goal(trajectory=trajectory(model.joint_names, [(0.3, start + 0.7)])), start


def test_infeasible_goal_is_rejected_with_the_facts(graph):
    client = graph('ur5', 'reject')
    model = rd.load_model('ur5')
    status, result, _ = client.run(fast_goal(model, client)[0])
    assert status == GoalStatus.STATUS_ABORTED and result.error_code == FJT.Result.INVALID_GOAL
    for words in ('would need', 'N m at t =', 'the effort limit is', 'slowed by', 'it fits'):
        assert words in result.error_string, result.error_string


def test_infeasible_goal_under_warn_executes_and_warns(graph):
    client = graph('ur5', 'warn')
    model = rd.load_model('ur5')
    status, result, _ = client.run(fast_goal(model, client)[0])
    assert result.error_code in (FJT.Result.SUCCESSFUL, FJT.Result.GOAL_TOLERANCE_VIOLATED)
    name = f'/{client.namespace}/joint_trajectory_controller: '     # this graph's controller

    def warned():
        return [s.message for array in client.diagnostics for s in array.status
                if s.name.startswith(name) and s.level == DiagnosticStatus.WARN
                and ('would need' in s.message or 'saturated' in s.message)]
    assert client.ros.spin_until(warned, 30), [
        (s.name, s.level, s.message) for array in client.diagnostics[-20:] for s in array.status]


def test_infeasible_goal_under_scale_runs_slower_within_limits(graph):
    client = graph('ur5', 'scale')
    model = rd.load_model('ur5')
    goal, start = fast_goal(model, client)
    times = [0.0, 0.3]
    positions = [start, np.array(goal.trajectory.points[0].positions)]
    zeros = np.zeros((2, model.dof))
    k = feasibility.check_trajectory(model, times, np.array(positions), zeros, zeros).scale
    goal.path_tolerance = [control_msgs_tolerance(name, 0.05) for name in model.joint_names]
    states_before = len(client.states)
    status, result, _ = client.run(goal)
    assert status == GoalStatus.STATUS_SUCCEEDED, (result.error_string,
                                                   client.launched.output()[-5000:])
    assert 1.2 < k < 10.0 and f'slowed by {k:.3g}x' in result.error_string
    # The simulator clips at the limits: the applied efforts must stay clear of them. The
    # scaled feed-forward peaks at 95 % of a limit (the margin); the feedback on top grows with
    # the controller's delay, so on a loaded machine a sample may touch a limit (seen once at
    # load 7): at most 2 % of the samples may (the unscaled goal needs up to 149 % of the
    # shoulder's limit).
    efforts = np.array([s.effort for s in client.states[states_before:]])
    touching = np.any(np.abs(efforts) >= 0.99 * model.effort_limit, axis=1)
    assert touching.mean() <= 0.02, (touching.sum(), len(touching))
    target = np.array(goal.trajectory.points[-1].positions)
    assert np.abs(client.position(model.joint_names) - target).max() <= 0.01


def test_send_goal_command_of_the_docs_works_as_written(graph):
    """docs/controllers.md's ``ros2 action send_goal --feedback`` example, run as written."""
    import re
    import shlex
    import subprocess
    client = graph('ur5', 'reject')
    docs = (ROOT / 'docs' / 'controllers.md').read_text()
    command = re.search(r'```bash\n(ros2 action send_goal .*?)\n```', docs, re.S).group(1)
    command = command.replace('/joint_trajectory_controller/', f'/{client.namespace}'
                              '/joint_trajectory_controller/')     # this test's namespace
    argv = shlex.split(command.replace('\\\n', ' '))
    done = subprocess.run([ROS2] + argv[1:], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    assert 'Feedback:' in done.stdout and 'error_code: 0' in done.stdout
    assert 'Goal finished with status: SUCCEEDED' in done.stdout, done.stdout[-3000:]
    client.catch_up()
    model = rd.load_model('ur5')
    q = client.position(model.joint_names)
    assert abs(q[0] - 0.5) <= 0.01 and abs(q[1] + 0.3) <= 0.01
