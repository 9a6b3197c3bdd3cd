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
"""Joint states merged by name from partial messages, each joint with its own stamp.

On real robots several drivers publish on one ``joint_states`` topic: the arm's, and a
gripper's with only the finger joints (joint_state_broadcaster merges them the same way).
:class:`JointStateMerge` keeps the latest position and velocity of every joint of a model, with
the stamp of the message that carried it; a joint is stale on its own age. The dynamics node
and both controllers take their joint states through it (:func:`merge_reading`: sizes, the
stamp policy, the merge; :meth:`JointStateMerge.fresh_state`: complete and fresh, or why not).
Plain arrays and seconds: no ROS here.
"""

import numpy as np

from robot_dynamics.errors import BadInput
from robot_dynamics.model import bounds
from robot_dynamics.control.jumps import JumpFilter

MIN_MESSAGE_JOINTS = 64     # a JointState may name this many joints whatever the model
MESSAGE_JOINTS_FACTOR = 4   # ... or this many times the model's joints (chain and locked)


def message_joint_limit(model):
    """Most names (and values per field) a JointState may carry for ``model``.

    A few times the robot's joints, chain and locked side branches, so that the merged
    messages of a real robot (arm, gripper, a mobile base) fit, while a message with a million
    names is refused by its length before any per-name work.
    """
    return name_limit(model.dof + len(model.locked_joints))


def name_limit(joints):
    """Most names a JointState may carry for a robot of ``joints`` joints (see above)."""
    return max(MIN_MESSAGE_JOINTS, MESSAGE_JOINTS_FACTOR * joints)


def check_message_size(name, position, velocity, effort, limit):
    """Raise :class:`BadInput` if any field holds more than ``limit`` entries (len only)."""
    for field, values in (('name', name), ('position', position), ('velocity', velocity),
                          ('effort', effort)):
        if len(values) > limit:
            raise BadInput(f'{field} has {len(values)} entries, more than {limit} (a few '
                           "times the model's joints); publish this robot's joints only")


def state_time(seconds, now, timeout):
    """Return the time (s) of a joint state stamped ``seconds``: its own, or ``now`` if 0.

    Raise :class:`BadInput` for a negative stamp, or one more than ``timeout`` s older or
    newer than ``now`` (s; a future stamp would count as fresh long after its publisher
    stopped).
    """
    if seconds < 0:
        raise BadInput(f'negative stamp ({seconds:.9g} s); stamp with the clock, or 0 = now')
    seconds = seconds if seconds > 0 else now
    age = now - seconds
    if age > timeout:
        raise BadInput(f'stamp is {age:.3f} s old (stale_timeout)')
    if -age > timeout and now == 0:               # a ROS clock reads 0 before any /clock
        raise BadInput(f'stamp is {-age:.3f} s in the future of this node\'s clock, which '
                       'reads 0: use_sim_time is true and no /clock received yet: is the '
                       'simulator (or a bag played with --clock) running?')
    if -age > timeout:
        raise BadInput(f'stamp is {-age:.3f} s in the future (more than stale_timeout); '
                       'synchronise the clocks or set use_sim_time')
    return seconds


def merge_reading(merged, name, position, velocity, effort, stamp, now, timeout, limit,
                  check=None):
    """Merge one joint-state reading into ``merged``; return how many joints it updated.

    Sizes (at most ``limit`` entries per field), the stamp (:func:`state_time`, seconds) and
    the values (:meth:`JointStateMerge.update`, ``check`` included) are checked first; a bad
    reading raises :class:`BadInput` (or what ``check`` raises) and changes nothing.
    """
    check_message_size(name, position, velocity, effort, limit)
    when = state_time(stamp, now, timeout)
    return merged.update(name, position, velocity, when, check=check, efforts=effort, now=now)


