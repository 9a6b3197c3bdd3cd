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
"""URDF loading time against Pinocchio's parser, and the cost of re-merging a locked gripper.

Generates URDFs of a given size (arms of ``--depth`` links with visuals and collisions on a
torso joint, every ``--moving-every``-th joint revolute, the others fixed), loads each with
``RobotModel.from_urdf`` and with ``pin.buildModelFromXML`` (the peer, same run, same text)
and prints the best CPU times of ``--repeats`` runs and their ratio; then times
``model.with_locked_positions`` on an arm with a two-finger gripper against reloading the URDF
with the new position::

    .venv/bin/python benchmarks/urdf_loading.py [--links 1000 7500] [--depth 100]
"""

import argparse
import pathlib
import sys
import time
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / 'test')]   # test helpers; the installed package, not the tree

import pinocchio as pin  # noqa: E402

from robot_dynamics import RobotModel  # noqa: E402
from robot_dynamics.errors import ModelWarning  # noqa: E402
from urdf_trees import arm_with_gripper  # noqa: E402

LINK = ('<link name="{name}"><inertial><origin xyz="0 0 0.05" rpy="0.1 0 0"/><mass '
        'value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>'
        '<visual><geometry><mesh filename="package://big/{name}.dae"/></geometry><material '
        'name="grey"><color rgba="0.5 0.5 0.5 1"/></material></visual><collision><geometry>'
        '<mesh filename="package://big/{name}.stl"/></geometry></collision></link>\n')
JOINT = ('<joint name="j_{child}" type="{kind}"><parent link="{parent}"/><child '
         'link="{child}"/><origin xyz="0 0 0.1" rpy="0 0 0.2"/><axis xyz="0 1 0"/><limit '
         'lower="-1" upper="1" effort="1" velocity="1"/></joint>\n')


def urdf(links, depth, moving_every):
    """Return arms of ``depth`` links on a torso joint, ``links`` in all; some joints revolute.

    The chain is the torso and the first arm; every other arm is a locked branch merged into
    the torso (all inertials are read). Arms, not one long chain: Pinocchio's parser recurses
    and crashes on ~7,500 links in a row (this loader takes any depth).
    """
    parts = ['<robot name="big"><link name="root"/>', LINK.format(name='torso'),
             JOINT.format(child='torso', parent='root', kind='revolute')]
    for i in range(links):
        arm, k = divmod(i, depth)
        parent = 'torso' if k == 0 else f'a{arm}_l{k - 1}'
        kind = 'revolute' if k % moving_every == 0 else 'fixed'
        parts += [LINK.format(name=f'a{arm}_l{k}'),
                  JOINT.format(child=f'a{arm}_l{k}', parent=parent, kind=kind)]
    return ''.join(parts) + '</robot>'


def best(function, repeats):
    """Best CPU time of ``repeats`` calls, s."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def main():
    """Print the loading table and the re-merge cost."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--links', type=int, nargs='+', default=[1000, 7500])
    parser.add_argument('--depth', type=int, default=100, help='links per arm')
    parser.add_argument('--moving-every', type=int, default=10)
    parser.add_argument('--repeats', type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter('ignore', ModelWarning)
    print('| links | MB | robot_dynamics s | Pinocchio s | ratio |')
    print('| --- | --- | --- | --- | --- |')
    for links in args.links:
        text = urdf(links, args.depth, args.moving_every)
        tip = f'a0_l{args.depth - 1}'
        ours = best(lambda: RobotModel.from_urdf(text, tip_link=tip), args.repeats)
        peer = best(lambda: pin.buildModelFromXML(text), args.repeats)
        print(f'| {links} | {len(text) / 1e6:.2f} | {ours:.3f} | {peer:.3f} | '
              f'{ours / peer:.2f} |')
    gripper = arm_with_gripper()
    model = RobotModel.from_urdf(gripper)
    count = 200
    remerge = best(lambda: [model.with_locked_positions({'grip_finger_joint1': 0.0001 * k})
                            for k in range(count)], args.repeats) / count
    reload = best(lambda: RobotModel.from_urdf(
        gripper, locked_joints={'grip_finger_joint1': 0.02}), args.repeats)
    print(f'\nre-merge a gripper: {remerge * 1e3:.3f} ms; reloading the URDF instead: '
          f'{reload * 1e3:.3f} ms ({reload / remerge:.1f}x)')


if __name__ == '__main__':
    main()
