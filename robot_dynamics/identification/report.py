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
"""The identification report: data, windows, laws, parameters, links, validation, warnings."""

import os

import numpy as np

from robot_dynamics.identification.heldout import model_torques
from robot_dynamics.identification.review import link_changes


def report_lines(result, names=None):
    """Return the report of an :class:`~robot_dynamics.identification.IdentificationResult`.

    Sections: data preparation and the estimation and validation time windows; the friction
    law per joint; the parameters (name, nominal, least squares, relative standard deviation %
    from the block bootstrap, the physical model's value, definition); per link the nominal and
    identified mass, centre of mass and principal inertias; the held-out stretch and, per
    joint, the torque RMS on its recorded samples with the error of the URDF alone and with
    its friction file (what ``robot-dynamics identify`` writes), the nominal model, the
    least-squares parameters and every model scored with ``validate_models``
    (:func:`held_out_columns`); the warnings, each on a line starting ``WARNING:``.
    """
    lines = ['data:'] + ['  ' + line for line in result.data.lines()]
    lines.append(f'  {result.fit_samples} samples fitted; noise per joint (N m or N): '
                 + ', '.join(f'{s:.3g}' for s in result.sigma))
    windows = result.windows.get('estimation') or []
    if windows:
        lines.append(f'  estimation window{"s" if len(windows) > 1 else ""}, s: ' + ', '.join(
            f'{a:.3f} - {b:.3f}' for a, b in windows))
    if result.laws:
        chosen = result.details.get('chosen_laws') or result.laws
        lines.append('  friction laws (cross-validated, as the physical model holds them): '
                     + ', '.join(f'{name} {law.describe()}' + (
                         '' if law == first else f' (cross-validated {first.describe()}; its '
                         'Stribeck term held at 0)')
                         for name, law, first in zip(result.nominal_model.joint_names,
                                                     result.laws, chosen)))
    blocks = result.details.get('blocks')
    lines.append(f'  standard deviations: block bootstrap over {blocks} blocks (variance '
                 f'x{result.details.get("inflation", 1.0):.3g} of the white-noise formula)'
                 if blocks and blocks >= 10 else
                 '  standard deviations: white-noise formula s^2 (W^T W)^-1 (fewer than 10 '
                 'blocks for a bootstrap)')
    lines.append('')
    lines.append(f'parameters ({len(result.names)}: {result.base.count} base, the joints\' FV, '
                 f'FC and IA among them; {len(result.names) - result.base.count} of a further '
                 'friction law), weighted least squares:')
    definitions = list(result.base.definitions) + ['friction law term'] * (
        len(result.names) - result.base.count)
    rows = [(name, f'{nominal:.6g}', f'{theta:.6g}', _percent(rel), f'{physical:.6g}',
             definition)
            for name, nominal, theta, rel, physical, definition in zip(
                result.names, result.nominal, result.theta, result.relative_std,
                result.physical_theta, definitions)]
    lines += _table(('name', 'nominal', 'identified', 'std %', 'physical', 'definition'), rows)
    lines.append('')
    lines.append('links, nominal -> identified (mass kg, centre of mass m, principal inertia '
                 'about it kg m^2):')
    ranges = result.details.get('mass_ranges')
    ranges = np.full((result.model.dof, 2), np.nan) if ranges is None else ranges
    rows = [(name, f'{m0:.4g} -> {m:.4g}', _range(span), f'{_vector(c0)} -> {_vector(c)}',
             f'{_vector(l0)} -> {_vector(l)}')
            for (name, m0, m, c0, c, l0, l), span in zip(
                link_changes(result.nominal_model, result.model), ranges)]
    rows.append(('total', f'{result.nominal_model.total_mass:.4g} -> '
                          f'{result.model.total_mass:.4g}', '', '', ''))
    lines += _table(('link', 'mass', 'data allow (2 sd)', 'centre of mass',
                     'principal inertia'), rows)
    lines.append('  (a mass range wider than +-20 % of its middle is not determined by the data: '
                 'the identified mass is the prior\'s choice among models that fit as well)')
    compliance = result.details.get('compliance')
    if compliance is not None and np.any(compliance.used > 0):
        lines.append('  joint stiffness from the data (motor-side encoders), N m/rad: '
                     + ', '.join(f'{k:.3g}' for k in compliance.stiffness)
                     + f'; {compliance.note}')
    check = result.validation
    if check is not None:
        lines.append('')
        columns = held_out_columns(result)
        lines.append(f'held-out stretch (never fitted): {check.stretch or "held back"}, '
                     + ', '.join(f'{a:.3f} - {b:.3f}' for a, b in
                                 result.windows.get('validation') or []) + ' s: '
                     f'{len(check.t)} recorded samples; torque RMS per joint (N m or N) and '
                     'the error of each model, what identify writes first')
        rows = [(joint, f'{measured:.4g}', *(f'{check.error_rms(w)[j]:.4g}' for w in columns))
                for j, (joint, measured) in enumerate(zip(
                    names or result.model.joint_names, check.measured_rms))]
        rows.append(('all', '100 %', *(f'{100 * check.relative_error(w):.3g} %'
                                       for w in columns)))
        lines += _table(('joint', 'measured') + tuple(
            f'error {columns[w]}' for w in columns), rows)
    if result.warnings:
        lines.append('')
        lines += [f'WARNING: {warning}' for warning in result.warnings]
    return lines


