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

Loads the bundled arms' URDFs (:data:`FILES`), exporter-style files (:data:`EXPORTED`) and
generated URDFs of a given size (arms of ``--depth`` links with visuals and collisions on a
torso joint, every ``--moving-every``-th joint revolute, the others fixed) with
``RobotModel.from_urdf`` and with ``pin.buildModelFromXML`` (the peer, same run, same text),
the two timed in alternation, and prints the best CPU times (``time.process_time``) of
``--repeats`` runs (``--file-repeats`` for the files) and their ratio (issue 32's target:
≤ 2); then times ``model.with_locked_positions`` on an arm with a two-finger gripper against
reloading the URDF with the new position. ``--write-docs`` puts the tables, with date,
commit, machine and load, into docs/models.md's block (:mod:`doc_tables`)::

    .venv/bin/python benchmarks/urdf_loading.py [--links 1000 7500] [--depth 100] [--write-docs]
"""

import argparse
import os
import pathlib
import sys
import time
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / 'test'), str(ROOT / 'benchmarks')]   # the installed package

import pinocchio as pin  # noqa: E402

from robot_dynamics import BUNDLED_MODELS, data_path, RobotModel  # noqa: E402
from robot_dynamics.errors import ModelWarning  # noqa: E402
from doc_tables import provenance, write_block  # noqa: E402
from harness import machine  # noqa: E402
from urdf_corpus import CORPUS  # noqa: E402
from urdf_trees import arm_with_gripper  # noqa: E402

#: The bundled URDFs timed first (the issue's "small arm" case).
FILES = ('panda', 'ur5', 'puma560', 'stanford', 'two_link')
#: Then exporter-style files of this project's robots (``test/urdf_corpus.py``): a real
#: description's visuals, collisions, gazebo and ros2_control blocks around an arm.
EXPORTED = ('robot-description', 'xacro-industrial-arm', 'xacro-humanoid-arm-v1',
            'solidworks-arm')
#: Generated sizes (links) of the second table by default.
LINKS = (1000, 7500)

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


def alternated(ours, theirs, repeats):
    """Best CPU times of ``ours`` and ``theirs``, s, the two called in turn ``repeats`` times."""
    pairs = [(best(ours, 1), best(theirs, 1)) for _ in range(repeats)]
    return min(p[0] for p in pairs), min(p[1] for p in pairs)


def table_rows():
    """Table → the rows' first cells, in the order main() prints them (tests read it)."""
    return [[(name,) for name in FILES + EXPORTED], [(str(links),) for links in LINKS]]


def files_table(repeats):
    """Markdown: the bundled and exporter-style URDFs, ours against Pinocchio's parser."""
    lines = ['| URDF | KB | robot_dynamics, ms | Pinocchio, ms | ratio |',
             '|---|---:|---:|---:|---:|']
    texts = {name: pathlib.Path(data_path(BUNDLED_MODELS[name])).read_text(encoding='utf-8')
             for name in FILES}
    texts.update((name, CORPUS[name]()) for name in EXPORTED)
    for name, text in texts.items():
        for _ in range(3):                                       # warm both up
            RobotModel.from_urdf(text), pin.buildModelFromXML(text)
        ours, peer = alternated(lambda: RobotModel.from_urdf(text),
                                lambda: pin.buildModelFromXML(text), repeats)
        lines.append(f'| {name} | {len(text.encode()) / 1e3:.1f} | {ours * 1e3:.3f} | '
                     f'{peer * 1e3:.3f} | {ours / peer:.2f}× |')
    return lines


def sizes_table(sizes, depth, moving_every, repeats):
    """Markdown: generated URDFs of ``sizes`` links, ours against Pinocchio's parser."""
    lines = ['| links | MB | robot_dynamics, s | Pinocchio, s | ratio |',
             '|---|---:|---:|---:|---:|']
    for links in sizes:
        text = urdf(links, depth, moving_every)
        tip = f'a0_l{depth - 1}'
        ours, peer = alternated(lambda: RobotModel.from_urdf(text, tip_link=tip),
                                lambda: pin.buildModelFromXML(text), repeats)
        lines.append(f'| {links} | {len(text) / 1e6:.2f} | {ours:.3f} | {peer:.3f} | '
                     f'{ours / peer:.2f}× |')
    return lines


def main():
    """Print the loading tables and the re-merge cost (``--write-docs``: tables into the docs)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--links', type=int, nargs='+', default=list(LINKS))
    parser.add_argument('--depth', type=int, default=100, help='links per arm')
    parser.add_argument('--moving-every', type=int, default=10)
    parser.add_argument('--repeats', type=int, default=3)
    parser.add_argument('--file-repeats', type=int, default=30)
    parser.add_argument('--write-docs', action='store_true',
                        help="replace docs/models.md's generated block with these tables")
    args = parser.parse_args()
    if args.write_docs and (args.links != list(LINKS) or args.depth != 100
                            or args.moving_every != 10):
        parser.error('--write-docs takes the default --links, --depth and --moving-every')
    warnings.simplefilter('ignore', ModelWarning)
    print(f'load average before: {os.getloadavg()}\n')
    out = files_table(args.file_repeats) + ['']
    print('\n'.join(out), flush=True)
    out += sizes_table(args.links, args.depth, args.moving_every, args.repeats)
    command = (f'python benchmarks/urdf_loading.py --repeats {args.repeats} --file-repeats '
               f'{args.file_repeats}')
    out.insert(0, provenance(command, machine()) + '\n')
    print('\n'.join(out[-len(args.links) - 2:]))
    if args.write_docs:
        write_block('docs/models.md', 'urdf_loading', out)
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
