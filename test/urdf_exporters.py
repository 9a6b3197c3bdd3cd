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
"""URDFs written the way the exporters users have write them (issue 32), from seeded designs.

A :class:`Design` is a robot's links and joints with random physical inertias, placements and
axes; each writer formats it as one exporter does: the xacro output (its header, the
``xmlns:xacro`` declaration, macro calls and ``<!DOCTYPE``/``<!ENTITY`` text in comments), the
SolidWorks exporter (CRLF, one attribute a line, ``%.5G`` numbers, the all-zero "not set"
``<limit>``), onshape-to-robot (dummy frame links, ``<joint_properties>``, ``package:///``
meshes), fusion2urdf (names with spaces, top-level materials, ROS 1 transmissions, gazebo
tags), phobos (effort and velocity 0 with real position limits) and a ROS 2
``robot_description`` (ros2_control with its transmissions, gazebo plugins, leading blank
lines). The trees are this file's own: an industrial arm, a humanoid's arm in two versions,
a two-armed upper body, a leg, a SCARA, a mobile manipulator.
"""

import numpy as np

from robots import random_rotation

AXES = ('1 0 0', '0 1 0', '0 0 1', '-1 0 0', '0 -1 0', '0 0 -1')
DEFAULT_LIMITS = {'revolute': (-2.5, 2.5, 50.0, 3.0), 'prismatic': (0.0, 0.2, 100.0, 0.5),
                  'continuous': (None, None, 20.0, 6.0)}


class Design:
    """Links (mass, com, inertia about the com) and joints of a robot, seeded.

    ``joints``: tuples ``(name, kind, parent, child)``, optionally with a dict of
    ``limits=(lower, upper, effort, velocity)`` and ``mimic=(master, multiplier, offset)``.
    ``massless``: links written without ``<inertial>`` (frames).
    """

    def __init__(self, seed, name, joints, massless=()):
        rng = np.random.default_rng(seed)
        self.name, self.links, self.joints, self.inertials = name, [], [], {}
        for spec in joints:
            for link in spec[2:4]:
                if link not in self.links:
                    self.links.append(link)
        for link in self.links:
            if link not in massless:
                mass = float(rng.uniform(0.3, 4.0))
                moments = rng.uniform(0.3, 1.0, 3)
                moments = np.array([moments[0] + moments[1], moments[1] + moments[2],
                                    moments[0] + moments[2]]) * mass * 0.01
                R = random_rotation(rng)
                self.inertials[link] = (mass, rng.uniform(-0.08, 0.08, 3),
                                        R @ np.diag(moments) @ R.T)
        for name_, kind, parent, child, *options in joints:
            options = options[0] if options else {}
            axis = AXES[rng.integers(len(AXES))] if rng.random() < 0.7 else \
                ' '.join(f'{v:.5f}' for v in _unit(rng.normal(size=3)))
            self.joints.append(dict(
                name=name_, kind=kind, parent=parent, child=child,
                xyz=rng.uniform(-0.25, 0.25, 3), rpy=rng.choice([0, np.pi / 2, -np.pi / 2], 3)
                + (rng.uniform(-0.3, 0.3, 3) if rng.random() < 0.5 else 0), axis=axis,
                limits=options.get('limits', DEFAULT_LIMITS.get(kind)),
                mimic=options.get('mimic')))


def full(value):
    """Return every digit of a float (``repr``), as most writers print."""
    return repr(float(value))


def _unit(v):
    return v / np.linalg.norm(v)


def _moments(inertia, number):
    keys = (('ixx', 0, 0), ('ixy', 0, 1), ('ixz', 0, 2), ('iyy', 1, 1), ('iyz', 1, 2),
            ('izz', 2, 2))
    return {key: number(inertia[i, j]) for key, i, j in keys}


def _attributes(values, separator=' '):
    return separator.join(f'{key}="{value}"' for key, value in values.items())


def _triple(values, number):
    return ' '.join(number(v) for v in values)


def _plain_joint(joint, number, limit):
    """Write a joint as most writers do (``limit``: the ``<limit>`` text or '')."""
    mimic = joint['mimic']
    return (f'  <joint name="{joint["name"]}" type="{joint["kind"]}">\n'
            f'    <origin xyz="{_triple(joint["xyz"], number)}" '
            f'rpy="{_triple(joint["rpy"], number)}"/>\n'
            f'    <parent link="{joint["parent"]}"/>\n    <child link="{joint["child"]}"/>\n'
            + (f'    <axis xyz="{joint["axis"]}"/>\n' if joint['kind'] != 'fixed' else '')
            + (f'    {limit}\n' if limit else '')
            + (f'    <mimic joint="{mimic[0]}" multiplier="{mimic[1]}" offset="{mimic[2]}"/>\n'
               if mimic else '') + '  </joint>\n')


