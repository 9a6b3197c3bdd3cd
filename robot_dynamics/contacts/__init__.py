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
"""Contact awareness (issue 33): external joint torques and wrenches, collision detection.

- :mod:`~robot_dynamics.contacts.observer`: the generalized-momentum observer,
  :func:`momentum_observer` (a recording) and :class:`MomentumObserver` (one sample at a time);
- :mod:`~robot_dynamics.contacts.wrench`: a wrench at a named link to joint torques
  (:func:`link_wrench_torques`, for a simulator) and back (:func:`external_wrench`);
- :mod:`~robot_dynamics.contacts.thresholds`: :func:`collision_thresholds` learnt from a
  recording without contact, :class:`CollisionThresholds` (a YAML file);
- :mod:`~robot_dynamics.contacts.detection`: :func:`detect_collisions`,
  :class:`CollisionDetector`;
- :mod:`~robot_dynamics.contacts.monitor`: :class:`ContactMonitor`, all of it over a stream of
  joint states, saying why a sample is not judged;
- :mod:`~robot_dynamics.contacts.recording`: a recorded run to the observer's samples;
- :mod:`~robot_dynamics.contacts.verdicts`: :class:`ContactVerdicts`, a node's monitor per
  model, its verdicts and their health; :mod:`~robot_dynamics.contacts.push`:
  :class:`WrenchPush`, a push on a simulated arm while it is fresh.

Arrays in, arrays out, no ROS types: the nodes convert messages and call these. See
docs/contacts.md.
"""

from robot_dynamics.contacts.detection import (
    CollisionDetection, CollisionDetector, ContactEvent, detect_collisions,
)
from robot_dynamics.contacts.monitor import ContactMonitor, ContactReading, fixed_thresholds
from robot_dynamics.contacts.observer import (
    DEFAULT_GAIN, MomentumObserver, ObserverRun, momentum_observer, observe,
)
from robot_dynamics.contacts.recording import observer_samples, recording_thresholds
from robot_dynamics.contacts.thresholds import CollisionThresholds, collision_thresholds
from robot_dynamics.contacts.wrench import (
    WrenchEstimate, external_wrench, link_jacobian, link_wrench_torques,
)

__all__ = ['CollisionDetection', 'CollisionDetector', 'CollisionThresholds', 'ContactEvent',
           'ContactMonitor', 'ContactReading', 'fixed_thresholds',
           'DEFAULT_GAIN', 'MomentumObserver', 'ObserverRun', 'WrenchEstimate',
           'collision_thresholds', 'detect_collisions', 'external_wrench', 'link_jacobian',
           'link_wrench_torques', 'momentum_observer', 'observe', 'observer_samples',
           'recording_thresholds']
