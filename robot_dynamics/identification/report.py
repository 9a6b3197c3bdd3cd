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
"""The identification report: data summary, base-parameter table, validation torques, plot."""

import os

import numpy as np


def report_lines(result, names=None):
    """Return the report of an :class:`~robot_dynamics.identification.IdentificationResult`.

    Sections: data preparation; the base parameters (name, nominal, identified, relative
    standard deviation %, the physical model's value, definition); per joint the torque RMS on
    the validation samples: measured, and the error of the nominal model, of the identified
    base parameters and of the physical model.
    """
    lines = ['data:'] + ['  ' + line for line in result.data.lines()]
    lines.append(f'  {result.fit_samples} samples fitted; noise per joint (N m or N): '
                 + ', '.join(f'{s:.3g}' for s in result.sigma))
    lines.append('')
    lines.append(f'base parameters ({result.base.count}), weighted least squares:')
    rows = [(name, f'{nominal:.6g}', f'{theta:.6g}', _percent(rel), f'{physical:.6g}',
             definition)
            for name, nominal, theta, rel, physical, definition in zip(
                result.base.names, result.nominal, result.theta, result.relative_std,
                result.physical_theta, result.base.definitions)]
    lines += _table(('name', 'nominal', 'identified', 'std %', 'physical', 'definition'), rows)
    check = result.validation
    if check is not None:
        lines.append('')
        lines.append(f'validation ({len(check.t)} samples held back): torque RMS per joint')
        rows = [(joint, f'{measured:.4g}', f'{a:.4g}', f'{b:.4g}', f'{c:.4g}')
                for joint, measured, a, b, c in zip(
                    names or result.model.joint_names,
                    check.measured_rms, check.error_rms('nominal'), check.error_rms('base'),
                    check.error_rms('physical'))]
        rows.append(('all', '100 %', *(f'{100 * check.relative_error(w):.3g} %'
                                       for w in ('nominal', 'base', 'physical'))))
        lines += _table(('joint', 'measured', 'error nominal', 'error base',
                         'error physical'), rows)
    return lines


def _percent(value):
    return 'inf' if not np.isfinite(value) else f'{value:.3g}'


def _table(headers, rows):
    cells = [list(headers)] + [list(row) for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row):
        return '  ' + '  '.join(c.ljust(w) if i == 0 or headers[i] == 'definition' else c.rjust(w)
                                for i, (c, w) in enumerate(zip(row, widths))).rstrip()
    return [line(cells[0]), '  ' + '  '.join('-' * w for w in widths)] + \
        [line(row) for row in cells[1:]]


def plot_validation(result, path, names=None, title=''):
    """Plot measured vs predicted torques on the validation samples to a PNG at ``path``."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    check = result.validation
    if check is None:
        raise ValueError('plot_validation: the result has no validation samples; identify '
                         'with validation > 0 or a validation recording')
    n = check.measured.shape[1]
    names = names or result.model.joint_names
    parent = os.path.dirname(os.path.abspath(path))
    os.makedirs(parent, exist_ok=True)
    figure, axes = plt.subplots(n, 1, figsize=(11, 1.8 * n + 1), sharex=True, squeeze=False)
    t = check.t - check.t[0]
    for j, axis in enumerate(axes[:, 0]):
        axis.plot(t, check.measured[:, j], color='0.6', lw=1.0, label='measured')
        axis.plot(t, check.nominal[:, j], '--', color='tab:red', lw=1.0, label='nominal model')
        axis.plot(t, check.physical[:, j], color='tab:blue', lw=1.0, label='identified model')
        axis.set_ylabel(f'{names[j]}\n(N m)', fontsize='small')
    axes[0, 0].legend(fontsize='x-small', loc='upper right', ncol=3)
    axes[0, 0].set_title(title or 'validation: measured vs predicted joint torques')
    axes[-1, 0].set_xlabel('time on the validation samples (s)')
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)
    return path