def _plain_link(design, link, number, visuals=1, mesh='package://{robot}/meshes/{link}.stl'):
    """Write a link: ``<inertial>`` (origin, mass, inertia), ``visuals`` meshes, collisions."""
    text = f'  <link name="{link}">\n'
    if link in design.inertials:
        mass, com, inertia = design.inertials[link]
        text += (f'    <inertial>\n      <origin xyz="{_triple(com, number)}" rpy="0 0 0"/>\n'
                 f'      <mass value="{number(mass)}"/>\n'
                 f'      <inertia {_attributes(_moments(inertia, number))}/>\n    </inertial>\n')
    for k in range(visuals):
        filename = mesh.format(robot=design.name, link=f'{link}_{k}' if k else link)
        geometry = f'<geometry><mesh filename="{filename}"/></geometry>'
        text += (f'    <visual><origin xyz="0 0 {k * 0.001:g}" rpy="0 0 0"/>{geometry}'
                 '<material name="grey"/></visual>\n'
                 f'    <collision><origin xyz="0 0 0" rpy="0 0 0"/>{geometry}</collision>\n')
    return text + '  </link>\n'


def _limit(joint, lower_upper=True, effort=None, velocity=None, order=('lower', 'upper')):
    lower, upper, effort_default, velocity_default = joint['limits']
    values = {}
    if lower_upper and joint['kind'] != 'continuous':
        values.update({order[0]: full(lower if order[0] == 'lower' else upper),
                       order[1]: full(upper if order[1] == 'upper' else lower)})
    values['effort'] = full(effort_default if effort is None else effort)
    values['velocity'] = full(velocity_default if velocity is None else velocity)
    return f'<limit {_attributes(values)}/>'


# ---------------------------------------------------------------------- the exporters
XACRO_HEADER = '''<?xml version="1.0" ?>
<!-- =================================================================================== -->
<!-- |    This document was autogenerated by xacro from {source}    | -->
<!-- |    EDITING THIS FILE BY HAND IS NOT RECOMMENDED                                 | -->
<!-- =================================================================================== -->
'''


def xacro_output(design, macro_comments=True, old_namespaces=False, visuals=1):
    """Write as ``xacro robot.urdf.xacro`` prints: header, namespaces, macros in comments.

    ``visuals``: meshes per link (a scanned part as hundreds of meshes).
    """
    namespaces = ' xmlns:xacro="http://www.ros.org/wiki/xacro"'
    if old_namespaces:                       # ROS 1 era descriptions (PR2, many humanoids)
        namespaces += (' xmlns:sensor="http://playerstage.sourceforge.net/gazebo/xmlschema/'
                       '#sensor" xmlns:controller="http://playerstage.sourceforge.net/gazebo/'
                       'xmlschema/#controller" xmlns:interface="http://playerstage.sourceforge.'
                       'net/gazebo/xmlschema/#interface"')
    text = XACRO_HEADER.format(source=f'/opt/ros/humble/share/{design.name}_description/urdf/'
                                      f'{design.name}.urdf.xacro')
    text += f'<robot name="{design.name}"{namespaces}>\n'
    if macro_comments:
        text += ('  <!-- <xacro:include filename="$(find arm_description)/urdf/arm.xacro"/> -->\n'
                 '  <!-- <xacro:property name="M_PI" value="3.1415926535897931"/> -->\n'
                 '  <!-- mass: ${link_mass * scale} kg; <xacro:arm side="left" reflect="1"> -->\n'
                 '  <!-- an old version declared <!DOCTYPE robot [<!ENTITY pi "3.14">]> -->\n')
    for link in design.links:
        text += _plain_link(design, link, full, visuals)
        if macro_comments:
            text += f'  <!-- <xacro:insert_block name="{link}_origin"/> -->\n'
    for joint in design.joints:
        text += _plain_joint(joint, full, _limit(joint) if joint['limits'] else '')
    if old_namespaces:
        text += ('  <gazebo><controller:gazebo_ros_p3d name="p3d" plugin="libgazebo_ros_p3d.so">'
                 '<interface:position name="p3d_iface"/></controller:gazebo_ros_p3d></gazebo>\n')
    return text + '</robot>\n'


