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
"""The compiled URDF filter (``io/src/urdf_scan.c``): the tree the loader reads, or it declines.

Its tree must be the full parse's (:func:`urdf_xml.parse_full`) with visuals, collisions and
every other part the loader never reads left out, written out here from the loader's reads
(:func:`kept`); wherever a refusal or a xacro check is at stake it must decline, and the
loader's answer must be the full parse's.
"""

import pathlib
import random
import xml.etree.ElementTree as ET

import pytest

from robot_dynamics.errors import URDFError
from robot_dynamics.io import urdf_xml
from robot_dynamics.io.urdf import read_urdf_text
from urdf_corpus import CORPUS

from robot_dynamics.io import _urdf_scan          # built with the package (setup.py)

BUNDLED = sorted((pathlib.Path(__file__).resolve().parents[2] / 'urdf').glob('*.urdf'))
ARM = ('<robot name="r"><link name="a"><visual><geometry><box size="1 1 1"/></geometry>'
       '</visual><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" '
       'iyz="0"/></inertial></link><link name="b"/><joint name="j" type="revolute"><parent '
       'link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
       '</joint>{extra}</robot>')


def kept(element, depth=0, link=False, text=False):
    """Return ``element``'s tree as nested tuples, only what the loader reads.

    ``<robot>``, its children, joints and transmissions whole (text only inside
    transmissions), links' ``<inertial>``s; every other child of ``<robot>`` without children.
    """
    children = list(element)
    if depth == 1:
        link, text = element.tag == 'link', element.tag == 'transmission'
        if element.tag not in ('link', 'joint', 'transmission'):
            children = []
    if depth == 1 and link:
        children = [child for child in children if child.tag == 'inertial']
    return (element.tag, element.attrib, (element.text or '') if text else '',
            (element.tail or '') if text and depth > 1 else '',
            tuple(kept(child, depth + 1, link, text) for child in children))


def scanned(text):
    """Return the filter's tree as :func:`kept` writes it and its names, or False (declined).

    The names: the prefixes of every element and attribute name, and those bound to xacro.
    """
    builder = ET.TreeBuilder()
    names = _urdf_scan.scan(text, builder)
    return names if names is False else (kept(builder.close()), *names)


def full(text):
    """Return the full parse's tree, pruned by :func:`kept`."""
    return kept(urdf_xml.parse_full(text))


@pytest.mark.parametrize('case', sorted(CORPUS))
def test_the_exporters_files_give_the_full_parses_tree_pruned(case):
    text = read_urdf_text(CORPUS[case]())            # leading blank lines dropped, as loaded
    tree, prefixes, bound = scanned(text)
    assert tree == full(text)
    whole = urdf_xml.parse_full(text)
    names = {name for element in whole.iter() for name in (element.tag, *element.attrib)}
    assert prefixes == {name.split(':')[0] for name in names if ':' in name}
    assert bound == ({'xacro'} if 'xmlns:xacro' in names else set())


@pytest.mark.parametrize('path', BUNDLED, ids=lambda path: path.stem)
def test_the_bundled_files_give_the_full_parses_tree(path):
    text = path.read_text(encoding='utf-8')
    assert scanned(text) == (full(text), set(), set())


def test_a_real_description_builds_a_third_of_its_elements():
    text = read_urdf_text(CORPUS['robot-description']())
    tree, whole = scanned(text)[0], urdf_xml.parse_full(text)

    def count(node):
        return 1 + sum(count(child) for child in node[4])
    built, total = count(tree), sum(1 for _ in whole.iter())
    print(f'{built} of {total} elements built')
    assert built < 0.5 * total


@pytest.mark.parametrize('prolog', [
    '<!DOCTYPE robot [<!ENTITY e "x">]>',
    '<?xml version="1.0"?>\n<!-- a comment -->\n<?pi data?>\n<!DOCTYPE robot>',
    '\ufeff  <!doctype robot>',
    '<!-- unclosed comment',
])
def test_a_declaration_in_the_prolog_is_left_to_the_full_parse(prolog):
    text = prolog + ARM.format(extra='')
    assert scanned(text) is False
    with pytest.raises(URDFError) as caught:
        urdf_xml.parse_full(text)
    with pytest.raises(URDFError, match=str(caught.value)[:30]):
        urdf_xml.parse_xml(text)


def test_nul_characters_are_left_to_the_full_parse():
    """UTF-16 read as UTF-8: expat would take it for UTF-16 (and expand the entity)."""
    text = '<!DOCTYPE r [<!ENTITY i "EXPANDED">]><robot name="&i;"/>'.encode(
        'utf-16-be').decode('utf-8')
    assert scanned(text) is False
    with pytest.raises(URDFError, match='DOCTYPE or ENTITY'):
        urdf_xml.parse_xml(text)


