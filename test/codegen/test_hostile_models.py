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
"""Issue 22.1 and 22.2: hostile names never become code; the cache key is the source text.

Every C and Python comment and string terminator is tried in the robot, link and joint
names. The check is exact: with comments removed (as the compiler and Python's tokenizer
remove them), the hostile model's source equals the source of the same model with plain
names, so no character of a name can have become code. The end-to-end tests compile a model
whose name carries a constructor that would create a marker file, in a fresh process, and
then the bundled two_link model in another fresh process on the same cache.
"""

import io
import os
import pathlib
import re
import subprocess
import sys
import tokenize
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import cli, fast
from robot_dynamics.codegen import cache, compiled
from robot_dynamics.codegen.emit import safe_text

ROOT = pathlib.Path(__file__).resolve().parents[2]
needs_compiler = pytest.mark.skipif(not compiled.compiler_available(),
                                    reason='no C compiler or Python headers')
TERMINATORS = ['*/', '/*', '//', '"', "'", '\\', '\n', '\r', '\r\n', '??/', '"""', "'''",
               '#', '\x00', '\u2028', '\u2029', '\x0b', '\x0c', '\x85', '\\\n']


def hostile(terminator, marker='/tmp/rd_pwned'):
    """Return a name that would run code in C or Python if emitted raw after ``terminator``."""
    return (f'arm{terminator} */ __attribute__((constructor)) static void pwn(void) '
            f'{{ extern int creat(const char *, int); creat("{marker}", 0600); }} /* '
            f'{terminator}\n__import__("os")._exit(7) {terminator}')


def two_link(name='two_link', joints=('joint1', 'joint2'), links=('link1', 'link2')):
    """Return the bundled two_link model, renamed."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        model = rd.load_model(str(ROOT / rd.BUNDLED_MODELS['two_link']))
    return model.replace(name=name, joint_names=list(joints), link_names=list(links))


def hostile_model(terminator):
    return two_link(hostile(terminator), [hostile(terminator) + 'j1', 'j2' + terminator],
                    [terminator + 'l1', hostile(terminator) + 'l2'])


def python_code(source):
    """Return the Python tokens without comments (what runs)."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [(t.type, t.string) for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL)]


def c_code(source):
    """Return C text without comments, as C99 sees it (trigraphs and splices first)."""
    source = source.replace('??/', '\\').replace('\\\n', '')
    out, i, n = [], 0, len(source)
    while i < n:
        if source.startswith('/*', i):
            end = source.find('*/', i + 2)
            i = n if end < 0 else end + 2
            out.append(' ')
        elif source.startswith('//', i):
            end = source.find('\n', i)
            i = n if end < 0 else end
        elif source[i] in '"\'':
            quote, j = source[i], i + 1
            while j < n and source[j] != quote:
                j += 2 if source[j] == '\\' else 1
            out.append(source[i:j + 1])
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return ''.join(out)


@pytest.mark.parametrize('terminator', TERMINATORS, ids=[repr(t) for t in TERMINATORS])
def test_hostile_names_never_reach_generated_code(terminator):
    plain = rd.generate(two_link(), functions='all')
    bad = rd.generate(hostile_model(terminator), functions='all')
    assert python_code(bad.source) == python_code(plain.source)
    assert c_code(bad.c_source) == c_code(plain.c_source)
    named = [line for line in (bad.source + bad.c_source).splitlines() if 'pwn' in line]
    assert len(named) == 2                       # the header's name, in Python and in C
    assert all(re.fullmatch(r"(#| \*) Customised dynamic model of '[\w.,=()\[\] +-]+' .*",
                            line) for line in named), named
    namespace = bad.python_namespace()           # runs: the name did not end the comment
    assert sorted(k for k in namespace if not k.startswith('__')) == \
        sorted(k for k in plain.python_namespace() if not k.startswith('__'))


def test_safe_text_keeps_only_inert_characters():
    everything = ''.join(map(chr, range(0x3000)))
    assert set(safe_text(everything, limit=10 ** 6)) <= set(
        'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,=()[] +-')
    assert len(safe_text('x' * 10 ** 6)) == 64


