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
"""The corpus of exporter-style URDFs (issue 32): this project's robots as exporters write them.

Each design is written as one exporter writes it (:mod:`urdf_exporters`); tests compare them
with Pinocchio, benchmarks time their loading.

The trees: an industrial arm, a humanoid's arm in two versions, a two-armed upper body, a
SolidWorks assembly, a leg, a SCARA, a mobile manipulator. :data:`CORPUS` names one file per
exporter pattern.
"""

import re

from urdf_exporters import (Design, drake, fusion, onshape, phobos, robot_description,
                            solidworks, xacro_output)

TOLERANCE = 1e-13          # relative to the largest entry (target 1e-9; measured 3.3e-15)


def chain(prefix, parent, n, kinds=None, names=None):
    """Joint specs of an ``n``-joint serial chain below ``parent``."""
    specs, link = [], parent
    for i in range(n):
        child = f'{prefix}link{i + 1}'
        name = names[i] if names else f'{prefix}joint{i + 1}'
        specs.append((name, (kinds or ['revolute'] * n)[i], link, child))
        link = child
    return specs


def industrial_arm(seed=1):
    """Build an arm: world → base_link → 6 revolute joints → flange → tool0 (UR-like)."""
    joints = [('world_joint', 'fixed', 'world', 'base_link')] + chain('', 'base_link', 6)
    joints += [('flange_joint', 'fixed', 'link6', 'flange'),
               ('tool0_joint', 'fixed', 'flange', 'tool0')]
    return Design(seed, 'industrial_arm', joints, massless=('world', 'flange', 'tool0'))


ARM7 = ['shoulder_pitch', 'shoulder_roll', 'shoulder_yaw', 'elbow', 'wrist_yaw', 'wrist_pitch',
        'wrist_roll']


def humanoid_arm(version, seed=2, side='l_'):
    """Build a humanoid's 7-joint arm: version 1 ends in a 2-finger gripper, 2 in a hand."""
    joints = chain(side, 'torso', 7, names=[side + n for n in ARM7])
    joints.append((f'{side}hand_joint', 'fixed', f'{side}link7', f'{side}hand'))
    if version == 1:
        finger = {'limits': (0.0, 0.04, 20.0, 0.1)}
        joints += [(f'{side}finger1', 'prismatic', f'{side}hand', f'{side}finger1_link', finger),
                   (f'{side}finger2', 'prismatic', f'{side}hand', f'{side}finger2_link',
                    dict(finger, mimic=(f'{side}finger1', 1.0, 0.0)))]
    else:
        for digit in ('thumb', 'index', 'middle', 'ring', 'little'):
            first = f'{side}{digit}_1'
            for k in (1, 2, 3):
                parent = f'{side}hand' if k == 1 else f'{side}{digit}_link{k - 1}'
                options = {'limits': (0.0, 1.6, 2.0, 2.0)}
                if k > 1:
                    options['mimic'] = (first, 1.0, 0.0)
                joints.append((f'{side}{digit}_{k}', 'revolute', parent,
                               f'{side}{digit}_link{k}', options))
    return Design(seed + version, f'humanoid_arm_v{version}', joints)


def upper_body(seed=4):
    """Build a torso with two equal arms: the tip must be named."""
    joints = [('waist', 'revolute', 'pelvis', 'torso')]
    joints += chain('l_', 'torso', 7, names=['l_' + n for n in ARM7])
    joints += chain('r_', 'torso', 7, names=['r_' + n for n in ARM7])
    return Design(seed, 'upper_body', joints)


def solidworks_arm(seed=5):
    """Build base_link and five joints (one continuous), a link name with an umlaut."""
    def rename(link):
        return 'Glied_2_ä' if link == 'link2' else link
    joints = [(name, kind, rename(parent), rename(child)) for name, kind, parent, child in
              chain('', 'base_link', 5, kinds=['revolute'] * 4 + ['continuous'])]
    return Design(seed, 'arm_assembly', joints)


def leg(seed=6):
    """Build a 6-joint leg below a trunk: hip yaw, roll, pitch, knee, ankle pitch, roll."""
    return Design(seed, 'leg', chain('', 'trunk', 6, names=[
        'hip_yaw', 'hip_roll', 'hip_pitch', 'knee', 'ankle_pitch', 'ankle_roll']))


def scara(seed=7):
    """Build a SCARA: names with spaces, continuous, revolute and prismatic joints."""
    return Design(seed, 'scara', chain('', 'base_link', 4, names=[
        'Revolute 1', 'Revolute 2', 'Slider 3', 'Revolute 4'],
        kinds=['continuous', 'revolute', 'prismatic', 'continuous']))


def mobile_manipulator(seed=8):
    """Build wheels on the base, a 6-joint arm with a 2-finger gripper."""
    joints = [('base_joint', 'fixed', 'base_footprint', 'base_link'),
              ('left_wheel', 'continuous', 'base_link', 'left_wheel_link'),
              ('right_wheel', 'continuous', 'base_link', 'right_wheel_link'),
              ('arm_mount', 'fixed', 'base_link', 'arm_base')]
    joints += chain('arm_', 'arm_base', 6)
    finger = {'limits': (0.0, 0.04, 20.0, 0.1)}
    joints += [('gripper_joint', 'fixed', 'arm_link6', 'gripper'),
               ('finger_left', 'prismatic', 'gripper', 'finger_left_link', finger),
               ('finger_right', 'prismatic', 'gripper', 'finger_right_link',
                dict(finger, mimic=('finger_left', 1.0, 0.0)))]
    return Design(seed, 'mobile_manipulator', joints, massless=('base_footprint',))


# A differential transmission, and one left behind by a removed gripper (Pinocchio loads both).
STALE = ('<transmission name="wrist_differential"><type>transmission_interface/Differential'
         'Transmission</type><joint name="Revolute 2"/><joint name="Revolute 4"/><actuator '
         'name="m1"/><actuator name="m2"/></transmission>\n<transmission name="gripper_tran">'
         '<joint name="gripper_joint"/><actuator name="gripper_motor"><mechanicalReduction>30'
         '</mechanicalReduction></actuator></transmission>\n</robot>\n')
CORPUS = {
    'xacro-industrial-arm': lambda: xacro_output(industrial_arm()),
    'xacro-humanoid-arm-v1': lambda: xacro_output(humanoid_arm(1), old_namespaces=True),
    'xacro-humanoid-arm-v2': lambda: xacro_output(humanoid_arm(2)),
    'ros1-undeclared-prefixes': lambda: re.sub(      # TinyXML reads them; so does the loader
        r' xmlns:(sensor|controller|interface)="[^"]*"', '',
        xacro_output(humanoid_arm(1, seed=13), old_namespaces=True)),
    'xacro-huge-mesh-lists': lambda: xacro_output(industrial_arm(9), visuals=400),
    'solidworks-arm': lambda: solidworks(solidworks_arm()),
    'onshape-leg': lambda: onshape(leg(), frames=(('foot', 'link6'), ('tool', 'link6'))),
    'fusion-scara': lambda: fusion(scara()),
    'fusion-stale-transmissions': lambda: fusion(scara(11)).replace('</robot>', STALE),
    'drake-arm': lambda: drake(industrial_arm(12)),
    'phobos-arm': lambda: phobos(industrial_arm(10)),
    'robot-description': lambda: robot_description(mobile_manipulator(),
                                                   ('finger_left', 'finger_right')),
}
