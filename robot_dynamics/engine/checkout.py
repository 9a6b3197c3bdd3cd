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
"""Import the compiled engine, also for a Python started in the source checkout.

The checkout holds no compiled ``_engine`` (tests and installs build it); a Python started
in the checkout's root (``python -m robot_dynamics``, ``python -c``, the README's examples with
their relative paths) imports the checkout first. The checkout then borrows the installed
distribution's engine — found through the interpreter's path minus the checkout, never the
working directory — when it was built from the same engine sources (:mod:`.provenance`), and
otherwise says what is wrong and what to do.
"""

import importlib.machinery
import importlib.metadata
import importlib.util
import os
import sys

from robot_dynamics.engine.provenance import recorded_hash, source_hash

NAME = 'robot_dynamics.engine._engine'
SLOWER = ('every function runs its numpy implementation instead, about 100-1000x slower '
          'per call')
HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_DIR = os.path.dirname(HERE)
CHECKOUT = os.path.dirname(PACKAGE_DIR)


def after_import_error(exc):
    """Return ``(module, None)``, or ``(None, reason)``: why the numpy path runs, and the fix.

    ``exc``: the ``ImportError`` of ``robot_dynamics.engine._engine``.
    """
    if not is_source_checkout():
        return None, (f'the compiled engine ({NAME}) could not be loaded ({exc}); {SLOWER}. '
                      'Reinstall the package where a C compiler and the Python headers are '
                      'available (pip install . or colcon build) to build it.')
    return borrow_installed_engine()


def is_source_checkout():
    """Tell whether this package is the source tree (engine sources, no built engine)."""
    return os.path.isdir(os.path.join(HERE, 'src')) and not _built_engines(HERE)


def _built_engines(directory):
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [os.path.join(directory, name) for name in names
            if any(name == '_engine' + suffix for suffix in suffixes)]


def installed_engine_dir():
    """Return the installed distribution's ``robot_dynamics/engine`` directory, or None.

    Searched on ``sys.path`` without the checkout and the working directory.
    """
    shadowing = {CHECKOUT, os.path.abspath(os.curdir)}
    path = [entry for entry in sys.path
            if entry and os.path.abspath(entry) not in shadowing]
    for dist in importlib.metadata.distributions(name='robot_dynamics', path=path):
        where = dist.locate_file(os.path.join('robot_dynamics', 'engine'))
        directory = os.path.abspath(str(where))
        if directory != HERE and _built_engines(directory):
            return directory
    return None


def borrow_installed_engine():
    """Load the installed engine into this checkout when it was built from the same sources."""
    where = f'you are importing the source checkout at {PACKAGE_DIR}, which has no compiled engine'
    directory = installed_engine_dir()
    if directory is None:
        return None, (f'{where}, and no installed robot_dynamics was found beside it; {SLOWER}. '
                      f'Install the package (pip install . in {CHECKOUT}) or run from outside '
                      'the checkout.')
    built, tree = recorded_hash(directory), source_hash(PACKAGE_DIR)
    if built != tree:
        return None, (f'{where}, and the installed engine in {directory} was built from '
                      f'different engine sources (recorded hash {built}, the checkout\'s {tree}); '
                      f'{SLOWER}. Run pip install . in {CHECKOUT} again to rebuild the installed '
                      'engine from these sources, or run from outside the checkout.')
    spec = importlib.util.spec_from_file_location(NAME, _built_engines(directory)[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[NAME] = module
    return module, None