class JointStateMerge:
    """The latest position, velocity and stamp of each joint of ``joint_names``, by name.

    :meth:`update` takes one message's names, positions, velocities and stamp (s); joints the
    message does not name keep their values and stamps, names that are not model joints are
    ignored. :meth:`state` returns the merged state once every joint has been received.
    """

    def __init__(self, joint_names, jumps=None):
        self.joint_names = tuple(joint_names)
        self._index = {name: i for i, name in enumerate(self.joint_names)}
        count = len(self.joint_names)
        self.q = np.zeros(count)
        self.qd = np.zeros(count)
        self.stamps = np.full(count, -np.inf)       # s; -inf: never received
        self.jumps = jumps                          # JumpFilter, or None: not checked
        self._last_names = None, None               # names, (source, target) indices

    @classmethod
    def for_model(cls, model):
        """Merge for ``model``'s joints, refusing jumps beyond their plausible speeds."""
        wrap = [kind != 'prismatic' and not np.isfinite(low) and not np.isfinite(high)
                for kind, low, high in zip(model.joint_types, model.lower_limit,
                                           model.upper_limit)]
        return cls(model.joint_names, JumpFilter(bounds.velocity_bounds(model), wrap))

    @classmethod
    def unmodelled(cls, joint_names):
        """Merge for joints without a model: any joint's plausible speed bounds the jumps."""
        count = len(joint_names)
        return cls(joint_names, JumpFilter(np.full(count, bounds.MAX_VELOCITY),
                                           np.ones(count, dtype=bool)))

    def update(self, names, positions, velocities, stamp, check=None, efforts=(), now=None):
        """Merge one message; return how many model joints it updated.

        Raise :class:`BadInput`, changing nothing, for a repeated name, a ``position``,
        ``velocity`` or ``effort`` whose length differs from ``name`` (``velocity`` and
        ``effort`` may be empty; velocity then is zero), no positions, or a model joint's
        value that is NaN or inf (efforts are checked, not kept), a position that jumps beyond
        the plausible speed (``jumps``, :mod:`joint_state_jumps
        <robot_dynamics.control.jumps>`; ``now``: the node's clock, s). ``check(q)``,
        called with the
        merged positions (model order) when every joint has been received, may raise to refuse
        the message: nothing changes then either.
        """
        source, target = self._indices(names)
        if len(positions) != len(names):
            raise BadInput('no positions' if not len(positions) else
                           f'position has {len(positions)} entries for {len(names)} names')
        for field, values in (('velocity', velocities), ('effort', efforts)):
            if len(values) not in (0, len(names)):
                raise BadInput(f'{field} has {len(values)} entries for {len(names)} names')
        if not len(target):
            return 0
        q = np.asarray(positions, dtype=float)[source]
        qd = np.asarray(velocities, dtype=float)[source] if len(velocities) \
            else np.zeros(len(source))
        effort = np.asarray(efforts, dtype=float)[source] if len(efforts) else qd
        if not np.isfinite(np.concatenate((q, qd, effort))).all():   # then name the field
            for label, values in (('position', q), ('velocity', qd), ('effort', effort)):
                if not np.isfinite(values).all():
                    raise BadInput(f'{label} contains NaN or inf')
        if check is not None:
            merged = self.q.copy()
            merged[target] = q
            complete = len(target) == len(merged)       # names are unique: every joint
            if not complete:
                received = np.isfinite(self.stamps)
                received[target] = True
                complete = received.all()
            if complete:
                check(merged)
        if self.jumps is not None:
            jump = self.jumps.check(self.joint_names, target, q, stamp, self.q, self.stamps,
                                    stamp if now is None else now)
            if jump:
                raise BadInput(jump)
        self.q[target], self.qd[target], self.stamps[target] = q, qd, stamp
        return len(target)

    def _indices(self, names):
        """Return the indices (k,) of the model joints in ``names`` and in the model.

        Raise :class:`BadInput` for a repeated name. The last list of names is kept with its
        indices: a driver sends the same names in every message.
        """
        names = tuple(names)
        known, indices = self._last_names
        if names == known:
            return indices
        if len(set(names)) != len(names):
            raise BadInput('repeated joint names')
        found = [(k, self._index[name]) for k, name in enumerate(names) if name in self._index]
        indices = tuple(np.array(column, dtype=int) for column in zip(*found)) if found \
            else (np.zeros(0, dtype=int),) * 2
        self._last_names = names, indices
        return indices

    def missing(self):
        """Name the joints never received."""
        return [name for name, t in zip(self.joint_names, self.stamps) if t == -np.inf]

    def unused(self, names, locked_joints=()):
        """Return why a message that updated no joint is refused, or '' if it is not.

        One naming a locked joint, or any once every joint was received, is another part of
        the robot (a gripper's driver): nothing to compute, nothing wrong. Before that, one
        naming none of the model's joints is refused, naming the joints still missing.
        """
        missing = self.missing()
        if missing and not any(name in locked_joints for name in names):
            return f'missing joints {missing} (none of the model joints in it)'
        return ''

    def stale(self, now, timeout):
        """Name the joints whose stamp is more than ``timeout`` s older than ``now``."""
        return [name for name, t in zip(self.joint_names, self.stamps)
                if t != -np.inf and now - t > timeout]

    def state(self):
        """Return ``q, qd`` (copies, model order) and the oldest joint's stamp; None if missing.

        The oldest stamp makes the state as stale as its stalest joint.
        """
        if np.isinf(self.stamps).any():
            return None
        return self.q.copy(), self.qd.copy(), float(self.stamps.min())

    def fresh_state(self, now, timeout):
        """Return :meth:`state` if every joint is known and fresh at ``now`` (s).

        Raise :class:`BadInput` naming the joints never received, or those whose last
        stamp is more than ``timeout`` s old (a driver that stopped: each joint is stale on its
        own age).
        """
        merged = self.state()
        if merged is None:
            raise BadInput(f'missing joints {self.missing()}, not received yet (partial '
                           'messages are merged by name)')
        stale = self.stale(now, timeout)
        if stale:
            raise BadInput(f'joints {stale} are stale (their last stamp is older than '
                           'stale_timeout)')
        return merged
