# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""Customised dynamic models: symbolic generation (seed 001) and compiled code.

``generate(model, symbolic_inertia=False)`` returns a
:class:`~robot_dynamics.codegen.generator.GeneratedModel` with ``.multiplications``,
``.additions``, ``.source`` (Python), ``.c_source`` and ``.write(path)``.
"""

from robot_dynamics.codegen.generator import FUNCTIONS, GeneratedModel, fingerprint, generate

__all__ = ['FUNCTIONS', 'GeneratedModel', 'fingerprint', 'generate']
