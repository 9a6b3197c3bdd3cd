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
"""Gear ratios and rotor inertias from a URDF's ``<transmission>`` elements.

:func:`transmissions` reads the elements :class:`~robot_dynamics.io.urdf_elements.Document`
collected; errors and notes name the transmission.
"""

import math

from robot_dynamics.errors import URDFError
from robot_dynamics.io.urdf_numbers import number


def transmissions(document):
    """Gear ratio and rotor inertia by joint name from single-joint ``<transmission>``s.

    ``mechanicalReduction`` (ROS 1 actuator or transmission form) or ``mechanical_reduction``
    (ros2_control) → gear ratio; ``<rotorInertia>`` (kg m², a robot_dynamics extension) → rotor
    inertia. Multi-joint (differential) transmissions are skipped. Where no rotor inertia is at
    stake (a gear ratio alone changes no torque), one naming a joint the URDF does not have,
    a second one for a joint with other values, or a reduction that is not a finite number
    (empty, ``${ratio}``; Pinocchio and KDL never read it) is skipped with a note; with a
    rotor inertia each is an error (a typo would drop or change it).
    """
    gear, rotor, owner, ignored = {}, {}, {}, []
    for transmission in document.transmissions:
        joints = [j.get('name') for j in transmission.findall('joint')]
        where = f"transmission[@name='{str(transmission.get('name'))[:80]}']"
        unknown = [name for name in joints if name not in document.joints]
        if unknown:
            message = (f'{where} names joint {str(unknown[0])[:80]!r}, which the URDF does not '
                       'have')
            if transmission.find('.//rotorInertia') is not None:     # dynamics at stake
                raise URDFError(f'{message}; fix the name or remove the transmission')
            document.notes.append(f'{message}: ignored (it carries no rotor inertia)')
            continue
        if len(joints) != 1:
            continue
        joint, values, unread = joints[0], {}, None
        for element in transmission.iter():
            if element.tag in ('mechanicalReduction', 'mechanical_reduction'):
                try:
                    values['gear'] = _finite(element, where)
                except URDFError as exc:        # Pinocchio and KDL never read it
                    unread = exc
            elif element.tag == 'rotorInertia':
                values['rotor'] = _finite(element, where)
        if unread is not None:
            if 'rotor' in values:                                        # dynamics at stake
                raise unread
            values.pop('gear', None)
            ignored.append((where, unread))
        if joint in owner and owner[joint][1] != values:
            message = (f'{where} and transmission[@name={owner[joint][0]!r}] both drive joint '
                       f'{joint[:80]!r} with different values')
            if 'rotor' in values or 'rotor' in owner[joint][1]:          # dynamics at stake
                raise URDFError(f'{message}; keep one transmission per joint')
            document.notes.append(f'{message}: the first is kept (no rotor inertia: no effect '
                                  'on the dynamics)')
            continue
        owner[joint] = str(transmission.get('name'))[:80], values
        gear.update({joint: values['gear']} if 'gear' in values else {})
        rotor.update({joint: values['rotor']} if 'rotor' in values else {})
    if ignored:                                 # one line for an exporter's every transmission
        more = '' if len(ignored) == 1 else (
            f' (and the same in {len(ignored) - 1} more: '
            f'{", ".join(where for where, _ in ignored[1:])})')
        document.notes.append(f'{ignored[0][1]}{more}: ignored, gear ratio 1 (it carries no '
                              'rotor inertia: no torque depends on it)')
    return gear, rotor


def _finite(element, where):
    """Return the finite number in ``element``'s text; ``where``: its transmission (messages)."""
    text = (element.text or '').strip()
    value = number(text, '{} {}', where, element.tag)
    if not math.isfinite(value):
        raise URDFError(f'{where} {element.tag}: not finite')
    return value
