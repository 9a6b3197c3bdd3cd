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
"""The compiled filter's shortcuts give what the Python code they stand for gives, bit for bit.

- Its number readers (``io/src/urdf_numbers.c``) and rotation entries (``urdf_rotations.c``)
  against the Python definitions they replace (:data:`robot_dynamics.io.urdf_numbers.PYTHON`);
  its own decimal reader against ``float``.
- Its names are the loader's own (interned) strings, so ``find`` and ``get`` match by
  identity; any other name is still read.
"""

import itertools
import math
import random
import sys
import xml.etree.ElementTree as ET

import pytest

from robot_dynamics.io import _urdf_scan, urdf_numbers          # built with the package

TEXTS = ['0', '1', '-1', '3.7', ' 3.7', '3.7 ', '1e308', '1e309', '-1e309', 'inf', '-inf', 'nan',
         'NaN', 'Infinity', '1_0', '\uff13', '1,5', '', ' ', '\t1', '1\n', '0x10', '1e', '.5',
         '5.', '+.5e-3', '0.014972358333333331', '1e-400', '\u00a01', '1\u2003', 'abc', '--1',
         '1 2', '1  2 3', '1 2 3', '0 0 0', '1e308 1e308 0', 'nan 0 0', '\x7f1', '1~', '${a}',
         '-0', '-0.0 0 0', '1\x1c2\x1f3', '1\x0b2\x0c3\r', '0.5 \x1b1 2', '1 2 3 4']


def same(a, b):
    """Equal and of one type, floats bit for bit (NaN equal to NaN)."""
    if isinstance(a, float) and isinstance(b, float):
        return math.isnan(a) and math.isnan(b) or a.hex() == b.hex()
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    return type(a) is type(b) and a == b


def outcome(function, *args):
    try:
        return function(*args)
    except (TypeError, ValueError) as exc:
        return type(exc)


def test_the_compiled_readers_are_the_loaders():
    assert urdf_numbers.plain_floats is _urdf_scan.plain_floats
    assert urdf_numbers.plain_pose is _urdf_scan.plain_pose
    assert urdf_numbers.plain_number is _urdf_scan.plain_number
    assert urdf_numbers.plain_numbers is _urdf_scan.plain_numbers
    assert urdf_numbers.rpy_entries is _urdf_scan.rpy_entries


@pytest.mark.parametrize('name', ['plain_number', 'plain_numbers', 'plain_pose', 'plain_floats',
                                  'rpy_entries'])
def test_a_compiled_reader_gives_the_python_readers_result(name):
    compiled, python = getattr(_urdf_scan, name), urdf_numbers.PYTHON[name]
    if name == 'rpy_entries':                # an origin's rotation: the C library's cos, sin
        rng = random.Random(9)
        angles = [0.0, -0.0, math.pi / 2, -math.pi / 2, math.pi, 1e-300, 1e22, 3]
        cases = [([1.0, 2.0],), ((1.0, 2.0, 3.0, 4.0),)] + [
            ([rng.choice(angles) if rng.random() < 0.3 else rng.uniform(-7, 7)
              for _ in range(3)],) for _ in range(3000)]
    elif name == 'plain_number':
        cases = [(text,) for text in TEXTS + [None, 3, b'1']]
    elif name == 'plain_numbers':
        cases = [(text, count) for text in TEXTS + [f'{a} {b}' for a, b in itertools.product(
            TEXTS, repeat=2)] for count in (1, 2, 3)]
    elif name == 'plain_pose':
        cases = list(itertools.product(TEXTS, repeat=2))
    else:
        rng = random.Random(5)
        cases = [([],)] + [(rng.choices(TEXTS + [None], k=rng.randint(1, 6)),)
                           for _ in range(3000)]
    for args in cases:
        assert same(outcome(compiled, *args), outcome(python, *args)), args


def decimal_texts(rng, count):
    """Decimal texts as exporters write them, and halfway cases between two doubles."""
    texts = ['9007199254740993', '9007199254740995', '18446744073709551615', '1e-27', '1e27',
             '9999999999999999999e27', '123456789012345678e-27', '-0', '0e-999', '1e1000']
    for _ in range(count):
        value = rng.uniform(-10, 10) * 10.0 ** rng.randint(-30, 30)
        digits = ''.join(rng.choice('0123456789') for _ in range(rng.randint(1, 21)))
        point = rng.randint(0, len(digits))
        texts += [repr(value), f'{value:.{rng.randint(0, 20)}e}',
                  f'{value:.{rng.randint(0, 22)}f}',
                  f'{rng.randint(2 ** 53, 2 ** 64)}e{rng.randint(-30, 30)}',      # ties, many
                  f"{rng.choice(['', '-', '+'])}{digits[:point]}.{digits[point:]}"
                  f"{rng.choice(['', 'e', 'E-', 'e+'])}{rng.randint(0, 40)}"]
    return texts


def test_the_compiled_decimal_reader_rounds_as_float():
    # plain_number reads a plain decimal of up to 19 digits itself (m 10^e rounded once);
    # float() rounds correctly too, so the bits must agree; others go to float().
    for text in decimal_texts(random.Random(7), 4000):
        try:
            expected = float(text)
        except ValueError:
            expected = None
        assert same(_urdf_scan.plain_number(text), expected), text


def test_the_filters_names_are_the_loaders_strings():
    builder = ET.TreeBuilder()
    _urdf_scan.scan('<robot name="r"><link name="a"><inertial><mass value="1"/></inertial>'
                    '</link><joint name="j" type="fixed" odd="1"><parent link="a"/><other/>'
                    '</joint></robot>', builder)
    root = builder.close()
    link, joint = root
    assert link.tag is sys.intern('link') and joint[0].tag is sys.intern('parent')
    assert next(iter(link.attrib)) is sys.intern('name')
    assert link.find('inertial').find('mass').get('value') == '1'
    assert joint.get('odd') == '1' and joint[1].tag == 'other'      # names not in the table
