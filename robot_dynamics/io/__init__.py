# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""Reading and writing robot descriptions: URDF and Denavit-Hartenberg YAML.

Loaders return the fields of a :class:`~robot_dynamics.model.RobotModel` as a dict; the model's
named constructors (``RobotModel.from_urdf``, ``from_dh``) build and validate it.
"""
