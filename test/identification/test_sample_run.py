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
"""The sample recording shipped to try ``identify`` on, and its truth (issue 36.4).

docs/identification.md runs ``identify`` on it (test_docs_commands); here: the files are what
tools/sample_recording.py writes, the truth explains the recorded efforts to the noise, and
what ``identify`` finds is the truth's base parameters.
"""

import pathlib
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.identification import identify
from robot_dynamics.io.recordings import read_recording
from project_files import tool_module

ROOT = pathlib.Path(__file__).resolve().parents[2]
RUN, TRUTH = ROOT / 'docs' / 'examples' / 'puma560_run.csv', \
    ROOT / 'docs' / 'examples' / 'puma560_truth.urdf'


def tool():
    """Return tools/sample_recording.py as a module."""
    return tool_module('sample_recording')


def quiet(path):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model(str(path))


def test_the_shipped_files_are_what_the_script_writes(tmp_path):
    tool().main(['--folder', str(tmp_path)])
    assert (tmp_path / 'puma560_truth.urdf').read_text() == TRUTH.read_text()
    shipped, written = read_recording(RUN), read_recording(tmp_path / 'puma560_run.csv')
    assert shipped.joint_names == written.joint_names and shipped.samples == 4000
    np.testing.assert_array_equal(shipped.t, written.t)
    np.testing.assert_allclose(shipped.position, written.position, rtol=0, atol=1.01e-7)
    np.testing.assert_allclose(shipped.effort, written.effort, rtol=0, atol=1.01e-5)
    assert RUN.stat().st_size < 1 << 20                           # small enough to ship


def test_the_truth_explains_the_efforts_to_the_noise():
    module, truth = tool(), quiet(TRUTH)
    run = read_recording(RUN)
    rng = np.random.default_rng(module.SEED)
    q, qd, qdd = module.motion(truth, rng).evaluate(run.t)
    tau = rd.inverse_dynamics(truth, q, qd, qdd)
    noise = (run.effort - tau) / np.sqrt(np.mean(tau ** 2, axis=0))
    assert np.std(noise, axis=0) == pytest.approx(np.full(6, module.NOISE), rel=0.05)
    assert np.abs(run.position - q).max() <= module.QUANTUM / 2 + 1e-7


def test_identify_finds_the_truths_base_parameters():
    nominal, truth = quiet('puma560'), quiet(TRUTH)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        result = identify(nominal, str(RUN))
    base = rd.base_parameters(nominal)
    true = base.values(rd.parameters(truth))
    found = result.theta[:base.count]
    std = result.std[:base.count]
    # Each well-determined base parameter within 4 of its standard deviations of the truth.
    determined = std < 0.05 * np.maximum(np.abs(true), 1e-3)
    assert determined.sum() >= 20
    assert np.all(np.abs(found - true)[determined] <= 4 * std[determined] + 1e-9), \
        [(n, f, t, s) for n, f, t, s, d in zip(base.names, found, true, std, determined) if d]
    assert result.validation.relative_error('physical') == pytest.approx(
        result.validation.relative_error('base'), rel=0.01)


def test_identify_warns_once_on_a_terminal_and_on_stderr_when_piped(
        tmp_path, capsys, monkeypatch):
    """A new user saw every WARNING twice: in the report on stdout and again on stderr."""
    from cli_helpers import run
    args = ('identify', 'puma560', RUN, '-o', tmp_path / 'sample.urdf', '--force')
    code, out, err = run(capsys, *args)                  # captured: stdout is not a terminal
    assert code == 0, err
    in_report = [line for line in out.splitlines() if line.startswith('WARNING: ')]
    assert in_report and err.count('robot-dynamics identify: WARNING: ') == len(in_report)
    monkeypatch.setattr('sys.stdout.isatty', lambda: True)
    code, out, err = run(capsys, *args)
    assert code == 0 and 'WARNING: ' in out and 'identify: WARNING' not in err