def held_out_columns(result):
    """{prediction: label} of the held-out table: the written files first, then the others.

    ``written``/``urdf``: the URDF with its friction file and the URDF alone (one column
    ``URDF`` when no friction file is needed); the nominal model; the least-squares
    parameters; each ``validate_models`` label.
    """
    check = result.validation
    columns = {}
    if check.written is not None:
        rich = result.urdf_model is not None and result.urdf_model is not result.model
        columns.update({'written': 'URDF + friction file', 'urdf': 'URDF alone'} if rich
                       else {'written': 'URDF'})
    else:
        columns['physical'] = 'physical'
    columns.update({'nominal': 'nominal', 'base': 'least squares'})
    columns.update({label: label for label in check.others})
    return columns


def validate_models(result, models):
    """Score other models on the validation samples: ``models`` {label: RobotModel}.

    Each model's inverse dynamics (:func:`robot_dynamics.inverse_dynamics`, its own friction
    law and rotors) on the held-back q, q̇, q̈, its joints matched by name; adds the torques to
    ``result.validation.others``.
    """
    check = result.validation
    if check is None:
        raise ValueError('validate_models: the result has no validation samples; identify '
                         'with validation > 0 or a validation recording')
    for label, model in models.items():
        check.others[label] = model_torques(model, check, result.model.joint_names, label)
    return result


def _vector(values):
    return '[' + ' '.join(f'{v:.3g}' for v in values) + ']'


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
    identified = 'physical' if getattr(check, 'written', None) is None else 'written'
    for j, axis in enumerate(axes[:, 0]):
        axis.plot(t, check.measured[:, j], color='0.6', lw=1.0, label='measured')
        axis.plot(t, check.nominal[:, j], '--', color='tab:red', lw=1.0, label='nominal model')
        axis.plot(t, getattr(check, identified)[:, j], color='tab:blue', lw=1.0,
                  label='identified model')
        for k, (label, tau) in enumerate(check.others.items()):
            axis.plot(t, tau[:, j], ':', color=f'C{k + 2}', lw=1.0, label=label)
        unit = 'N' if result.model.joint_types[j] == 'prismatic' else 'N m'
        axis.set_ylabel(f'{names[j]}\n({unit})', fontsize='small')
    axes[0, 0].legend(fontsize='x-small', loc='upper right', ncol=3 + len(check.others))
    axes[0, 0].set_title(title or 'validation: measured vs predicted joint torques')
    axes[-1, 0].set_xlabel('time on the validation samples (s)')
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)
    return path


def _range(span):
    lo, hi = span
    if not np.isfinite(lo):
        return '-'
    return f'{lo:.3g} - {hi:.3g}' if np.isfinite(hi) else f'{lo:.3g} - inf'
