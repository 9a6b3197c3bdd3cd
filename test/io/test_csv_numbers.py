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
"""A CSV of numbers alone is read by numpy's C reader: the same values, no work per cell.

Was (issue 32, after the second red team): every cell through the ``csv`` module and
``float``, 3.5 Python calls per row; a 200,000-row, 19-column file took 3.0 s against 2.1 s
before the new formats (benchmarks: CHANGELOG). The files that need the cell-by-cell reading
(empty cells, text columns, dates) are read by it as before (test_real_exports.py).
"""

import sys

import numpy as np

from robot_dynamics.io.recordings import Recording, read_csv, write_csv


def python_calls(function):
    """Return the number of Python and C function calls ``function()`` makes (a profiler's)."""
    count = [0]

    def counter(frame, event, arg):
        count[0] += event in ('call', 'c_call')
    sys.setprofile(counter)
    try:
        function()
    finally:
        sys.setprofile(None)
    return count[0]


def random_run(path, rows, seed=0):
    rng = np.random.default_rng(seed)
    names = tuple(f'joint{k}' for k in range(1, 7))
    q, qd, tau = (rng.standard_normal((rows, 6)) for _ in range(3))
    return write_csv(path, Recording(names, 1.7e9 + np.arange(rows) / 1e3, q, tau, qd))


def test_a_csv_of_numbers_costs_no_python_call_per_cell(tmp_path):
    small, large = random_run(tmp_path / 'small.csv', 2000), random_run(tmp_path / 'large.csv',
                                                                        20000)
    read_csv(small)                                  # the first call's imports and regexes
    per_row = (python_calls(lambda: read_csv(large)) - python_calls(lambda: read_csv(small))) \
        / 18000
    assert per_row < 0.5, per_row                   # was 3.5 (19 cells a row); now the
    #                                                 text decoder's, per 8 kB: 0.13


def test_the_c_reader_gives_pythons_floats_to_the_last_bit(tmp_path):
    rng = np.random.default_rng(3)
    values = np.concatenate([rng.standard_normal(40) * 10.0 ** rng.integers(-300, 300, 40),
                             [5e-324, -0.0, 1.7976931348623157e308, np.inf, -np.inf, np.nan,
                              0.1, 1 / 3, 2.0 ** -1074 * 3, 123456789012345678.0]])
    texts = [repr(float(x)) for x in values] + ['1e5', ' 2.5 ', '+7', '.5', '5.', 'NaN',
                                                '1E-3', '-Infinity', '"0.25"']
    path = tmp_path / 'digits.csv'
    path.write_text('t,q_a,tau_a\n' + ''.join(f'{k},{text},{k}\n' for k, text in enumerate(texts)))
    back = read_csv(path)
    expected = [float(text.strip('"')) for text in texts]
    assert np.array_equal(back.position[:, 0], expected, equal_nan=True)
    assert np.array_equal(np.signbit(back.position[:, 0]), np.signbit(expected))
    assert np.array_equal(back.t, np.arange(len(texts)))


def test_spaces_and_decimal_commas_read_at_once_as_cell_by_cell(tmp_path):
    rows = [(0.0, 1.25, -2.5), (0.001, 1.5, -2.75)]
    spaced = tmp_path / 'spaced.csv'                 # numpy.savetxt, with two spaces
    spaced.write_text('t q_a tau_a\n' + ''.join(f'{t}  {q} {tau}\n' for t, q, tau in rows))
    european = tmp_path / 'european.csv'
    european.write_text('t;q_a;tau_a\n' + ''.join(
        f'{t};{q};{tau}\n'.replace('.', ',') for t, q, tau in rows))
    gap = tmp_path / 'gap.csv'                       # an empty cell: read cell by cell
    gap.write_text('t,q_a,tau_a\n' + ''.join(f'{t},{q},{tau}\n' for t, q, tau in rows)
                   + '0.002,,-3\n')
    for path in (spaced, european, gap):
        back = read_csv(path)
        assert np.array_equal(back.t[:2], [0.0, 0.001]), path
        assert np.array_equal(back.position[:2, 0], [1.25, 1.5]), path
        assert np.array_equal(back.effort[:2, 0], [-2.5, -2.75]), path
    assert np.isnan(read_csv(gap).position[2, 0])


def test_empty_cells_anywhere_are_nan_and_cost_no_call_per_cell(tmp_path):
    # PlotJuggler's export: each row empty in the other topics' columns.
    rng = np.random.default_rng(4)
    rows = 3000
    values = rng.standard_normal((rows, 5))
    values[rng.random((rows, 5)) < 0.3] = np.nan                 # runs of empty cells too
    values[:, 1] = np.where(np.isnan(values[:, 1]), 0.5, values[:, 1])    # positions: some
    values[-1, 4] = np.nan                                       # the last cell of the file
    values[0, 0] = 0.0
    values[:, 0] = np.arange(rows) / 100.0                       # time
    path = tmp_path / 'gaps.csv'
    text = 't,q_a,q_b,tau_a,tau_b\n' + ''.join(
        ','.join('' if np.isnan(x) else repr(float(x)) for x in row) + '\n' for row in values)
    path.write_text(text[:-1])                                   # no newline at the end
    back = read_csv(path)
    assert np.array_equal(back.position, values[:, 1:3], equal_nan=True)
    assert np.array_equal(back.effort, values[:, 3:], equal_nan=True)
    small = tmp_path / 'small.csv'
    small.write_text(''.join(text.splitlines(keepends=True)[:301]))
    read_csv(small)
    per_row = (python_calls(lambda: read_csv(path)) - python_calls(lambda: read_csv(small))) \
        / (rows - 300)
    assert per_row < 0.5, per_row
