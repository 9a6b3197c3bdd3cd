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
"""Contact awareness (issue 33): external joint torques, wrenches, collision detection."""

from robot_dynamics.contacts.observer import (
    DEFAULT_GAIN, MomentumObserver, momentum_observer, observe,
)

__all__ = ['DEFAULT_GAIN', 'MomentumObserver', 'momentum_observer', 'observe']
