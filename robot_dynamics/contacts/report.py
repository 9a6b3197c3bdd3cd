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
"""The contact report: thresholds, events, the estimate per sample (CSV) and a plot."""

import os

import numpy as np

from robot_dynamics.api import inverse_dynamics


def report_lines(detection, thresholds):
    """Return the report: the thresholds and the largest ``|τ̂_ext| / T`` per joint, events."""
    rows = []
    ratio = np.abs(detection.tau_ext) / detection.threshold
    width = max([5] + [len(name) for name in detection.joint_names])
    for j, name in enumerate(detection.joint_names):
        rows.append(f'  {name:<{width}} {thresholds.constant[j]:9.3g} '
                    f'{thresholds.velocity[j]:9.3g} '
                    f'{thresholds.momentum_rate[j]:9.3g} {thresholds.gravity[j]:9.3g} '
                    f'{thresholds.peak[j]:9.3g} {np.abs(detection.tau_ext[:, j]).max():9.3g} '
                    f'{ratio[:, j].max():7.2f}')
    lines = [f'thresholds T = a + b |qd| + c |d(M qd)/dt| + d |G(q)| (safety '
             f'{thresholds.safety:g}; {thresholds.source or "learnt"}):',
             f'  {"joint":<{width}} {"a":>9} {"b":>9} {"c":>9} {"d":>9} {"learnt":>9} '
             f'{"max|est|":>9} {"max r/T":>7}'] + rows + [
                 '  learnt: the largest |estimate| in the learning run; max|est|: in this run; '
                 'max r/T: its largest ratio to the threshold (over 1: contact)']
    events = detection.events
    in_contact = float(np.count_nonzero(detection.contact)) / len(detection.t)
    lines.append(f'contact events: {len(events)} ({100 * in_contact:.3g} % of the samples)')
    lines += ['  ' + event.describe() for event in events[:50]]
    if len(events) > 50:
        lines.append(f'  ... and {len(events) - 50} more (see the CSV)')
    return lines


def write_csv(detection, path):
    """Write ``t, tau_ext_<joint>…, threshold_<joint>…, contact`` per sample; return the path."""
    names = detection.joint_names
    header = ','.join(['t'] + [f'tau_ext_{n}' for n in names] + [f'threshold_{n}' for n in names]
                      + ['contact'])
    table = np.column_stack((detection.t, detection.tau_ext, detection.threshold,
                             detection.contact.astype(float)))
    np.savetxt(path, table, delimiter=',', header=header, comments='', fmt='%.9g')
    return path


def plot_contacts(model, samples, detection, path, gain, title=''):
    """Per joint: measured vs model torque (left); the estimate, ±threshold, contacts (right).

    The model torque is ``ID(q, q̇, q̈)`` with ``q̈`` the recorded ``q̇``'s rate through the
    observer's filter of gain ``gain`` (n,) (so it lags as the estimate does, without the
    noise of a raw derivative). Writes a PNG to ``path``; returns it.
    """
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    n = model.dof
    t = samples.t - samples.t[0]
    model_tau = inverse_dynamics(model, samples.q, samples.qd,
                                 filtered_rate(samples.t, samples.qd, gain))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    figure, axes = plt.subplots(n, 2, figsize=(13, 1.7 * n + 1.2), sharex=True, squeeze=False)
    spans = [(e.start - samples.t[0], e.end - samples.t[0]) for e in detection.events]
    for j, name in enumerate(model.joint_names):
        unit = 'N' if model.joint_types[j] == 'prismatic' else 'N m'
        left, right = axes[j]
        left.plot(t, samples.tau[:, j], color='0.6', lw=0.8, label='measured')
        left.plot(t, model_tau[:, j], color='tab:blue', lw=0.9, label='model')
        left.set_ylabel(f'{name}\n({unit})', fontsize='small')
        band = detection.threshold[:, j]
        right.fill_between(t, -band, band, color='tab:green', alpha=0.2, lw=0,
                           label='threshold band')
        right.plot(t, detection.tau_ext[:, j], color='tab:red', lw=0.8, label='estimate')
        for start, end in spans:
            right.axvspan(start, max(end, start + 1e-3), color='tab:orange', alpha=0.3, lw=0)
    axes[0, 0].legend(fontsize='x-small', loc='upper right', ncol=2)
    axes[0, 1].legend(fontsize='x-small', loc='upper right', ncol=2)
    axes[0, 0].set_title('joint torques: measured vs model', fontsize='small')
    axes[0, 1].set_title('external torque estimate, threshold band, contacts (orange)',
                         fontsize='small')
    for axis in axes[-1]:
        axis.set_xlabel(f'time since {samples.t[0]:.6g} s (s)')
    if title:
        figure.suptitle(title, fontsize='small')
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    plt.close(figure)
    return path


def filtered_rate(t, x, gain):
    """Return ``ẋ`` (N, n) through the observer's filter: ``y⁺ = y + (1 - e^{-K h}) (Δx/h - y)``.

    ``t`` (N,), ``x`` (N, n), ``gain`` K (n,) 1/s; zero at the first sample.
    """
    h = np.diff(t)[:, None]
    rate = np.diff(x, axis=0) / h
    b = -np.expm1(-np.asarray(gain) * h)
    out = np.zeros_like(x)
    for k in range(len(h)):
        out[k + 1] = out[k] + b[k] * (rate[k] - out[k])
    return out
