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
"""PNG plots of simulated and planned joint trajectories (matplotlib, Agg, no display).

The figures are built with matplotlib's object-oriented API on an Agg canvas, never through
``pyplot``, so importing this module neither needs a display nor changes the backend of an
interactive session.
"""

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure


def _figure(rows, title):
    figure = Figure(figsize=(10, 2.6 * rows), layout='constrained')
    FigureCanvasAgg(figure)
    axes = figure.subplots(rows, 1, sharex=True, squeeze=False)[:, 0]
    figure.suptitle(title)
    return figure, axes


def _lines(ax, t, values, joint_names, ylabel, limits=None):
    """One line per joint; dashed ±limit lines in the joint's colour where finite."""
    for j, name in enumerate(joint_names):
        (line,) = ax.plot(t, values[:, j], label=name, linewidth=1.2)
        if limits is not None and np.isfinite(limits[j]):
            for sign in (1, -1):
                ax.axhline(sign * limits[j], color=line.get_color(), linestyle='--',
                           linewidth=0.8, alpha=0.6)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)


def _finish(figure, axes, path):
    axes[0].legend(loc='upper right', fontsize='small', ncol=min(6, len(axes[0].lines)))
    axes[-1].set_xlabel('time [s]')
    figure.savefig(path, dpi=100)
    return path


def plot_simulation(path, t, q, qd, tau, energy, joint_names, title='simulation'):
    """Write a PNG of ``q``, ``qd``, ``tau`` (T, n) and ``energy`` (T,) against ``t`` (T,), s.

    Units: rad or m, rad/s or m/s, N m or N, J. Returns ``path``.
    """
    figure, axes = _figure(4, title)
    _lines(axes[0], t, q, joint_names, 'q [rad, m]')
    _lines(axes[1], t, qd, joint_names, 'qd [rad/s, m/s]')
    _lines(axes[2], t, tau, joint_names, 'τ [N m, N]')
    axes[3].plot(t, energy, color='black', linewidth=1.2)
    axes[3].set_ylabel('energy [J]')
    axes[3].grid(True, alpha=0.3)
    return _finish(figure, axes, path)


def plot_trajectory(path, t, q, qd, tau, joint_names, velocity_limit=None, effort_limit=None,
                    title='trajectory'):
    """Write a PNG of a planned motion: ``q``, ``qd`` and feed-forward ``tau`` (T, n).

    Finite velocity and effort limits (n,) are drawn as dashed lines. Returns ``path``.
    """
    figure, axes = _figure(3, title)
    _lines(axes[0], t, q, joint_names, 'q [rad, m]')
    _lines(axes[1], t, qd, joint_names, 'qd [rad/s, m/s]', velocity_limit)
    _lines(axes[2], t, tau, joint_names, 'τ [N m, N]', effort_limit)
    return _finish(figure, axes, path)
