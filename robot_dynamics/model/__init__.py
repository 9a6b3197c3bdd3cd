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
"""The robot model: :class:`RobotModel`, its frame conventions and the bundled robots.

The model is plain data (stacked per-joint arrays, validated, immutable). Its named
constructors read files through :mod:`robot_dynamics.io`; algorithms live in
:mod:`robot_dynamics.algorithms`.
"""

from robot_dynamics.errors import ModelWarning
from robot_dynamics.model.robot_model import RobotModel
from robot_dynamics.spatial.inertia import combine_bodies, inertia_matrix
from robot_dynamics.spatial.joints import JOINT_TYPES, PRISMATIC, REVOLUTE

__all__ = ['JOINT_TYPES', 'ModelWarning', 'PRISMATIC', 'REVOLUTE', 'RobotModel',
           'combine_bodies', 'inertia_matrix']
