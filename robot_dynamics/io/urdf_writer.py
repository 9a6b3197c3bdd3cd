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
"""Write a :class:`~robot_dynamics.model.RobotModel` as URDF (the inverse of the loader)."""

import numpy as np

from robot_dynamics.spatial.joints import REVOLUTE
from robot_dynamics.spatial.vectors import matrix_rpy


def _f(x):
    return repr(float(x))


def _num(x):
    return repr(float(x)) if np.isfinite(x) else None


def _origin(R, p):
    xyz = ' '.join(repr(float(v)) for v in p)
    rpy = ' '.join(repr(float(v)) for v in matrix_rpy(R))
    return f'<origin xyz="{xyz}" rpy="{rpy}"/>'


def _inertial(mass, com, inertia):
    i_ = inertia
    return (f'    <inertial>\n      <origin xyz="{" ".join(repr(float(v)) for v in com)}" '
            f'rpy="0 0 0"/>\n      <mass value="{_f(mass)}"/>\n'
            f'      <inertia ixx="{_f(i_[0, 0])}" ixy="{_f(i_[0, 1])}" ixz="{_f(i_[0, 2])}" '
            f'iyy="{_f(i_[1, 1])}" iyz="{_f(i_[1, 2])}" izz="{_f(i_[2, 2])}"/>\n    </inertial>\n')


def model_to_urdf(model, comment=''):
    """URDF XML text for ``model``: base link, one link per body, a fixed tool link.

    Friction goes to ``<dynamics damping friction>``; gear ratio and rotor inertia to a
    ``<transmission>`` per joint (``mechanicalReduction``, ``rotorInertia``). Gravity is not
    part of URDF: pass ``gravity=`` to :meth:`RobotModel.from_urdf` if it is not the default.
    """
    lines = ['<?xml version="1.0"?>']
    if comment:
        lines.append(f'<!-- {comment} -->')
    gravity = np.asarray(model.gravity, dtype=float)
    if not np.array_equal(gravity, [0.0, 0.0, -9.81]):          # not what from_urdf assumes
        values = ', '.join(_f(g) for g in gravity)
        lines.append(f'<!-- gravity [{values}] m/s^2 in the base frame: URDF has no gravity; '
                     f'load with RobotModel.from_urdf(..., gravity=[{values}]) -->')
    lines.append(f'<robot name="{model.name}">')
    lines.append(f'  <link name="{model.base_link}"/>')
    parent = model.base_link
    for i in range(model.dof):
        link = model.link_names[i]
        inertia = np.array(model.inertia[i], dtype=float)
        lines.append(f'  <link name="{link}">\n'
                     + _inertial(model.mass[i], model.com[i], inertia) + '  </link>')
        kind = 'prismatic' if model.joint_types[i] != REVOLUTE else (
            'revolute' if np.isfinite(model.lower_limit[i]) else 'continuous')
        limit_attrs = []
        if kind != 'continuous' and np.isfinite(model.lower_limit[i]):
            limit_attrs += [f'lower="{_f(model.lower_limit[i])}"',
                            f'upper="{_f(model.upper_limit[i])}"']
        limit_attrs.append(f'effort="{_num(model.effort_limit[i]) or 0}"')
        limit_attrs.append(f'velocity="{_num(model.velocity_limit[i]) or 0}"')
        axis = ' '.join(repr(float(v)) for v in model.axis[i])
        lines.append(
            f'  <joint name="{model.joint_names[i]}" type="{kind}">\n'
            f'    <parent link="{parent}"/>\n    <child link="{link}"/>\n'
            f'    {_origin(model.placement_rotation[i], model.placement_translation[i])}\n'
            f'    <axis xyz="{axis}"/>\n    <limit {" ".join(limit_attrs)}/>\n'
            f'    <dynamics damping="{_f(model.viscous_friction[i])}" '
            f'friction="{_f(model.coulomb_friction[i])}"/>\n  </joint>')
        parent = link
    tool = model.tip_link
    if tool in model.link_names or tool == model.base_link:    # a chain ending at a body link
        tool = f'{tool}_tool'
    lines.append(f'  <link name="{tool}"/>')
    lines.append(f'  <joint name="{tool}_fixed" type="fixed">\n'
                 f'    <parent link="{parent}"/>\n    <child link="{tool}"/>\n'
                 f'    {_origin(model.tip_rotation, model.tip_translation)}\n  </joint>')
    if np.any(model.rotor_inertia) or np.any(model.gear_ratio != 1):
        for i, joint in enumerate(model.joint_names):
            lines.append(
                f'  <transmission name="{joint}_transmission">\n'
                '    <type>transmission_interface/SimpleTransmission</type>\n'
                f'    <joint name="{joint}">\n'
                '      <hardwareInterface>hardware_interface/EffortJointInterface'
                '</hardwareInterface>\n    </joint>\n'
                f'    <actuator name="{joint}_motor">\n'
                f'      <mechanicalReduction>{_f(model.gear_ratio[i])}</mechanicalReduction>\n'
                f'      <rotorInertia>{_f(model.rotor_inertia[i])}</rotorInertia>\n'
                '    </actuator>\n  </transmission>')
    lines.append('</robot>')
    return '\n'.join(lines) + '\n'
