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
"""Issue 22.3: a compile cache another user can write is refused; writes never follow links.

"Another user" is simulated by the modes another user's directory would have (group or world
writable) and, when the tests run as root, by a directory chowned to uid 65534; without root
that case is skipped (an unprivileged process cannot give a directory away).
"""

import os
import stat
import tempfile
import warnings

import numpy as np
import pytest

import robot_dynamics as rd
from robot_dynamics import fast
from robot_dynamics.codegen import cache, compiled

needs_compiler = pytest.mark.skipif(not compiled.compiler_available(),
                                    reason='no C compiler or Python headers')
NOBODY = 65534


@pytest.fixture(autouse=True)
def fresh_memory(monkeypatch):
    """Nothing compiled in memory: every test goes to the disk cache."""
    monkeypatch.setattr(fast, '_models', fast._models.__class__())
    monkeypatch.setattr(compiled, '_loaded', {})
    monkeypatch.delenv('ROBOT_DYNAMICS_NO_COMPILE', raising=False)


def two_link():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', rd.ModelWarning)
        return rd.load_model('two_link')


def test_a_missing_directory_is_created_private_whatever_the_umask(tmp_path, monkeypatch):
    path = tmp_path / 'a' / 'cache'
    monkeypatch.setenv('ROBOT_DYNAMICS_CACHE', str(path))
    old = os.umask(0)
    try:
        assert cache.cache_directory() == str(path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o700


@pytest.mark.parametrize('mode', [0o777, 0o770, 0o757, 0o1777])
def test_a_directory_others_can_write_is_refused(tmp_path, monkeypatch, mode):
    path = tmp_path / 'shared'
    path.mkdir()
    path.chmod(mode)
    monkeypatch.setenv('ROBOT_DYNAMICS_CACHE', str(path))
    with pytest.raises(cache.CacheError, match=f'compile cache {path} is writable by group or '
                       f'others \\(mode {mode:04o}\\).*ROBOT_DYNAMICS_CACHE'):
        cache.cache_directory()


@pytest.mark.skipif(os.getuid() != 0, reason='giving a directory to another user needs root')
def test_a_directory_of_another_user_is_refused(tmp_path, monkeypatch):
    path = tmp_path / 'theirs'
    path.mkdir(mode=0o700)
    os.chown(path, NOBODY, NOBODY)
    monkeypatch.setenv('ROBOT_DYNAMICS_CACHE', str(path))
    with pytest.raises(cache.CacheError, match=f'belongs to uid {NOBODY}, not to you'):
        cache.cache_directory()


@pytest.mark.skipif(os.getuid() != 0, reason='giving a directory to another user needs root')
def test_a_parent_of_another_user_is_refused(tmp_path, monkeypatch):
    parent = tmp_path / 'theirs'
    parent.mkdir(mode=0o755)
    (parent / 'cache').mkdir(mode=0o700)
    os.chown(parent, NOBODY, NOBODY)
    monkeypatch.setenv('ROBOT_DYNAMICS_CACHE', str(parent / 'cache'))
    with pytest.raises(cache.CacheError, match=f'its parent {parent} belongs to uid {NOBODY}'):
        cache.cache_directory()


def test_a_world_writable_parent_without_sticky_bit_is_refused(tmp_path, monkeypatch):
    parent = tmp_path / 'open'
    parent.mkdir()
    parent.chmod(0o777)
    monkeypatch.setenv('ROBOT_DYNAMICS_CACHE', str(parent / 'cache'))
    with pytest.raises(cache.CacheError, match='writable by everyone without the sticky bit'):
        cache.cache_directory()
    parent.chmod(0o1777)                                        # like /tmp: accepted
    assert cache.cache_directory() == str(parent / 'cache')


def test_a_symbolic_link_as_the_directory_is_refused(tmp_path, monkeypatch):
    real = tmp_path / 'real'
    real.mkdir(mode=0o700)
    (tmp_path / 'link').symlink_to(real)
    monkeypatch.setenv('ROBOT_DYNAMICS_CACHE', str(tmp_path / 'link'))
    with pytest.raises(cache.CacheError, match='is a symbolic link'):
        cache.cache_directory()


@needs_compiler
def test_the_shared_tmp_fallback_planted_by_another_user(tmp_path, monkeypatch):
    """The issue's attack: the /tmp fallback made world-writable first, a library planted."""
    monkeypatch.delenv('ROBOT_DYNAMICS_CACHE', raising=False)
    blocker = tmp_path / 'home_file'
    blocker.write_text('')
    monkeypatch.setenv('HOME', str(blocker))            # ~/.cache cannot be created
    monkeypatch.setattr(tempfile, 'tempdir', str(tmp_path))
    shared = tmp_path / f'robot_dynamics_codegen_{os.getuid()}'
    shared.mkdir()
    shared.chmod(0o777)                                   # as the other user would leave it
    with pytest.raises(cache.CacheError, match=f'compile cache {shared} is writable'):
        fast.compile(two_link(), backend='c')
    with pytest.warns(RuntimeWarning, match='using numpy instead: compile cache'):
        fallback = fast.compile(two_link())             # 'auto': exact numpy, not the plant
    assert fallback.backend == 'python'
    shared.chmod(0o700)                                   # now private: the real fallback
    assert cache.cache_directory() == str(shared)


@needs_compiler
def test_planted_links_are_replaced_never_written_through(tmp_path, monkeypatch):
    monkeypatch.setenv('ROBOT_DYNAMICS_CACHE', str(tmp_path / 'cache'))
    model = two_link()
    first = fast.compile(model, backend='c')
    key, = compiled._loaded
    library = compiled.cached_path(key)
    source = library[:library.index(compiled.module_name(key))] + compiled.module_name(key) + '.c'
    victim = tmp_path / 'victim.txt'
    victim.write_text('private')
    for path in (library, source, library + cache.RECORD_SUFFIX):
        os.remove(path)
        os.symlink(victim, path)
    fast._models.clear()
    compiled._loaded.clear()
    with pytest.warns(RuntimeWarning, match='a link'):
        again = fast.compile(model, backend='c')
    assert victim.read_text() == 'private'
    for path in (library, source, library + cache.RECORD_SUFFIX):
        assert not os.path.islink(path) and os.path.isfile(path)
    q = np.array([0.3, -0.4])
    assert np.array_equal(again.inverse_dynamics(q, q, q), first.inverse_dynamics(q, q, q))


@needs_compiler
def test_files_written_are_private_and_the_library_is_recorded(tmp_path, monkeypatch):
    monkeypatch.setenv('ROBOT_DYNAMICS_CACHE', str(tmp_path / 'cache'))
    fast.compile(two_link(), backend='c')
    key, = compiled._loaded
    library = compiled.cached_path(key)
    assert len(key) == 64
    with open(library, 'rb') as handle:
        digest = cache.sha256_of(handle.fileno())
    assert open(library + cache.RECORD_SUFFIX).read().split()[0] == digest
    for name in os.listdir(tmp_path / 'cache'):
        assert not os.stat(tmp_path / 'cache' / name).st_mode & 0o022, name