@needs_compiler
@pytest.mark.parametrize('terminator', ['*/', '??/', '\n', '\u2028'])
def test_hostile_c_source_compiles(tmp_path, terminator):
    path = tmp_path / 'model.c'
    rd.generate(hostile_model(terminator), functions='all').write(str(path))
    result = subprocess.run([compiled.compiler(), '-std=c99', '-trigraphs', '-fsyntax-only',
                             '-Wall', str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert 'pwn' not in c_code(path.read_text())


def test_codegen_command_writes_no_injected_code(tmp_path):
    urdf = tmp_path / 'arm.urdf'
    name = hostile('*/').replace('\n', '&#10;').replace('"', '&quot;').replace('<', '&lt;')
    text = two_link().to_urdf()
    urdf.write_text(re.sub(r'<robot name="[^"]*"', f'<robot name="{name}"', text, count=1))
    assert rd.load_model(str(urdf)).name == hostile('*/')
    for suffix in ('.c', '.py'):
        out = tmp_path / f'out{suffix}'
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', rd.ModelWarning)
            assert cli.main(['codegen', str(urdf), '-o', str(out), '--functions', 'all']) == 0
        plain = rd.generate(two_link(), functions='all')
        if suffix == '.c':
            assert c_code(out.read_text()) == c_code(plain.c_source)
        else:
            assert python_code(out.read_text()) == python_code(plain.source)


def run_fresh(cache_dir, *arguments):
    """Compile two_link (renamed to the first argument) in a fresh process; its key, error."""
    environment = dict(os.environ, ROBOT_DYNAMICS_CACHE=str(cache_dir))
    environment.pop('ROBOT_DYNAMICS_NO_COMPILE', None)
    result = subprocess.run([sys.executable, '-c', COMPILE, *arguments], capture_output=True,
                            text=True, env=environment, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    key, error = result.stdout.split()
    return key, float(error)


COMPILE = '''
import sys, warnings
warnings.simplefilter('ignore')
import numpy as np
import robot_dynamics as rd
from robot_dynamics.codegen import compiled
model = rd.load_model('two_link')
if len(sys.argv) > 1:
    model = model.replace(name=sys.argv[1])
fast = rd.fast.compile(model, backend='c')
q = np.array([0.3, -0.4])
print(*compiled._loaded, np.abs(fast.inverse_dynamics(q, q, q)
                                - rd.inverse_dynamics(model, q, q, q)).max())
'''


@needs_compiler
def test_hostile_model_then_bundled_model_in_new_processes(tmp_path):
    """The issue's sequence: the hostile model is compiled first, two_link loads its own code."""
    marker = tmp_path / 'pwned'
    cache_dir = tmp_path / 'cache'
    hostile_key, _ = run_fresh(cache_dir, hostile('*/', marker=str(marker)))
    key, error = run_fresh(cache_dir)
    assert not marker.exists(), 'code from a name ran'
    assert key != hostile_key and error < 1e-12
    libraries = sorted(p.name for p in cache_dir.iterdir() if p.name.endswith('.so'))
    assert len(libraries) == 2 and {key, hostile_key} == {
        name.split('.')[0][len(compiled.module_name('')):] for name in libraries}
    sources = [p.read_text() for p in cache_dir.iterdir() if p.suffix == '.c']
    assert len(sources) == 2 and all('creat(' not in c_code(text) for text in sources)


@needs_compiler
def test_key_covers_the_exact_source_text(tmp_path, monkeypatch):
    monkeypatch.setenv('ROBOT_DYNAMICS_CACHE', str(tmp_path))
    a = rd.generate(two_link('arm_a'), functions='all')
    b = rd.generate(two_link('arm_b'), functions='all')
    template_a = compiled.extension_source(a, 'M')
    template_b = compiled.extension_source(b, 'M')
    assert template_a != template_b
    assert compiled.build_key(template_a) != compiled.build_key(template_b)
    assert compiled.build_key(template_a) == compiled.build_key(template_a)
    assert compiled.build_key(template_a, '-O1') != compiled.build_key(template_a)
    monkeypatch.setitem(compiled._identities, compiled.compiler(), 'another compiler')
    assert compiled.build_key(template_a) != compiled.build_key(template_b)


@needs_compiler
def test_a_library_that_differs_from_its_record_is_rebuilt_not_loaded(tmp_path, monkeypatch):
    monkeypatch.setenv('ROBOT_DYNAMICS_CACHE', str(tmp_path))
    monkeypatch.setattr(fast, '_models', fast._models.__class__())
    monkeypatch.setattr(compiled, '_loaded', {})
    model = two_link()
    first = fast.compile(model, backend='c')
    libraries = [p for p in tmp_path.iterdir() if p.name.endswith('.so')]
    assert len(libraries) == 1
    library = libraries[0]
    other = rd.load_model('puma560')
    fast.compile(other, backend='c')             # a valid library of another model
    planted = next(p for p in tmp_path.iterdir() if p.name.endswith('.so') and p != library)
    os.replace(planted, library)                 # planted under two_link's key, old record
    fast._models.clear()
    compiled._loaded.clear()
    with pytest.warns(RuntimeWarning, match='not the library recorded when it was built'):
        again = fast.compile(model, backend='c')
    q = np.array([0.3, -0.4])
    assert np.array_equal(again.inverse_dynamics(q, q, q), first.inverse_dynamics(q, q, q))
    record = (tmp_path / (library.name + cache.RECORD_SUFFIX)).read_text().split()[0]
    with open(library, 'rb') as handle:
        assert cache.sha256_of(handle.fileno()) == record
    (tmp_path / (library.name + cache.RECORD_SUFFIX)).unlink()    # no record: not loaded
    compiled._loaded.clear()
    with pytest.warns(RuntimeWarning, match='no record'):
        assert cache.open_verified(str(library)) is None
