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
"""How the package's ROS graphs are configured, without ROS: checks, files, remappings.

The launch files' argument checks (``launch_arguments``), the arms file of
``robot_dynamics_arms`` (``arms_file``) and the one-process demo's graph (``demo_graph``:
its nodes, their parameters from ``config/*.yaml``, their remappings). The nodes layer builds
and spins the nodes these describe (nodes/bringup.py, nodes/arms.py); the launch files call
the checks before they start anything.
"""
