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
"""Bad URDF and DH documents: each gives a ModelError naming the element and the fix.

Rows of the catalogue in docs/robustness.md. The XML-safety tests prove that no URDF makes the
loader read a file or expand an entity: an external entity points at a temporary file holding
a marker string, and the marker never appears in any error, warning or model field, and no
Python-level ``open`` of that file happens (audit hook).
"""

import sys
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics.errors import DHError, ModelError, URDFError
from robot_dynamics.model import ModelWarning, RobotModel
from cost import growth_ratio, peak_bytes
from robots import billion_laughs, joint, link, robot

MARKER = 'SECRET-MARKER-7c1e0b'
GOOD = robot('<link name="b"/>', link('a'), joint('j', 'b', 'a'))
DH_LINK = {'a': 0.1, 'alpha': 0.0, 'd': 0.0, 'mass': 1.0}


def load_urdf(document):
    """Load quietly (model warnings are not under test here)."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        return RobotModel.from_urdf(document)


# ---------------------------------------------------------------------- XML safety
_opened = []


def _audit(event, args):
    if event == 'open' and args and MARKER in str(args[0]):
        _opened.append(args[0])


sys.addaudithook(_audit)     # cannot be removed; it only records opens of marker files


@pytest.fixture
def secret(tmp_path):
    """Write a file whose name and content hold the marker: it must never be read."""
    path = tmp_path / f'{MARKER}.txt'
    path.write_text(MARKER * 10)
    _opened.clear()
    return str(path)


def entity_documents(secret):
    """External-entity URDFs in several spellings and encodings (UTF-16 without BOM too)."""
    body = robot('<link name="b"/>', link('a'), joint('j', 'b', 'a'),
                 '<transmission name="t"><joint name="j"/><actuator name="m">'
                 '<mechanicalReduction>&e;</mechanicalReduction></actuator></transmission>')
    body = body.replace('<robot name="test">', '<robot name="&e;">')
    system = f'<!DOCTYPE robot [<!ENTITY e SYSTEM "file://{secret}">]>'
    public = f'<!DOCTYPE robot [<!ENTITY e PUBLIC "x" "{secret}">]>'
    parameter = f'<!DOCTYPE robot [<!ENTITY % p SYSTEM "{secret}"> %p;]>'
    documents = {
        'system': system + body,
        'public': public + body,
        'parameter': parameter + body,
        'lowercase-doctype-text': system.replace('DOCTYPE', 'doctype') + body,
        'xml-declaration': '<?xml version="1.0" encoding="UTF-8"?>' + system + body,
        'utf-16-be-no-bom': (system + body).encode('utf-16-be').decode('utf-8'),
        'utf-16-le-no-bom': (system + body).encode('utf-16-le').decode('utf-8'),
        'xinclude': GOOD.replace('<robot name="test">',
                                 '<robot name="test" xmlns:xi="http://www.w3.org/2001/XInclude">'
                                 f'<xi:include href="{secret}" parse="text"/>'),
    }
    return documents


ENTITY_CASES = ['system', 'public', 'parameter', 'lowercase-doctype-text', 'xml-declaration',
                'utf-16-be-no-bom', 'utf-16-le-no-bom', 'xinclude']


@pytest.mark.parametrize('case', ENTITY_CASES)
@pytest.mark.parametrize('as_file', [False, True], ids=['text', 'file'])
def test_external_entity_never_read(secret, tmp_path, case, as_file):
    document = entity_documents(secret)[case]
    if as_file:
        path = tmp_path / 'robot.urdf'
        path.write_text(document, encoding='utf-8')
        document = str(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        try:
            model = RobotModel.from_urdf(document)
            outcome = repr(model) + model.name + str(model.joint_names) + str(model.link_names)
        except ModelError as exc:
            outcome = str(exc)
    outcome += ' '.join(str(w.message) for w in caught)
    assert MARKER * 2 not in outcome, f'{case}: the file content leaked: {outcome}'
    assert not _opened, f'{case}: the loader opened {_opened}'
    if case != 'xinclude':
        assert 'DOCTYPE' in outcome or 'NUL characters' in outcome, outcome
    else:   # XInclude is not processed: the element is an unknown tag, reported as such
        assert "['xi:include']" in outcome


def test_expat_scan_catches_a_doctype_a_text_check_cannot_see():
    """UTF-16 text hides '<!DOCTYPE' from a substring test, not from expat (the one check)."""
    from robot_dynamics.io.urdf_xml import parse_xml
    hidden = '<!DOCTYPE r [<!ENTITY i "EXPANDED">]><robot name="&i;"/>'.encode('utf-16-be')
    text = hidden.decode('utf-8')
    assert '<!DOCTYPE' not in text.upper()
    with pytest.raises(URDFError, match='DOCTYPE or ENTITY'):
        parse_xml(text)


@pytest.mark.parametrize('encoding', ['utf-8', 'utf-16-be'])
def test_billion_laughs_refused_without_expansion(encoding):
    """Refused before expansion: memory bounded, cost independent of the expansion's size.

    Ten levels expand to 10**10 copies, five to 10**5; the documents differ only in length
    (about 2x), so a refusal that expands nothing costs about the same on both.
    """
    def document(levels):
        text = billion_laughs(levels)
        return text if encoding == 'utf-8' else text.encode(encoding).decode('utf-8')

    def refuse(text):
        with pytest.raises(URDFError, match='DOCTYPE|NUL'):
            RobotModel.from_urdf(text)
    small, large = document(5), document(10)
    peak = peak_bytes(lambda: refuse(large))
    assert peak < 2 * 1024 * 1024, f'peak {peak / 1e6:.1f} MB'
    ratio = growth_ratio(lambda: [refuse(small) for _ in range(2000)],
                         lambda: [refuse(large) for _ in range(2000)])
    assert ratio < 3 * len(large) / len(small), ratio         # expanding: ~10**5


# ---------------------------------------------------------------------- URDF catalogue
URDF_CASES = {
    'truncated-xml': ('<robot name="x"><link name="a"', 'malformed URDF'),
    'not-xml': ('<<<>>>', 'malformed URDF'),
    'duplicate-link': (robot('<link name="b"/>', link('a'), link('a'), joint('j', 'b', 'a')),
                       r"duplicate link or joint names \['a'\]"),
    'duplicate-joint': (robot('<link name="b"/>', link('a'), link('c'), joint('j', 'b', 'a'),
                              joint('j', 'a', 'c')), r"duplicate link or joint names \['j'\]"),
    'inertial-without-mass': (robot('<link name="b"/>', '<link name="a"><inertial><inertia '
                                    'ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>'
                                    '</inertial></link>', joint('j', 'b', 'a')),
                              r"(?s)link\[@name='a'\]/inertial.*mass"),
    'zero-mass-negative-inertia': (robot('<link name="b"/>', link('a', m=0.0, ixx=-0.1),
                                         joint('j', 'b', 'a')), 'not positive semi-definite'),
    'indefinite-products': (robot('<link name="b"/>', link('a', ixx=0.01, iyy=0.01, ixy=0.5),
                                  joint('j', 'b', 'a')), 'not positive semi-definite'),
    'infinite-inertia': (robot('<link name="b"/>', link('a', ixx='inf'), joint('j', 'b', 'a')),
                         "link 'a' inertia: contains NaN or inf"),
    'non-numeric-mass': (robot('<link name="b"/>', link('a', m='heavy'), joint('j', 'b', 'a')),
                         r"link\[@name='a'\]/inertial/mass value: 'heavy' is not a number"),
    'joint-without-type': (robot('<link name="b"/>', link('a'),
                                 joint('j', 'b', 'a').replace(' type="revolute"', '')),
                           r"(?s)joint\[@name='j'\].*type"),
    'unknown-joint-type': (robot('<link name="b"/>', link('a'), joint('j', 'b', 'a', 'spinny')),
                           "joint\\[@name='j'\\]: invalid joint type 'spinny'"),
    'joint-without-parent': (robot('<link name="b"/>', link('a'), '<joint name="j" '
                                   'type="revolute"><child link="a"/></joint>'),
                             r"(?s)joint\[@name='j'\].*parent"),
    'two-component-axis': (robot('<link name="b"/>', link('a'), joint('j', 'b', 'a',
                                                                      axis='0 1')),
                           r"joint\[@name='j'\]/axis xyz: expected 3 numbers"),
    'nan-axis': (robot('<link name="b"/>', link('a'), joint('j', 'b', 'a', axis='0 nan 1')),
                 r"joint 'j': <axis xyz> must be three finite numbers"),
    'no-links': ('<robot name="x"/>',
                 r'the URDF has no <link>: a robot description needs at least one <link'),
    'two-trees': (robot(link('a'), link('c'), '<link name="b"/>', '<link name="d"/>',
                        joint('j', 'b', 'a'), joint('k', 'd', 'c')),
                  'one tree with one root link'),
    'branching-without-tip': (robot('<link name="b"/>', link('a'), link('c'),
                                    joint('j', 'b', 'a'), joint('k', 'b', 'c')),
                              r"several longest moving branches from 'b' .* candidate tips "
                              r"\['a', 'c'\]"),
    'non-numeric-gear-ratio': (robot('<link name="b"/>', link('a'), joint('j', 'b', 'a'),
                                     '<transmission name="t"><joint name="j"/><actuator '
                                     'name="m"><mechanicalReduction>abc</mechanicalReduction>'
                                     '<rotorInertia>1e-4</rotorInertia>'    # else a note
                                     '</actuator></transmission>'),
                               r"transmission\[@name='t'\]"),
    'nul-characters': (GOOD.encode('utf-16-le').decode('utf-8'), 'NUL characters'),
    'non-utf8-bytes': (GOOD.encode('utf-16'), 'not UTF-8'),
}


@pytest.mark.parametrize('case', sorted(URDF_CASES))
def test_bad_urdf_gives_a_model_error_naming_the_element(case):
    document, message = URDF_CASES[case]
    with pytest.raises(ModelError, match=message):
        load_urdf(document)


def test_utf8_bytes_load_like_text():
    assert load_urdf(GOOD.encode('utf-8')).joint_names == load_urdf(GOOD).joint_names


def test_non_utf8_file_is_a_urdf_error(tmp_path):
    path = tmp_path / 'latin.urdf'
    path.write_bytes(GOOD.replace('name="test"', 'name="t\xe9st"').encode('latin-1'))
    with pytest.raises(URDFError, match='is not UTF-8 text'):
        load_urdf(str(path))


def test_unknown_tags_load_with_one_warning_naming_them():
    text = GOOD.replace('<link name="b"/>', '<link name="b"/><gazebo><plugin/></gazebo>'
                        '<sensorx/><sensorx/>').replace('type="revolute"',
                                                        'weird="1" type="revolute"')
    with pytest.warns(ModelWarning) as caught:
        model = RobotModel.from_urdf(text)
    messages = [str(w.message) for w in caught]
    assert messages == ["URDF: ignored unknown tag(s) ['sensorx'] under <robot> (no dynamics "
                        "read from them)"]
    assert model.dof == 1
    assert np.allclose(rd.gravity_torques(model, [0.3]), rd.gravity_torques(load_urdf(GOOD),
                                                                            [0.3]))


def test_zero_mass_moving_link_loads_with_a_warning():
    text = robot('<link name="b"/>', link('a', m=0.0), joint('j', 'b', 'a'))
    with pytest.warns(ModelWarning, match='massless moving links: a'):
        model = RobotModel.from_urdf(text)
    assert model.mass[0] == 0.0


def test_oversized_file_refused_without_reading_it(tmp_path):
    from robot_dynamics.io.urdf import MAX_URDF_BYTES
    path = tmp_path / f'{MARKER}-huge.urdf'
    with open(path, 'wb') as handle:         # a sparse file: no disk space used
        handle.truncate(MAX_URDF_BYTES + 1)
    _opened.clear()

    def refuse():
        with pytest.raises(URDFError, match='larger than 50 MiB'):
            RobotModel.from_urdf(str(path))
    assert peak_bytes(refuse) < 1024 * 1024               # 50 MiB were not read
    assert not _opened, 'the oversized file was opened'


def test_a_grown_file_is_read_on_within_the_bound(tmp_path, monkeypatch):
    """The read sized by ``stat`` reads on if the file has grown since: up to max + 1 bytes."""
    from robot_dynamics.io import files
    path = tmp_path / 'grown.txt'
    path.write_bytes(b'0123456789' * 10)
    monkeypatch.setattr(files, 'check_regular_file', lambda *args: 7)     # stat saw 7 bytes
    assert files.read_text_file(str(path), 'DH', 1000, DHError, '') == '0123456789' * 10
    assert files.read_text_file(str(path), 'DH', 25, DHError, '') == ('0123456789' * 3)[:26]


def test_oversized_text_refused():
    from robot_dynamics.io.urdf import MAX_URDF_BYTES
    text = GOOD.replace('<link name="b"/>', '<link name="b"/><!--' + 'x' * MAX_URDF_BYTES
                        + '-->')
    with pytest.raises(URDFError, match='URDF text is larger than 50 MiB'):
        RobotModel.from_urdf(text)


def chain_urdf(n):
    """Return a URDF chain of ``n`` revolute joints, axes alternating z and y."""
    parts = ['<link name="l0"/>']
    for i in range(1, n + 1):
        parts += [link(f'l{i}'), joint(f'j{i}', f'l{i - 1}', f'l{i}',
                                       axis='0 0 1' if i % 2 else '0 1 0')]
    return robot(*parts)


def test_large_valid_chain_loads_in_linear_time():
    small, large = chain_urdf(50), chain_urdf(200)
    model = load_urdf(large)
    assert model.dof == 200
    q = np.linspace(-1, 1, 200)
    assert np.all(np.isfinite(rd.gravity_torques(model, q)))
    ratio = growth_ratio(lambda: load_urdf(small), lambda: load_urdf(large))
    assert ratio < 3 * 4, ratio                                # linear: 4; quadratic: 16


# ---------------------------------------------------------------------- DH catalogue
def dh(**top):
    """Return a one-link standard DH document with top-level changes."""
    document = {'convention': 'standard', 'links': [dict(DH_LINK)]}
    document.update(top)
    return document


def dh_link(**changes):
    """Return a one-link document whose link has changes (None deletes a field)."""
    entry = dict(DH_LINK)
    entry.update(changes)
    return dh(links=[{k: v for k, v in entry.items() if v is not None}])


DH_CASES = {
    'missing-a': (dh_link(a=None), r"links\[0\]: missing field 'a'"),
    'missing-links': ({'convention': 'standard'}, 'links: expected a non-empty list'),
    'links-not-a-list': (dh(links={'a': 0}), 'links: expected a non-empty list'),
    'link-not-a-mapping': (dh(links=[[1, 2, 3]]), r'links\[0\]: expected a mapping'),
    'unknown-convention': (dh(convention='craig'), 'convention: must be "standard"'),
    'convention-wrong-type': (dh(convention=['standard']), 'convention: must be'),
    'mass-wrong-type': (dh_link(mass=[1.0]), r'links\[0\].mass: expected a number, got \[1.0\]'),
    'mass-bool': (dh_link(mass=True), r'links\[0\].mass: expected a number, got True'),
    'mass-negative': (dh_link(mass=-1.0), "mass of link 'link1' is -1.0"),
    'alpha-pi-over-zero': (dh_link(alpha='pi/0'), r"links\[0\].alpha: expected a number, got "
                                                  "'pi/0'"),
    'huge-integer': (dh_link(d=10 ** 400), r'links\[0\].d: .* is too large for a float'),
    'inertia-none-entries': (dh_link(inertia=[None] * 6),
                             r'links\[0\].inertia\[0\]: expected a number, got None'),
    'inertia-five-values': (dh_link(inertia=[1, 1, 1, 0, 0]), r'links\[0\].inertia: expected 6'),
    'inertia-ragged-matrix': (dh_link(inertia=[[1, 0, 0], [0, 1], [0, 0, 1]]),
                              r'links\[0\].inertia\[1\]: expected a list of 3'),
    'inertia-not-psd': (dh_link(inertia=[1, -1, 1, 0, 0, 0]), 'not positive semi-definite'),
    'com-two-values': (dh_link(com=[0, 0]), r'links\[0\].com: expected a list of 3 numbers'),
    'gravity-two-values': (dh(gravity=[0, -9.81]), 'gravity: expected a list of 3 numbers'),
    'gravity-string': (dh(gravity='down'), "gravity: expected a list of 3 numbers, got 'down'"),
    'limits-list': (dh_link(limits=[1, 2]), r'links\[0\].limits: expected a mapping'),
    'limits-swapped': (dh_link(limits={'lower': 1, 'upper': -1}), 'lower_limit > upper_limit'),
    'name-mapping': (dh_link(name={'x': 1}), r'links\[0\].name: expected a string'),
    'duplicate-joint-names': (dh(links=[dict(DH_LINK, joint='j'), dict(DH_LINK, joint='j')]),
                              'joint_names are not unique'),
    'unknown-field-mixed-key-types': (dh(zz=1) | {1: 2},
                                      r"unknown top-level field\(s\) \['1', 'zz'\]"),
    'revolute-theta': (dh_link(theta=0.3), r'links\[0\].theta: is the joint variable'),
    'prismatic-without-theta': (dh_link(type='prismatic'), "missing field 'theta'"),
    'yaml-syntax': ('convention: standard\nlinks: [\n', 'DH YAML does not parse'),
    'yaml-python-tag': ("convention: standard\nlinks: !!python/object/apply:os.system ['true']",
                        'DH YAML does not parse'),
    'yaml-too-deep': ('[' * 50000 + ']' * 50000, 'nested too deeply'),
    'yaml-scalar': ('just text', 'must be a mapping'),
    'yaml-empty': ('', 'must be a mapping'),
}


@pytest.mark.parametrize('case', sorted(DH_CASES))
def test_bad_dh_gives_a_model_error_naming_the_field(case):
    document, message = DH_CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', ModelWarning)
        with pytest.raises(ModelError, match=message):
            RobotModel.from_dh(document)


def alias_bomb(levels):
    """Return a DH document whose name nests ``10**levels`` references through aliases."""
    lines = ['  a: &a [x, x, x, x, x, x, x, x, x, x]']
    previous = 'a'
    for name in 'bcdefghi'[:levels - 1]:
        lines.append(f'  {name}: &{name} [' + ', '.join([f'*{previous}'] * 10) + ']')
        previous = name
    return ('description:\n' + '\n'.join(lines) + f'\nconvention: standard\nname: *{previous}\n'
            'links: [{a: 0, alpha: 0, d: 0, mass: 1}]\n')


def test_dh_yaml_alias_bomb_refused_without_expansion():
    """YAML aliases nest 10**9 references cheaply; printing one must not be attempted.

    Nine levels against seven: the documents differ by 25 % in length and by 100x in what
    expanding them would cost; the one YAML loader counts the alias-expanded size on the parsed
    node graph and refuses both before anything is built.
    """
    def refuse(document):
        with pytest.raises(DHError, match='DH YAML expands to more than 1000000 nodes') as caught:
            RobotModel.from_dh(document)
        assert len(str(caught.value)) < 300
    small, large = alias_bomb(7), alias_bomb(9)
    assert peak_bytes(lambda: refuse(large)) < 4 * 1024 * 1024
    ratio = growth_ratio(lambda: refuse(small), lambda: refuse(large))
    assert ratio < 3, ratio                                      # expanding: 100


def test_non_utf8_dh_file_is_a_dh_error(tmp_path):
    path = tmp_path / 'arm.yaml'
    path.write_bytes('convention: standard\nname: r\xf6bot\nlinks: []\n'.encode('latin-1'))
    with pytest.raises(DHError, match='is not UTF-8 text'):
        RobotModel.from_dh(str(path))


def test_dh_errors_are_model_errors():
    assert issubclass(DHError, ModelError) and issubclass(URDFError, ModelError)
