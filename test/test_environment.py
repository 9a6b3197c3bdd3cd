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
"""The tests run against the installed package, in the ROS domain the user chose.

A fresh colcon workspace has no compiled engine in its source tree: a test session that
imported the checkout instead of the install failed to collect (issue 20.2). A user's
``ROS_DOMAIN_ID`` was overwritten by a random one (issue 20.7).
"""

import os
import pathlib
import subprocess
import sys

import robot_dynamics as rd

CONFTEST = pathlib.Path(__file__).resolve().parent / 'conftest.py'
SOURCE_TREE = pathlib.Path(os.path.abspath(__file__)).parents[1]


def test_the_package_under_test_is_the_installed_one():
    package = pathlib.Path(os.path.abspath(rd.__file__)).parent
    assert package != SOURCE_TREE / 'robot_dynamics', (
        f'{package}: the tests imported the source tree, not the installed package')
    assert rd.api._engine is not None, 'the installed package has no compiled engine'
    assert str(SOURCE_TREE) not in [os.path.abspath(p or os.curdir) for p in sys.path]


def test_children_started_in_the_checkout_import_the_installed_package():
    result = subprocess.run(
        [sys.executable, '-c', 'import robot_dynamics, os; '
         'print(os.path.dirname(os.path.abspath(robot_dynamics.__file__)))'],
        cwd=SOURCE_TREE, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert pathlib.Path(result.stdout.strip()) != SOURCE_TREE / 'robot_dynamics'


def domain_after_conftest(domain):
    """ROS_DOMAIN_ID once test/conftest.py ran in a process started with ``domain``."""
    env = {k: v for k, v in os.environ.items() if k != 'ROS_DOMAIN_ID'}
    if domain is not None:
        env['ROS_DOMAIN_ID'] = domain
    code = ('import os, runpy; runpy.run_path(os.environ["CONFTEST"]); '
            'print(os.environ["ROS_DOMAIN_ID"])')
    result = subprocess.run([sys.executable, '-c', code], env=dict(env, CONFTEST=str(CONFTEST)),
                            capture_output=True, text=True, timeout=120, cwd=CONFTEST.parent)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_a_domain_id_the_user_set_is_kept():
    assert domain_after_conftest('42') == '42'
    assert domain_after_conftest('0') == '0'


def test_without_a_domain_id_each_session_draws_one_of_its_own():
    drawn = {int(domain_after_conftest(None)) for _ in range(3)}
    assert drawn <= set(range(100, 201))
    assert int(domain_after_conftest('')) in range(100, 201)
