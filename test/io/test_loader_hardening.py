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
"""Loader hardening (issue 14): limits, duplicate keys, bounded input, quiet parse errors.

Limits that are not "unlimited", YAML that is not ambiguous, bounded DH input, numpy numbers,
and parse errors that name the line and column but do not quote the document.
"""

import warnings

import numpy as np
import pytest

from robot_dynamics.errors import DHError, ModelError, URDFError
from robot_dynamics.io import dh
from robot_dynamics.io.files import strict_float
from robot_dynamics.io.urdf_elements import parse
from robot_dynamics.io.urdf_numbers import number, numbers
from robot_dynamics.model import ModelWarning, RobotModel
from cost import peak_bytes
from robots import joint, link, robot

LINK = {'a': 0.1, 'alpha': 0.0, 'd': 0.0, 'mass': 1.0}


def load_urdf(document):
    """Load quietly (model warnings are not under test here)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        return RobotModel.from_urdf(document)


def one_joint(limit):
    """Return a one-joint URDF with the given <limit …/> element."""
    return robot('<link name="b"/>', link('a'), joint('j', 'b', 'a', extra=limit))


@pytest.mark.parametrize('limit, message', [
    ('<limit lower="-1" upper="1" effort="-5" velocity="1"/>', 'effort="-5.0"> must be >= 0'),
    ('<limit lower="-1" upper="1" effort="5" velocity="-1"/>', 'velocity="-1.0"> must be'),
])
def test_urdf_limits_that_are_errors(limit, message):
    with pytest.raises(URDFError, match=message):
        load_urdf(one_joint(limit))


def test_urdf_limits_left_out_or_zero_mean_not_given():
    """``lower``/``upper`` left out or equal: no position limit; effort/velocity 0: not given.

    Equal ``lower``/``upper`` (zero width) no longer fix the joint (issue 32): it moves, as in
    Pinocchio and KDL (test_urdf_exporters.py).
    """
    for limit in ('<limit effort="0" velocity="0"/>',
                  '<limit lower="0.5" upper="0.5" effort="0" velocity="0"/>'):
        model = load_urdf(one_joint(limit))
        assert model.lower_limit[0] == -np.inf and model.upper_limit[0] == np.inf
        assert model.effort_limit[0] == np.inf and model.velocity_limit[0] == np.inf
    model = load_urdf(one_joint('<limit lower="-1" upper="2" effort="7" velocity="3"/>'))
    assert (model.lower_limit[0], model.upper_limit[0], model.effort_limit[0],
            model.velocity_limit[0]) == (-1.0, 2.0, 7.0, 3.0)


@pytest.mark.parametrize('text, key, line', [
    ('name: a\nname: b\nlinks: [{a: 0, alpha: 0, d: 0}]\n', "'name'", 2),
    ('links:\n  - {a: 0.1, alpha: 0, d: 0, a: 0.2}\n', "'a'", 2),
    ('links:\n  - a: 0\n    alpha: 0\n    d: 0\n    mass: 1\n    mass: 100\n', "'mass'", 6),
])
def test_duplicate_yaml_keys_refused_naming_the_key(text, key, line):
    with pytest.raises(DHError, match=f'repeats the key {key} at line {line}'):
        RobotModel.from_dh(text)


@pytest.mark.parametrize('text', [
    'links: [\n  {a: 0, alpha: 0, d: 0, secret: hunter2-abc\n',
    'password: "hunter2-abc\nlinks: []\n',
    'links:\n  - a: 0\n   hunter2-abc: [\n',
])
def test_yaml_syntax_error_names_line_and_column_not_text(text):
    with pytest.raises(DHError, match=r'does not parse: .* at line \d+, column \d+') as info:
        RobotModel.from_dh(text)
    assert 'hunter2' not in str(info.value)


def test_oversized_dh_file_refused_without_reading_it(tmp_path):
    path = tmp_path / 'huge.yaml'
    with open(path, 'wb') as handle:                  # sparse: 200 MB, nothing written
        handle.truncate(200 * 1024 * 1024)

    def refuse():
        with pytest.raises(DHError, match='larger than 1 MiB'):
            RobotModel.from_dh(str(path))
    assert peak_bytes(refuse) < 1024 * 1024              # 200 MB were not read


def test_oversized_dh_text_refused():
    text = 'links:\n' + '  - {a: 0, alpha: 0, d: 0}\n' * 50000
    assert len(text) > dh.MAX_DH_BYTES

    def refuse():
        with pytest.raises(DHError, match='DH text is larger than 1 MiB'):
            RobotModel.from_dh(text)
    assert peak_bytes(refuse) < 1024 * 1024              # refused before YAML parsed it


@pytest.mark.parametrize('kind', [np.float16, np.float32, np.float64, np.longdouble, np.int8,
                                  np.int16, np.int32, np.int64, np.uint8, np.uint64])
def test_numpy_scalars_of_any_dtype_accepted(kind):
    document = {'convention': 'standard', 'links': [
        {'a': kind(1), 'alpha': kind(0), 'd': kind(0), 'mass': kind(2),
         'com': [kind(0), kind(0), kind(0)], 'limits': {'lower': kind(0), 'upper': kind(1)}}]}
    model = RobotModel.from_dh(document)
    assert model.mass[0] == 2.0 and model.upper_limit[0] == 1.0


def test_numpy_bool_is_not_a_number():
    with pytest.raises(DHError, match=r'links\[0\].mass: expected a number'):
        RobotModel.from_dh({'links': [dict(LINK, mass=np.bool_(True))],
                            'convention': 'standard'})


# Numbers as written in attributes: Python's float() alone would also take '1_0', non-ASCII
# digits and other spaces; the loader takes exactly what strict_float (its regex) takes.
WRITTEN = ['1', ' 1 ', '\t-2.5\n', '\x0c1', '1\x0b', '\x1c1', '1_0', '\u0661', '\uff11', '1\xa0',
           '+.5e-3', '5.', '.5', '.', 'e5', '1e', '1e+', '', ' ', '0x10', '1,5', 'inf',
           '-Infinity', 'nan', '1e999', '- 1', '1 2']


def _strict(text):
    try:
        return strict_float(text)
    except ValueError:
        return None


def _same(a, b):
    return a == b or a is not None and b is not None and np.isnan(a) and np.isnan(b)


@pytest.mark.parametrize('text', WRITTEN)
def test_urdf_numbers_take_what_strict_float_takes(text):
    """One number (mass, limits), three (origins, axes) and six (inertia) read alike."""
    try:
        one = number(text, 'x')
    except URDFError:
        one = None
    assert _same(one, _strict(text))
    parts = f'0 {text} 2'.split()
    expected = [_strict(part) for part in parts] if len(parts) == 3 else [None]
    expected = [None] if None in expected else expected          # the attribute is refused
    try:
        three = numbers(f'0 {text} 2', 3, 'x')
    except URDFError:
        three = [None]
    assert len(three) == len(expected) and all(map(_same, three, expected))
    inertia = (f'<robot name="r"><link name="a"><inertial><mass value="1"/><inertia ixx="{text}" '
               'iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>')
    try:
        moment = parse(inertia).parts('a')[2][0]
    except (URDFError, ModelError):              # not a number; not finite
        moment = None
    finite = _strict(text) is not None and np.isfinite(_strict(text))
    assert _same(moment, _strict(text) if finite else None)
