# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""The robot model: :class:`RobotModel`, its frame conventions and the bundled robots.

The model is plain data (stacked per-joint arrays, validated, immutable). Its named
constructors read files through :mod:`robot_dynamics.io`; algorithms live in
:mod:`robot_dynamics.algorithms`.
"""

from robot_dynamics.errors import ModelWarning
from robot_dynamics.model.robot_model import RobotModel
from robot_dynamics.spatial.inertia import combine_bodies, inertia_matrix
from robot_dynamics.spatial.joints import JOINT_TYPES, PRISMATIC, REVOLUTE

__all__ = ['JOINT_TYPES', 'ModelWarning', 'PRISMATIC', 'REVOLUTE', 'RobotModel',
           'combine_bodies', 'inertia_matrix']
