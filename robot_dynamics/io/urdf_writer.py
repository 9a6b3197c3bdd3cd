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
"""Write a :class:`~robot_dynamics.model.RobotModel` as URDF (the inverse of the loader).

The XML is built with :mod:`xml.etree.ElementTree`, which escapes every name and value
(``R&D "arm"``, ``j&1``); comments are made inert (no ``--``, issue 22.9).
"""

import re
import xml.etree.ElementTree as ET

import numpy as np

from robot_dynamics.errors import ModelError, warn
from robot_dynamics.spatial.joints import REVOLUTE
from robot_dynamics.spatial.vectors import matrix_rpy

#: Characters XML 1.0 cannot hold, even escaped.
_NOT_XML = re.compile('[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]')


def _f(x):
    return repr(float(x))


def _num(x):
    return repr(float(x)) if np.isfinite(x) else None


def _vector(values):
    return ' '.join(repr(float(v)) for v in values)


def _name(value, field):
    """Return a name as XML can hold it; refuse control characters (XML 1.0 has no escape)."""
    text = str(value)
    bad = _NOT_XML.search(text)
    if bad:
        raise ModelError(f'{field} {text[:80]!r} contains the character {bad.group()!r} at '
                         f'{bad.start()}, which XML cannot hold; rename it to write a URDF')
    return text


def comment_text(text):
    """Return ``text`` made safe inside ``<!-- -->``: no ``--``, no final ``-``."""
    text = _NOT_XML.sub('?', str(text))
    while '--' in text:
        text = text.replace('--', '- -')
    return text + ' ' if text.endswith('-') else text


def _origin(parent, R, p):
    ET.SubElement(parent, 'origin', xyz=_vector(p), rpy=_vector(matrix_rpy(R)))


def _inertial(parent, mass, com, inertia):
    i_ = np.asarray(inertia, dtype=float)
    inertial = ET.SubElement(parent, 'inertial')
    ET.SubElement(inertial, 'origin', xyz=_vector(com), rpy='0 0 0')
    ET.SubElement(inertial, 'mass', value=_f(mass))
    ET.SubElement(inertial, 'inertia', ixx=_f(i_[0, 0]), ixy=_f(i_[0, 1]), ixz=_f(i_[0, 2]),
                  iyy=_f(i_[1, 1]), iyz=_f(i_[1, 2]), izz=_f(i_[2, 2]))


def _joint(robot, model, i, parent, link):
    kind = 'prismatic' if model.joint_types[i] != REVOLUTE else (
        'revolute' if np.isfinite(model.lower_limit[i]) else 'continuous')
    joint = ET.SubElement(robot, 'joint', name=_name(model.joint_names[i], 'joint name'),
                          type=kind)
    ET.SubElement(joint, 'parent', link=parent)
    ET.SubElement(joint, 'child', link=link)
    _origin(joint, model.placement_rotation[i], model.placement_translation[i])
    ET.SubElement(joint, 'axis', xyz=_vector(model.axis[i]))
    limits = {}
    if kind != 'continuous' and np.isfinite(model.lower_limit[i]):
        limits.update(lower=_f(model.lower_limit[i]), upper=_f(model.upper_limit[i]))
    limits.update(effort=_num(model.effort_limit[i]) or '0',
                  velocity=_num(model.velocity_limit[i]) or '0')
    ET.SubElement(joint, 'limit', limits)
    ET.SubElement(joint, 'dynamics', damping=_f(model.viscous_friction[i]),
                  friction=_f(model.coulomb_friction[i]))


def _transmission(robot, joint_name, gear_ratio, rotor_inertia):
    transmission = ET.SubElement(robot, 'transmission', name=f'{joint_name}_transmission')
    ET.SubElement(transmission, 'type').text = 'transmission_interface/SimpleTransmission'
    joint = ET.SubElement(transmission, 'joint', name=joint_name)
    ET.SubElement(joint, 'hardwareInterface').text = 'hardware_interface/EffortJointInterface'
    actuator = ET.SubElement(transmission, 'actuator', name=f'{joint_name}_motor')
    ET.SubElement(actuator, 'mechanicalReduction').text = _f(gear_ratio)
    ET.SubElement(actuator, 'rotorInertia').text = _f(rotor_inertia)


#: Friction terms URDF has no place for (robot_dynamics.model.friction's law beyond Fv, Fc).
UNWRITTEN_FRICTION = ('friction_offset', 'coulomb_asymmetry', 'friction_smoothing',
                      'stribeck_friction')


def model_to_urdf(model, comment='', sidecar=''):
    """URDF XML text for ``model``: base link, one link per body, a fixed tool link.

    Friction goes to ``<dynamics damping friction>``; gear ratio and rotor inertia to a
    ``<transmission>`` per joint (``mechanicalReduction``, ``rotorInertia``). Gravity is not
    part of URDF: pass ``gravity=`` to :meth:`RobotModel.from_urdf` if it is not the default.
    ``comment`` goes into an XML comment before the robot. A friction law beyond viscous and
    Coulomb (offset, asymmetry, smoothing, Stribeck) has no place in URDF: unless ``sidecar``
    names the friction sidecar written beside it, a ``ModelWarning`` says what is left out.
    """
    extra = [np.asarray(getattr(model, name)) for name in UNWRITTEN_FRICTION
             if getattr(model, name, None) is not None]
    left_out = [name for j, name in enumerate(model.joint_names) if any(e[j] for e in extra)]
    if left_out and not sidecar:
        warn(f'URDF holds viscous and Coulomb friction only: the rest of the friction law '
             f'(offset, asymmetry, smoothing, Stribeck) of joints {left_out} is not written; '
             'save it with robot_dynamics.io.friction_yaml.friction_yaml(model) and load it '
             'back with RobotModel.with_friction (or the friction= option)')
    header = ['<?xml version="1.0"?>']
    if comment:
        header.append(f'<!-- {comment_text(comment)} -->')
    gravity = np.asarray(model.gravity, dtype=float)
    if not np.array_equal(gravity, [0.0, 0.0, -9.81]):          # not what from_urdf assumes
        values = ', '.join(_f(g) for g in gravity)
        header.append(f'<!-- gravity [{values}] m/s^2 in the base frame: URDF has no gravity; '
                      f'load with RobotModel.from_urdf(..., gravity=[{values}]) -->')
    robot = ET.Element('robot', name=_name(model.name, 'robot name'))
    parent = _name(model.base_link, 'base link name')
    ET.SubElement(robot, 'link', name=parent)
    for i in range(model.dof):
        link = _name(model.link_names[i], 'link name')
        _inertial(ET.SubElement(robot, 'link', name=link), model.mass[i], model.com[i],
                  model.inertia[i])
        _joint(robot, model, i, parent, link)
        parent = link
    tool = _name(model.tip_link, 'tip link name')
    if tool in model.link_names or tool == model.base_link:    # a chain ending at a body link
        tool = f'{tool}_tool'
    ET.SubElement(robot, 'link', name=tool)
    fixed = ET.SubElement(robot, 'joint', name=f'{tool}_fixed', type='fixed')
    ET.SubElement(fixed, 'parent', link=parent)
    ET.SubElement(fixed, 'child', link=tool)
    _origin(fixed, model.tip_rotation, model.tip_translation)
    if np.any(model.rotor_inertia) or np.any(model.gear_ratio != 1):
        for i, joint in enumerate(model.joint_names):
            _transmission(robot, joint, model.gear_ratio[i], model.rotor_inertia[i])
    ET.indent(robot, space='  ')
    return '\n'.join(header) + '\n' + ET.tostring(robot, encoding='unicode') + '\n'
