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
"""The model's joints among a recording's: by name, by number, or by name without a prefix.

:func:`match_joints` serves :func:`robot_dynamics.identification.prepare` and the contacts'
observer samples.
"""

import re

from robot_dynamics.io.recording_base import RecordingError


def match_joints(recording, model):
    """Return the recording's column of each model joint, the joints ignored and a note.

    A recording whose joints are numbers (CSV ``q_1``…``q_6``, libfranka's ``q_0``…) reads
    them as the model's joints: by the number that ends the model's joint names when these
    are the same numbers, else in chain order. One whose joint names all carry the same
    prefix (a driver's ``tf_prefix``: ``ur_shoulder_pan_joint``) reads them without it. The
    note says which is which; otherwise a model joint not recorded is an error naming it.
    """
    names = list(recording.joint_names)
    missing = [name for name in model.joint_names if name not in names]
    numbered = _numbered(names, model.joint_names) if len(missing) == model.dof else None
    prefix = _prefix(missing, names) if len(missing) == model.dof else None
    if numbered:
        note = ('the recording numbers its joints: read as the model\'s '
                + ', '.join(f'{k} = {j}' for k, j in zip(numbered, model.joint_names)))
    elif prefix:
        numbered = [prefix + name for name in model.joint_names]
        note = (f'the recording names the joints with the prefix {prefix!r} (a driver\'s '
                'tf_prefix): read as the model\'s joints without it')
    if numbered:
        return ([names.index(k) for k in numbered],
                tuple(name for name in names if name not in numbered), note)
    if missing:
        raise RecordingError(f'{recording.source or "recording"}: joints {missing} of the '
                             f'model are not recorded (recorded: {names}); record them or '
                             'choose a sub-chain with base_link/tip_link'
                             + _number_hint(names, model))
    ignored = tuple(name for name in names if name not in model.joint_names)
    return [names.index(name) for name in model.joint_names], ignored, ''


def _number_hint(recorded, model):
    """Say that numbered joints are more or fewer than the model's (which are which: unknown)."""
    numbers = [name for name in recorded if name.isdigit()]
    return (f'; the recording numbers {len(numbers)} joints ({", ".join(numbers[:10])}), the '
            f'model has {model.dof}: which are the model\'s cannot be told; name the columns '
            'after the model\'s joints (q_<joint>), or choose the sub-chain with base_link/'
            'tip_link' if len(numbers) >= 2 else '')


def _numbered(recorded, joints):
    """Return the recorded joint number of each model joint, or None (see match_joints)."""
    numbers = sorted((int(name), name) for name in recorded if name.isdigit())
    if len(numbers) != len(joints) or [k for k, _ in numbers] not in (
            list(range(len(joints))), list(range(1, len(joints) + 1))):
        return None
    ends = [re.search(r'(\d+)$', joint) for joint in joints]
    if all(ends) and sorted(int(end[1]) for end in ends) == [k for k, _ in numbers]:
        return [dict(numbers)[int(end[1])] for end in ends]
    return [name for _, name in numbers]


def _prefix(missing, recorded):
    """Return the one prefix (a driver's tf_prefix) that makes each missing joint recorded."""
    prefixes = [{name[:-len(joint)] for name in recorded
                 if name.endswith(joint) and len(name) > len(joint)} for joint in missing]
    common = set.intersection(*prefixes) if prefixes else set()
    return common.pop() if len(common) == 1 else None
