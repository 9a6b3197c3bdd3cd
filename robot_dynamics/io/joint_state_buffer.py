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
"""Joint states collected in memory until they are written as a recording.

:class:`JointStateBuffer` is what the ``joint_state_recorder`` node keeps: every sample with a
position and an effort per joint (velocities when given), from ``start_after`` on, until
``duration`` seconds of message time were taken; :meth:`JointStateBuffer.recording` is the
:class:`~robot_dynamics.io.recordings.Recording` of the arm's joints (the messages naming the
most joints: a gripper's messages on the same topic are left out) that
:func:`~robot_dynamics.io.recordings.write_bag` writes. Plain sequences: no ROS here.
"""

import numpy as np

from robot_dynamics.io.recordings import Recording

SKIPPED = 'joint_states without a position and an effort per joint skipped'


class JointStateBuffer:
    """Samples ``(t, names, position, velocity, effort)``, in arrival order."""

    def __init__(self, source='joint_state_recorder'):
        self.rows = []
        self.source = source

    def add(self, t, names, position, velocity, effort, start_after=0.0):
        """Keep one sample at message time ``t``, s; return why it was skipped, or ''."""
        if t < start_after:
            return f'before start_after ({start_after} s)'
        if len(position) != len(names) or len(effort) != len(names):
            return SKIPPED
        self.rows.append((t, tuple(names), tuple(position), tuple(velocity), tuple(effort)))
        return ''

    def complete(self, duration):
        """Tell whether ``duration`` s of message time were taken (0: never complete)."""
        return bool(duration) and bool(self.rows) and \
            self.rows[-1][0] - self.rows[0][0] >= duration

    def recording(self):
        """Return the samples of the arm's joints as a ``Recording``.

        The arm's joints are those of the messages that name the most joints (the earliest of
        those): a gripper's messages on the same topic, even the first one, are left out, and
        messages that name the arm's joints in another order are reordered.
        """
        if not self.rows:
            raise ValueError(f'{self.source}: no joint_states received')
        names = max((row[1] for row in self.rows), key=len)
        chosen = set(names)
        rows = [_ordered(row, names) for row in self.rows
                if len(row[1]) == len(names) and set(row[1]) == chosen]
        velocity = np.array([row[3] for row in rows]) if all(
            len(row[3]) == len(names) for row in rows) else None
        return Recording(names, np.array([row[0] for row in rows]),
                         np.array([row[2] for row in rows]), np.array([row[4] for row in rows]),
                         velocity, self.source)


def _ordered(row, names):
    """Return ``row`` ``(t, names, position, velocity, effort)`` with its values in ``names``."""
    t, given, *values = row
    if given == names:
        return row
    where = [given.index(name) for name in names]
    return (t, names) + tuple(tuple(value[k] for k in where) if value else value
                              for value in values)