def solidworks(design):
    """Write as the SolidWorks exporter: CRLF, one attribute a line, all-zero ``<limit>``."""
    def number(value):
        return f'{value:.5G}'

    def element(tag, values, indent):
        pad = ' ' * indent
        lines = f'\n{pad}  '.join(f'{k}="{v}"' for k, v in values.items())
        return f'{pad}<{tag}\n{pad}  {lines} />\n'
    text = ('<?xml version="1.0" encoding="utf-8"?>\n<!-- This URDF was automatically created '
            'by SolidWorks to URDF Exporter! Originally created by Stephen Brawner '
            '(brawner@gmail.com) \n     Commit Version: 1.6.0-4-g7f85cfe  Build Version: '
            '1.6.7995.38578\n     For more information, please see http://wiki.ros.org/'
            f'sw_urdf_exporter -->\n<robot\n  name="{design.name}">\n')
    for link in design.links:
        text += f'  <link\n    name="{link}">\n'
        if link in design.inertials:
            mass, com, inertia = design.inertials[link]
            text += ('    <inertial>\n' + element('origin', {'xyz': _triple(com, number),
                                                             'rpy': '0 0 0'}, 6)
                     + element('mass', {'value': number(mass)}, 6)
                     + element('inertia', _moments(inertia, number), 6) + '    </inertial>\n')
        text += ('    <visual>\n' + element('origin', {'xyz': '0 0 0', 'rpy': '0 0 0'}, 6)
                 + f'      <geometry>\n        <mesh\n          filename="package://'
                 f'{design.name}/meshes/{link}.STL" />\n      </geometry>\n      <material\n'
                 '        name="">\n        <color\n          rgba="0.79216 0.81961 0.93333 1" '
                 '/>\n      </material>\n    </visual>\n  </link>\n')
    for joint in design.joints:
        text += (f'  <joint\n    name="{joint["name"]}"\n    type="{joint["kind"]}">\n'
                 + element('origin', {'xyz': _triple(joint['xyz'], number),
                                      'rpy': _triple(joint['rpy'], number)}, 4)
                 + element('parent', {'link': joint['parent']}, 4)
                 + element('child', {'link': joint['child']}, 4)
                 + element('axis', {'xyz': joint['axis'] if joint['kind'] != 'fixed'
                                    else '0 0 0'}, 4))
        if joint['kind'] in ('revolute', 'prismatic'):
            text += element('limit', dict(lower='0', upper='0', effort='0', velocity='0'), 4)
        text += '  </joint>\n'
    return (text + '</robot>').replace('\n', '\r\n')


def onshape(design, frames=()):
    """Write as onshape-to-robot: parts as visuals, dummy frames (1e-9 kg), joint properties.

    ``frames``: ``(name, parent)`` frame links added on fixed joints.
    """
    text = f'<robot name="{design.name}">\n'
    for link in design.links:
        text += f'<!-- Link {link} -->\n' + _plain_link(
            design, link, full, visuals=2, mesh='package:///{link}.stl').replace('  <', '<')
    for name, parent in frames:
        text += (f'<!-- Frame {name} (dummy link + fixed joint) -->\n<link name="{name}">\n'
                 '<origin xyz="0 0 0" rpy="0 -0 0" />\n<inertial>\n<origin xyz="0 0 0" '
                 'rpy="0 0 0" />\n<mass value="1e-09" />\n<inertia ixx="0" ixy="0" ixz="0" '
                 'iyy="0" iyz="0" izz="0" />\n</inertial>\n</link>\n'
                 f'<joint name="{name}_frame" type="fixed">\n<origin xyz="0.01 0 0.05" '
                 f'rpy="0 -0 0" />\n<parent link="{parent}" />\n<child link="{name}" />\n'
                 '<axis xyz="0 0 0"/>\n</joint>\n')
    for joint in design.joints:
        limit = (_limit(joint, effort=10.0, velocity=10.0) + '\n<joint_properties friction='
                 '"0.0"/>') if joint['kind'] != 'fixed' else ''
        text += _plain_joint(joint, full, limit).replace('  <', '<')
    return text + '</robot>\n'


def fusion(design):
    """Write as fusion2urdf and xacro: materials, transmissions, gazebo tags, spaced names."""
    def number(value):
        return repr(round(float(value), 6))
    text = ('<?xml version="1.0" ?>\n<robot name="{0}" xmlns:xacro="http://www.ros.org/wiki/'
            'xacro">\n<material name="silver">\n  <color rgba="0.700 0.700 0.700 1.000"/>\n'
            '</material>\n').format(design.name)
    for joint in design.joints:
        if joint['kind'] == 'fixed':
            continue
        name = joint['name']
        text += (f'<transmission name="{name}_tran">\n  <type>transmission_interface/'
                 f'SimpleTransmission</type>\n  <joint name="{name}">\n    <hardwareInterface>'
                 'hardware_interface/EffortJointInterface</hardwareInterface>\n  </joint>\n'
                 f'  <actuator name="{name}_actr">\n    <hardwareInterface>hardware_interface/'
                 'EffortJointInterface</hardwareInterface>\n    <mechanicalReduction>1'
                 '</mechanicalReduction>\n  </actuator>\n</transmission>\n')
    text += ('<gazebo>\n  <plugin name="control" filename="libgazebo_ros_control.so"/>\n'
             '</gazebo>\n')
    for link in design.links:
        text += (f'<gazebo reference="{link}">\n  <material>Gazebo/Silver</material>\n  <mu1>'
                 '0.2</mu1>\n  <mu2>0.2</mu2>\n  <self_collide>true</self_collide>\n  <gravity>'
                 'true</gravity>\n</gazebo>\n')
        text += _plain_link(design, link, number, mesh='package://{robot}_description/meshes/'
                            '{link}.stl" scale="0.001 0.001 0.001')
    for joint in design.joints:
        limit = _limit(joint, effort=100.0, velocity=100.0, order=('upper', 'lower')) \
            if joint['kind'] in ('revolute', 'prismatic') else ''
        text += _plain_joint(joint, number, limit)
    return text + '</robot>\n'


