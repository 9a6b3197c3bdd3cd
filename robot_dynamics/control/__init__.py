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
"""The control layer: what a controller does between a joint state and a command, without ROS.

Trajectory requests and the motion they command from the current state (``goals``), the
feasibility policies (``policies``), goal tolerances (``tolerances``), the desired motion and
the computed-torque law (``tracking``), joint states merged by name with jumps refused
(``joint_states``, ``jumps``), command bounds (``command_bounds``), locked side branches
(``locked_joints``) and latency statistics (``statistics``). The ROS 2 nodes convert
messages to the arrays these take; a plain Python loop can use them as they are
(docs/architecture.md, "The control layer").
"""

from robot_dynamics.control.goals import (CommandedMotion, GoalError, GoalRules,  # noqa: F401
                                          TrajectoryRequest, commanded_motion)
from robot_dynamics.control.policies import POLICIES, apply_policy  # noqa: F401
from robot_dynamics.control.tolerances import Tolerances, judge, merge_tolerances  # noqa: F401
from robot_dynamics.control.tracking import MotionFollower, feedback_torque  # noqa: F401
from robot_dynamics.control.goal_lifecycle import ActiveGoal, GoalLifecycle  # noqa: F401
from robot_dynamics.control.model_tracking import ModelTracker  # noqa: F401
from robot_dynamics.control.computed_torque import ModelTermsLoop  # noqa: F401
from robot_dynamics.control.published_motion import PublishedMotion  # noqa: F401
