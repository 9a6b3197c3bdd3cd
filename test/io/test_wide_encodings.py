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
"""A URDF saved as UTF-16 or UTF-32 (Windows PowerShell's ``xacro ... > robot.urdf``).

Red-team finding: the error said "invalid start byte at byte 0; save it as UTF-8, or declare
its encoding: <?xml version="1.0" encoding="ISO-8859-1"?>", and declaring ISO-8859-1 turns the
file into NUL characters. TinyXML (Pinocchio, KDL) cannot read these files either: refused,
naming the encoding and the conversion.

Sweep finding: NUL characters *after* the document (a C string's terminator written out, as
in pybullet's ``humanoid.urdf``) were refused as "UTF-16 or UTF-32?", where TinyXML, reading a
C string, stops at the first NUL and loads the file: they are dropped.
"""

import codecs

import pytest

import robot_dynamics as rd

URDF = ('<?xml version="1.0" encoding="{0}"?>\n<robot name="r"><link name="a"/><link name="b">'
        '<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" '
        'iyz="0"/></inertial></link><joint name="j" type="continuous"><parent link="a"/>'
        '<child link="b"/></joint></robot>')


@pytest.mark.parametrize('codec, mark, name', [
    ('utf-16-le', codecs.BOM_UTF16_LE, 'UTF-16'), ('utf-16-be', codecs.BOM_UTF16_BE, 'UTF-16'),
    ('utf-32-le', codecs.BOM_UTF32_LE, 'UTF-32'), ('utf-32-be', codecs.BOM_UTF32_BE, 'UTF-32')])
def test_a_wide_encoding_is_named_with_the_conversion(tmp_path, codec, mark, name):
    path = tmp_path / 'robot.urdf'
    path.write_bytes(mark + URDF.format(name).encode(codec))
    with pytest.raises(rd.URDFError) as error:
        rd.RobotModel.from_urdf(str(path))
    message = str(error.value)
    assert f'byte-order mark of {name}' in message and 'not UTF-8' in message
    assert f'iconv -f {name} -t UTF-8' in message and 'ISO-8859-1' not in message


def test_the_same_file_in_utf8_loads(tmp_path):
    path = tmp_path / 'robot.urdf'
    path.write_bytes(codecs.BOM_UTF8 + URDF.format('UTF-8').encode('utf-8'))
    assert rd.RobotModel.from_urdf(str(path)).joint_names == ('j',)


@pytest.mark.parametrize('tail', ['\x00', '\r\n\x00', '\x00\x00\n', '\n\x00\n\x00'])
def test_nul_characters_after_the_document_are_dropped_as_tinyxml_does(tmp_path, tail):
    """A C string's terminator written out after ``</robot>`` (sweep: pybullet's humanoid)."""
    text = URDF.format('UTF-8') + tail
    path = tmp_path / 'robot.urdf'
    path.write_bytes(text.encode('utf-8'))
    for given in (text, text.encode('utf-8'), str(path)):
        assert rd.RobotModel.from_urdf(given).joint_names == ('j',)


def test_a_nul_character_inside_the_document_is_still_refused():
    text = URDF.format('UTF-8').replace('<link name="a"/>', '<link name="a"/>\x00')
    with pytest.raises(rd.URDFError, match='NUL characters'):
        rd.RobotModel.from_urdf(text)
