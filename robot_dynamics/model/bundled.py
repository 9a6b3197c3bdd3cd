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
"""Locate the package's bundled files (URDFs, DH YAML, configs, launch files).

Search order: the source tree next to the imported package (a checkout: its files are the
current ones), the ament index (a ROS environment with ``AMENT_PREFIX_PATH``), the share
directory of the prefix the imported package is installed in, then that of the running Python
prefix (``pip install .``). An installed package has no ``urdf/`` beside it, so it always reads
its installed copy.
"""

import functools
import os
import sys
import warnings

from robot_dynamics.errors import ModelWarning
from robot_dynamics.model.robot_model import RobotModel

PACKAGE = 'robot_dynamics'

# Bundled models (name -> file); docs/models.md gives the source of every number.
BUNDLED_MODELS = {
    'two_link': 'urdf/two_link.urdf',            # Craig §6.7 point-mass arm, x-z plane
    'two_link_dh': 'config/two_link_dh.yaml',    # the same arm, Craig's modified DH
    'puma560': 'urdf/puma560.urdf',              # Armstrong-Khatib-Burdick / Corke
    'puma560_dh': 'config/puma560_dh.yaml',
    'stanford': 'urdf/stanford.urdf',            # Paul 1981 / Corke, joint 3 prismatic
    'stanford_dh': 'config/stanford_dh.yaml',
    'renaud_6r': 'config/renaud_6r_dh.yaml',     # seed 001 example, modified DH
    'panda': 'urdf/panda.urdf',                  # Franka Panda, Gaz et al. 2019 inertials
    'ur5': 'urdf/ur5.urdf',                      # UR5, UR's published DH and inertials
}


def _candidates():
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    yield os.path.dirname(package_dir)      # a checkout: <root>/robot_dynamics/model/bundled.py
    try:
        from ament_index_python.packages import get_package_share_directory
        yield get_package_share_directory(PACKAGE)
    except Exception:  # no ROS environment, or the package is not in the index
        pass
    # The prefix this copy is installed in (<prefix>/lib/pythonX.Y/site-packages/robot_dynamics,
    # a colcon install/ tree included), also without AMENT_PREFIX_PATH.
    yield os.path.normpath(os.path.join(package_dir, *[os.pardir] * 4, 'share', PACKAGE))
    for prefix in dict.fromkeys((sys.prefix, sys.exec_prefix, os.environ.get('VIRTUAL_ENV'))):
        if prefix:
            yield os.path.join(prefix, 'share', PACKAGE)


def share_directory():
    """Return the first existing directory that holds the package's data (``urdf/`` inside)."""
    for candidate in _candidates():
        if os.path.isdir(os.path.join(candidate, 'urdf')):
            return candidate
    raise FileNotFoundError('robot_dynamics data files not found: install the package '
                            '(pip install . or colcon build) or run from the source tree')


def data_path(relative):
    """Absolute path of a bundled file such as ``'urdf/puma560.urdf'``."""
    path = os.path.join(share_directory(), relative)
    if not os.path.exists(path):
        raise FileNotFoundError(f'bundled file {relative!r} not found in {share_directory()}')
    return path


def load_model(name_or_path, friction=None, **kwargs):
    """Load a model from a bundled name (``'puma560'``, …), a URDF path or a DH YAML path.

    ``friction``: a friction sidecar (path, text or dict) applied after loading
    (:meth:`RobotModel.with_friction`); the other keywords go to the loader.
    """
    if friction is not None:
        return load_model(name_or_path, **kwargs).with_friction(friction)
    path = name_or_path
    if name_or_path in BUNDLED_MODELS:
        path = data_path(BUNDLED_MODELS[name_or_path])
    elif not os.path.exists(str(name_or_path)):
        raise FileNotFoundError(f'model {name_or_path!r} is neither a file nor a bundled model; '
                                f'bundled models: {", ".join(sorted(BUNDLED_MODELS))}')
    if str(path).endswith(('.yaml', '.yml')):
        return RobotModel.from_dh(path, **kwargs)
    return RobotModel.from_urdf(path, **kwargs)


@functools.lru_cache(maxsize=None)
def bundled_notes(name):
    """Return the notes (``ModelWarning`` texts) bundled model ``name`` gives as shipped.

    The loader's notes, then the model's warnings, each once. Every one is known and
    documented (docs/models.md; test/model/test_bundled_models.py pins them): the nodes log
    them as one INFO line, ``robot-dynamics check NAME`` lists them. Notes that a load with
    other options adds (``urdf_friction=False``, ``tip_link=``, …) are not among them.
    """
    if name not in BUNDLED_MODELS:
        raise ValueError(f'{name!r} is not a bundled model; one of {sorted(BUNDLED_MODELS)}')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', ModelWarning)
        model = load_model(name)
    said = [str(w.message) for w in caught if issubclass(w.category, ModelWarning)]
    return tuple(dict.fromkeys(said + list(model.warnings)))
