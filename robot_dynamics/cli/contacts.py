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
"""``contacts``: external torques, thresholds and contact events of a recorded run."""

import os
import sys
import warnings

import numpy as np

import robot_dynamics as rd
from robot_dynamics.cli.common import (
    CLIError, add_model_argument, check_outputs, load_model, model_inputs, output_prefix,
    print_json,
)
from robot_dynamics.contacts import (
    CollisionThresholds, collision_thresholds, detect_collisions, external_wrench,
    observer_samples,
)
from robot_dynamics.contacts.observer import DEFAULT_GAIN, HOLDS
from robot_dynamics.contacts.report import plot_contacts, report_lines, write_csv
from robot_dynamics.contacts.thresholds import SAFETY
from robot_dynamics.io.recordings import RecordingError, read_recording
from robot_dynamics.io.thresholds_yaml import ThresholdsError

CONTACTS_EPILOG = """\
examples:
  robot-dynamics identify panda run.csv -o out/arm.urdf        # writes out/arm.contacts.yaml
  robot-dynamics contacts out/arm.urdf session.mcap -o out/session
  robot-dynamics contacts panda session.csv --learn 0:20 -o out/session
  robot-dynamics contacts my_arm.urdf bag/ --thresholds arm.contacts.yaml --link tool0 --json

RECORDING is a rosbag2 directory, .db3 or .mcap file of sensor_msgs/JointState (position,
velocity when recorded, effort: the measured motor torques) or a CSV file (t, q_<joint>,
qd_<joint>, tau_<joint>). The generalized-momentum observer estimates the external joint
torques at every sample (gain K: a step is seen as 1 - e^(-K t)); joint j is in contact
where |estimate| exceeds its threshold a + b|qd| + c|d(M qd)/dt| + d|G(q)|. Thresholds come
from --thresholds FILE, else from MODEL.contacts.yaml next to a URDF MODEL (robot-dynamics
identify writes it), else are learnt with --learn START:END (seconds of the recording
without contact; written to PREFIX.contacts.yaml). Prints the thresholds, the largest
estimate per joint and every contact event (time, joints, peak); writes PREFIX.csv (t,
tau_ext_<joint>, threshold_<joint>, contact) and PREFIX.png (measured vs model torque,
estimate and threshold band, contacts shaded). Rows with NaN, repeated stamps or stale
repeats are dropped and said so (no estimate there). Never writes over the recording, MODEL
or the thresholds it reads, nor over an existing file without --force. Exit code 0 with or
without contacts. See docs/contacts.md.
"""


def add_parsers(subparsers, formatter):
    """Register ``contacts``."""
    parser = subparsers.add_parser(
        'contacts', help='external torques, collision thresholds and contact events of a run',
        description='Estimate external joint torques of a recording and detect contacts.',
        epilog=CONTACTS_EPILOG, formatter_class=formatter)
    add_model_argument(parser)
    parser.add_argument('recording', metavar='RECORDING',
                        help='rosbag2 directory, .db3, .mcap or .csv')
    parser.add_argument('--topic', help='JointState topic (default: the one with the model\'s '
                        'joints; of several, the one with their efforts, then the fastest)')
    parser.add_argument('--thresholds', metavar='FILE.yaml',
                        help='collision thresholds (default: MODEL.contacts.yaml beside MODEL)')
    parser.add_argument('--learn', metavar='START:END',
                        help='learn the thresholds on this window of the recording, s (it '
                             'must hold no contact)')
    parser.add_argument('--gain', type=float, default=None, metavar='K',
                        help=f'observer gain with --learn, 1/s (default {DEFAULT_GAIN:g})')
    parser.add_argument('--hold', choices=HOLDS, default=None,
                        help='efforts between samples with --learn: linear (sampled signals, '
                             'default) or previous (held commands)')
    parser.add_argument('--safety', type=float, default=None, metavar='F',
                        help=f'safety factor on the learnt envelope with --learn (default '
                             f'{SAFETY:g})')
    parser.add_argument('--link', metavar='LINK',
                        help='also estimate the wrench on this link at each event\'s peak')
    parser.add_argument('-o', '--output', metavar='PREFIX',
                        help='writes PREFIX.csv, PREFIX.png (default contacts)')
    parser.add_argument('--no-plot', action='store_true', help='write no plot')
    parser.add_argument('--force', action='store_true',
                        help='replace output files that exist (never the recording, MODEL or '
                             'the thresholds read)')
    parser.add_argument('--json', action='store_true', help='machine-readable report')
    parser.set_defaults(handler=run_contacts)


def thresholds_for(args, model, samples, prefix):
    """Return the thresholds, where they came from and the file written (None: none)."""
    if args.thresholds and args.learn:
        raise CLIError('--thresholds and --learn: give one (a file, or a window to learn on)')
    learning = {'--gain': args.gain, '--hold': args.hold, '--safety': args.safety}
    given = [flag for flag, value in learning.items() if value is not None]
    if given and not args.learn:
        raise CLIError(f'{", ".join(given)}: only with --learn; thresholds hold for the gain, '
                       'hold and safety they were learnt with (they are in their file)')
    if args.learn:
        start, end = _window(args.learn)
        window = samples.between(start, end)
        if len(window.t) < 2:
            raise CLIError(f'--learn {args.learn}: no samples in {start:g} - {end:g} s (the '
                           f'recording spans {samples.t[0]:.6g} - {samples.t[-1]:.6g} s)')
        learnt = collision_thresholds(
            model, window.t, window.q, window.qd, window.tau, gain=args.gain,
            hold=args.hold or 'linear', safety=SAFETY if args.safety is None else args.safety,
            source=f'{args.recording}, {start:g} - {end:g} s, {len(window.t)} samples without '
            'contact')
        path = learnt.write(prefix + '.contacts.yaml', comment=f'for model {args.model}')
        return learnt, f'learnt on {start:g} - {end:g} s', path
    path = args.thresholds or _beside(args.model)
    if path is None:
        raise CLIError('no collision thresholds: give --thresholds FILE (robot-dynamics '
                       'identify writes MODEL.contacts.yaml beside the model it identifies) '
                       'or --learn START:END, seconds of the recording without contact')
    return CollisionThresholds.read(path), path, None