def phobos(design):
    """Write as Blender's phobos: ``version``, ``effort="0" velocity="0"``, real limits."""
    text = f'<?xml version="1.0" ?>\n<robot name="{design.name}" version="1.0">\n'
    for link in design.links:
        text += _plain_link(design, link, full).replace('<visual>', f'<visual name="v_{link}">')
    for joint in design.joints:
        limit = _limit(joint, effort=0.0, velocity=0.0) if joint['limits'] else ''
        text += _plain_joint(joint, full, limit)
    return text + '</robot>\n'


def robot_description(design, gripper_joints=()):
    """Write a ROS 2 ``robot_description``: xacro output with ros2_control and gazebo.

    Leading blank lines (a launch file's f-string), a ``<ros2_control>`` block with interfaces
    and ros2_control transmissions, a ``gazebo_ros2_control`` plugin.
    """
    text = '\n\n  ' + xacro_output(design, macro_comments=False).replace('</robot>\n', '')
    moving = [j['name'] for j in design.joints if j['kind'] != 'fixed' and not j['mimic']]
    text += '  <ros2_control name="FakeSystem" type="system">\n    <hardware><plugin>' \
            'mock_components/GenericSystem</plugin><param name="calculate_dynamics">true' \
            '</param></hardware>\n'
    for name in moving:
        text += (f'    <joint name="{name}"><command_interface name="effort"><param name="min">'
                 '-50</param><param name="max">50</param></command_interface><state_interface '
                 'name="position"><param name="initial_value">0.0</param></state_interface>'
                 '<state_interface name="velocity"/></joint>\n')
    for name in moving:
        if name not in gripper_joints:
            text += (f'    <transmission name="{name}_transmission"><plugin>transmission_'
                     f'interface/SimpleTransmission</plugin><actuator name="{name}_motor" role='
                     f'"actuator1"/><joint name="{name}" role="joint1"><mechanical_reduction>'
                     '50.0</mechanical_reduction><offset>0.0</offset></joint></transmission>\n')
    text += ('  </ros2_control>\n  <gazebo>\n    <plugin filename="libgazebo_ros2_control.so" '
             'name="gazebo_ros2_control"><parameters>/opt/ros/humble/share/robot/config/'
             'controllers.yaml</parameters></plugin>\n  </gazebo>\n')
    return text + '</robot>\n'


def drake(design):
    """Write as Drake: a default namespace on ``<robot>``, ``drake:`` tags, frames."""
    text = ('<?xml version="1.0"?>\n<robot xmlns="http://drake.mit.edu" xmlns:xsi="http://www.w3.'
            'org/2001/XMLSchema-instance" xsi:schemaLocation="http://drake.mit.edu ../../doc/'
            f'drakeURDF.xsd" xmlns:drake="http://drake.mit.edu" name="{design.name}">\n')
    text += ''.join(_plain_link(design, link, full) for link in design.links)
    for joint in design.joints:
        text += _plain_joint(joint, full, _limit(joint) if joint['limits'] else '')
        if joint['kind'] != 'fixed':
            text += (f'  <transmission type="SimpleTransmission" name="{joint["name"]}_trans">'
                     f'<actuator name="{joint["name"]}_act"><drake:rotor_inertia value="1e-4"/>'
                     f'<drake:gear_ratio value="100"/></actuator><joint name="{joint["name"]}"/>'
                     '<mechanicalReduction>1</mechanicalReduction></transmission>\n')
    last = design.joints[-1]['child']
    return text + (f'  <frame name="tool_frame" link="{last}" xyz="0 0 0.1" rpy="0 0 0"/>\n'
                   '  <drake:collision_filter_group name="arm"><drake:member link="'
                   f'{last}"/></drake:collision_filter_group>\n</robot>\n')
