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
"""Which engine sources a compiled engine was built from (a hash, recorded by setup.py).

Standard library only: ``setup.py`` loads this file by path, before the package is importable.
The source checkout deliberately holds no compiled ``_engine``; a Python started in the
checkout's root imports the checkout, and :mod:`robot_dynamics.engine` then borrows the
installed package's engine when this hash says it was built from the same sources.
"""

import glob
import hashlib
import os

#: The file, beside the installed ``_engine``, holding the hash of the sources it was built from.
HASH_FILE = '_engine_sources.sha256'


def engine_source_files(package_dir):
    """Return the engine's C sources and headers under the package directory ``package_dir``."""
    patterns = (os.path.join('engine', 'src', '*.c'), os.path.join('engine', 'src', '*.h'),
                os.path.join('codegen', '*.h'))
    return sorted(path for pattern in patterns
                  for path in glob.glob(os.path.join(package_dir, pattern)))


def source_hash(package_dir):
    """Return the SHA-256 (hex) of the engine sources' names and bytes under ``package_dir``."""
    digest = hashlib.sha256()
    for path in engine_source_files(package_dir):
        digest.update(os.path.relpath(path, package_dir).replace(os.sep, '/').encode())
        with open(path, 'rb') as stream:
            digest.update(hashlib.sha256(stream.read()).digest())
    return digest.hexdigest()


def recorded_hash(engine_dir):
    """Return the hash recorded beside a built engine in ``engine_dir``, or None."""
    try:
        with open(os.path.join(engine_dir, HASH_FILE), encoding='ascii') as stream:
            return stream.read().strip() or None
    except OSError:
        return None