def _window(text):
    try:
        start, end = (float(x) for x in text.split(':'))
    except ValueError:
        raise CLIError(f'--learn: {text!r}; give START:END in seconds, e.g. 0:20') from None
    if not end > start:
        raise CLIError(f'--learn: {text!r}; END must be after START')
    return start, end


def _beside(model_path):
    stem, ext = os.path.splitext(str(model_path))
    path = stem + '.contacts.yaml'
    return path if ext in ('.urdf', '.yaml', '.yml') and os.path.isfile(path) else None


def run_contacts(args):
    """Estimate, detect, print the report, write the CSV and the plot."""
    model = load_model(args)
    prefix = output_prefix(args.output, 'contacts')
    inputs = [('recording', args.recording)] + model_inputs(args) + (
        [('thresholds', args.thresholds)] if args.thresholds else [])
    check_outputs([prefix + '.csv'] + ([] if args.no_plot else [prefix + '.png'])
                  + ([prefix + '.contacts.yaml'] if args.learn else []), inputs, args.force)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', rd.ModelWarning)
        try:
            samples = observer_samples(read_recording(args.recording, args.topic,
                                                      model.joint_names), model)
            thresholds, origin, learnt = thresholds_for(args, model, samples, prefix)
            detection = detect_collisions(model, samples.t, samples.q, samples.qd, samples.tau,
                                          thresholds)
        except (RecordingError, ThresholdsError) as exc:
            raise CLIError(str(exc)) from None
    notes = list(samples.notes) + [' '.join(str(w.message).split()) for w in caught]
    thresholds = thresholds.for_model(model)
    wrenches = _wrenches(args, model, samples, detection)
    written = [path for path in (learnt, write_csv(detection, prefix + '.csv')) if path]
    if not args.no_plot:
        written.append(plot_contacts(model, samples, detection, prefix + '.png',
                                     thresholds.gain, title=f'{model.name}: {args.recording}'))
    for note in notes:
        print(f'robot-dynamics contacts: WARNING: {note}', file=sys.stderr)
    if args.json:
        print_json(_json(args, model, samples, thresholds, origin, detection, wrenches, notes,
                         written))
        return 0
    rate = 1.0 / np.median(np.diff(samples.t))
    print(f'recording: {args.recording}, {len(samples.t)} samples, {samples.t[0]:.6g} - '
          f'{samples.t[-1]:.6g} s ({rate:.4g} Hz median)')
    print(f'model: {model.name}; observer gain {_gains(thresholds.gain)} 1/s (time constant '
          f'{1e3 / thresholds.gain.min():.3g} ms), efforts {thresholds.hold}; thresholds: '
          f'{origin}')
    print('\n'.join(report_lines(detection, thresholds)))
    for time, wrench in wrenches:
        print(f'  wrench on {args.link} at the peak, {time:.4f} s: [' + ', '.join(
            f'{x:.3g}' for x in wrench.wrench) + f'] N, N m (base axes); {wrench.message}')
    for path in written:
        print(f'wrote {path}')
    return 0


def _gains(gain):
    return f'{gain[0]:g}' if np.all(gain == gain[0]) else ', '.join(f'{k:g}' for k in gain)


def _wrenches(args, model, samples, detection):
    """Return (time, wrench on ``--link``) at each event's peak sample (none without --link)."""
    if not args.link:
        return []
    out = []
    for event in detection.events:
        inside = (detection.t >= event.start) & (detection.t <= event.end)
        ratio = np.where(inside[:, None], np.abs(detection.tau_ext) / detection.threshold, 0)
        k = int(np.argmax(ratio.max(axis=1)))
        out.append((float(detection.t[k]),
                    external_wrench(model, samples.q[k], detection.tau_ext[k], args.link)))
    return out


def _json(args, model, samples, thresholds, origin, detection, wrenches, notes, written):
    return {
        'model': model.name, 'recording': args.recording, 'samples': len(samples.t),
        'span': [samples.t[0], samples.t[-1]], 'joints': model.joint_names,
        'gain': thresholds.gain, 'hold': thresholds.hold, 'thresholds_from': origin,
        'thresholds': {k: getattr(thresholds, k) for k in ('constant', 'velocity',
                                                           'momentum_rate', 'gravity', 'peak')},
        'max_abs_estimate': np.abs(detection.tau_ext).max(axis=0),
        'max_ratio': (np.abs(detection.tau_ext) / detection.threshold).max(axis=0),
        'events': [dict(start=e.start, end=e.end, joints=e.joints, peak_joint=e.peak_joint,
                        peak_torque=e.peak_torque, peak_ratio=e.peak_ratio,
                        **({'wrench_time': w[0], 'wrench': w[1].wrench,
                            'wrench_observable': w[1].observable} if w else {}))
                   for e, w in zip(detection.events, wrenches or [None] * len(detection.events))],
        'notes': notes, 'files': written}
