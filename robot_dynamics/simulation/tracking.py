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
"""A closed-loop run's record and report: tracking error, commanded torques, compute time.

What the one-process demo (``robot_dynamics_bringup``) returns and prints, and its figure:
the tracking error ``q_d - q`` per joint beside the commanded torques, with and without the
dynamics node's feed-forward. The figure is built with matplotlib's object-oriented API on an
Agg canvas (no display, the session's backend untouched).
"""

from dataclasses import dataclass
import os

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure


@dataclass
class TrackingRun:
    """Recorded run: times (T,), desired/actual positions and commanded torques (T, n)."""

    joint_names: list
    t: np.ndarray
    q_desired: np.ndarray
    q: np.ndarray
    tau: np.ndarray
    compute_times: np.ndarray
    wall_time: float
    sim_time: float
    feedforward: bool = True

    @property
    def rms_error(self):
        """RMS tracking error per joint (rad or m)."""
        return np.sqrt(np.mean((self.q_desired - self.q) ** 2, axis=0))

    @property
    def max_error(self):
        """Largest absolute tracking error per joint (rad or m)."""
        return np.abs(self.q_desired - self.q).max(axis=0)


def report(result, label=''):
    """Printable tracking and compute-time summary."""
    width = max([10] + [len(name) for name in result.joint_names])
    lines = [f'{label}tracked {result.t[-1] - result.t[0]:.2f} s of trajectory in '
             f'{result.wall_time:.1f} s wall time ({len(result.t)} control cycles)',
             f'{"joint":>{width}} {"rms error":>12} {"max error":>12}']
    for name, rms, worst in zip(result.joint_names, result.rms_error, result.max_error):
        lines.append(f'{name:>{width}} {rms:12.3e} {worst:12.3e}')
    if result.compute_times.size:
        ms = result.compute_times * 1e3
        lines.append(f'dynamics_node compute time per message: median {np.median(ms):.3f} ms, '
                     f'mean {ms.mean():.3f} ms (one slow message moves it), '
                     f'p99 {np.percentile(ms, 99):.3f} ms, max {ms.max():.3f} ms '
                     f'({ms.size} messages)')
    return '\n'.join(lines)


#: Why the commanded torques step at the waypoints of the demo's rest-to-rest moves (issue 36):
#: q̈_d is continuous there, but each joint stops and reverses, and its Coulomb friction
#: ``Fc sign(q̇)`` flips (PUMA 560: a step of 2 Fc = 52 N m on joint 1).
STEP_NOTE = ('steps: a joint stops and reverses at each waypoint, so its Coulomb friction '
             'Fc sign(qd) flips')


def demo_figure(result, baseline=None, title=''):
    """Tracking error per joint beside the commanded torques, with and without feed-forward.

    One row per run: ``result`` (labelled by its mode), then ``baseline`` (the same run without
    the dynamics node's feed-forward) when given. Left: ``q_d - q`` per joint in mrad (mm for
    prismatic joints), right: the commanded torques, each panel with its legend; the torque
    panels say why they step (:data:`STEP_NOTE`). Returns the matplotlib figure.
    """
    runs = [result] + ([baseline] if baseline is not None else [])
    figure = Figure(figsize=(14, 4.2 * len(runs)))
    FigureCanvasAgg(figure)
    axes = figure.subplots(len(runs), 2, sharex=True, squeeze=False)
    for (error_axis, torque_axis), run in zip(axes, runs):
        t = run.t - run.t[0]
        mode = 'with' if run.feedforward else 'without'
        rms = 1e3 * np.sqrt(np.mean(run.rms_error ** 2))
        for j, name in enumerate(run.joint_names):
            line, = error_axis.plot(t, 1e3 * (run.q_desired[:, j] - run.q[:, j]), label=name)
            torque_axis.plot(t, run.tau[:, j], color=line.get_color(), label=name)
        error_axis.set_title(f'tracking error {mode} feed-forward (overall RMS {rms:.3g} mrad)')
        error_axis.set_ylabel('q_d - q (mrad or mm)')
        torque_axis.set_title(f'commanded torque {mode} feed-forward\n{STEP_NOTE}',
                              fontsize='small')
        torque_axis.set_ylabel('torque (N m or N)')
        for axis in (error_axis, torque_axis):
            axis.legend(fontsize='x-small', loc='upper left', bbox_to_anchor=(1.01, 1.0))
    for axis in axes[-1]:
        axis.set_xlabel('time since trajectory start (s)')
    figure.suptitle(title or 'computed-torque tracking')
    figure.tight_layout()
    return figure


def plot(result, path, title='', baseline=None):
    """Write :func:`demo_figure` to a PNG at ``path``."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    demo_figure(result, baseline, title).savefig(path, dpi=100)