@pytest.mark.parametrize('scan', [True, False], ids=['filter', 'full parse'])
def test_a_lone_surrogate_is_a_urdf_error_naming_it(scan, monkeypatch):
    if not scan:
        monkeypatch.setattr(urdf_xml, '_scan', None)
    text = ARM.format(extra='').replace('name="b"', 'name="b\udc80"')
    with pytest.raises(URDFError, match=r"surrogates not allowed: '\\udc80' at character"):
        urdf_xml.parse_xml(text)


def test_a_doctype_in_a_prolog_comment_is_only_a_comment():
    text = '<!-- <!DOCTYPE robot> -->\n' + ARM.format(extra='')
    assert scanned(text) == (full(text), set(), set())


@pytest.mark.parametrize('extra', [
    '<gazebo><plugin><unclosed></plugin></gazebo>',
    '<gazebo reference="a">&undefined;</gazebo>',
    '<material name="m" name="twice"/>',
])
def test_an_xml_error_anywhere_is_left_to_the_full_parse(extra):
    text = ARM.format(extra=extra)
    assert scanned(text) is False
    with pytest.raises(URDFError, match='malformed URDF'):
        urdf_xml.parse_xml(text)


@pytest.mark.parametrize('extra, prefixes, bound', [
    ('<gazebo><xacro:if value="1"/></gazebo>', {'xacro'}, set()),
    ('<gazebo xmlns:x="http://www.ros.org/wiki/xacro"><x:macro name="m"/></gazebo>',
     {'xmlns', 'x'}, {'x'}),
    ('<gazebo xmlns:sensor="http://playerstage.sourceforge.net/gazebo/xmlschema/#sensor">'
     '<sensor:camera name="c"/><controller:plugin name="p"/></gazebo>',
     {'xmlns', 'sensor', 'controller'}, set()),
])
def test_xacro_names_are_found_where_they_are_left_out(extra, prefixes, bound):
    text = ARM.format(extra=extra)
    assert scanned(text)[1:] == (prefixes, bound)
    if prefixes & ({'xacro'} | bound):
        with pytest.raises(URDFError, match='xacro'):
            urdf_xml.parse_xml(text)
    else:
        assert kept(urdf_xml.parse_xml(text)) == full(text)


def test_a_xacro_namespace_on_robot_binds_a_prefix_used_in_a_visual():
    text = ARM.format(extra='').replace('<robot name="r">', '<robot name="r" xmlns:m='
                                        '"http://ros.org/wiki/XACRO">').replace(
        '<visual>', '<visual><m:insert_block name="b"/>')
    assert scanned(text)[1:] == ({'xmlns', 'm'}, {'m'})
    with pytest.raises(URDFError, match=r'<m:insert_block>'):
        urdf_xml.parse_xml(text)


def test_transmission_text_is_kept_and_nothing_else_has_text():
    text = ARM.format(extra='<transmission name="t"><joint name="j"/><actuator name="m">'
                      '<mechanicalReduction> 50 </mechanicalReduction><rotorInertia>1e-4'
                      '</rotorInertia></actuator></transmission>')
    root = urdf_xml.parse_xml(text)
    assert root.find('.//mechanicalReduction').text == ' 50 '
    assert root.find('.//rotorInertia').text == '1e-4'
    assert root.find('link').find('visual') is None
    assert all(element.text is None for element in root.iter() if element.tag == 'inertial')


SNIPPETS = ('<', '>', '/', '"', "'", '&', '&amp;', '<!--', '-->', '<?x?>', '<!DOCTYPE r>',
            'xacro:', 'xmlns:x="xacro"', ':', '\x00', '<a:b/>', ']]>', '<![CDATA[', ' ', '\n',
            'é', '<transmission name="t">', '</transmission>', '<link name="zz"/>')


def outcome(text):
    """Return the tree :func:`kept` writes, or the URDFError's message."""
    try:
        return kept(urdf_xml.parse_xml(text))
    except URDFError as exc:
        return str(exc)


def test_mutated_files_give_the_same_tree_or_error_with_and_without_the_filter(monkeypatch):
    """Cut or insert markup at random in the corpus (seeded): the filter changes no outcome."""
    rng = random.Random(7)
    texts = [read_urdf_text(make()) for make in CORPUS.values()]
    differ = []
    for case in range(400):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text))
            text = text[:at] + text[at + rng.randint(1, 20):] if rng.random() < 0.4 else \
                text[:at] + rng.choice(SNIPPETS) + text[at:]
        filtered = outcome(text)
        with monkeypatch.context() as patch:
            patch.setattr(urdf_xml, '_scan', None)
            if outcome(text) != filtered:
                differ.append(case)
    assert not differ
