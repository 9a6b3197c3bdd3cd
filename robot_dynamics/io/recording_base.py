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
"""The raw samples of a recording and the error a recording that cannot be read raises.

:mod:`robot_dynamics.io.recordings` reads them from bags, :mod:`robot_dynamics.io.recording_csv`
from CSV files.
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.errors import bounded


class RecordingError(ValueError):
    """A recording cannot be read: the message names the file, the field and the fix.

    The message is cut to :data:`~robot_dynamics.errors.MAX_MESSAGE` characters
    (:func:`~robot_dynamics.errors.bounded`): it may quote a file's header.
    """

    def __init__(self, message, *args):
        super().__init__(bounded(message), *args)


@dataclass(frozen=True)
class Recording:
    """Raw joint-state samples: ``t`` (N,) s; ``position``, ``effort``, ``velocity`` (N, m).

    Columns follow ``joint_names``; ``velocity`` is None when not recorded. Units are SI
    (rad or m, rad/s or m/s, N m or N); missing values are NaN. ``notes``: what reading chose
    that the file did not say (of a bag's several topics, which one and why), one sentence
    each; identification's data report and the contacts report repeat them.
    """

    joint_names: tuple
    t: np.ndarray
    position: np.ndarray
    effort: np.ndarray
    velocity: np.ndarray = None
    source: str = ''
    notes: tuple = ()

    def __post_init__(self):
        """Check the shapes agree."""
        m = len(self.joint_names)
        for name in ('position', 'effort', 'velocity'):
            value = getattr(self, name)
            if value is not None and np.shape(value) != (len(self.t), m):
                raise RecordingError(f'{self.source or "recording"}: {name} has shape '
                                     f'{np.shape(value)}, expected ({len(self.t)}, {m})')

    @property
    def samples(self):
        """Return the number of samples N."""
        return len(self.t)
