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
"""Identification of the inertial and joint parameters from recorded motion (issue 15).

``τ = Y(q, q̇, q̈) π`` is linear in the parameters (seed 001). The pipeline:
:func:`regressor` and :func:`parameters` (standard parameters), :func:`base_parameters`
(identifiable combinations), :func:`design_excitation` (optimal periodic trajectory),
:func:`identify` (cut-off and friction laws by cross-validation, weighted least squares with
block-bootstrap standard deviations, a physically consistent and plausible model within
:class:`Bounds`), the report in :mod:`robot_dynamics.identification.report`. See
docs/identification.md.
"""

from robot_dynamics.identification.base import BaseParameters, base_parameters
from robot_dynamics.identification.data import DataReport, Samples, prepare
from robot_dynamics.identification.excitation import (
    Excitation, ExcitationLimits, FourierTrajectory, condition_number, design_excitation,
)
from robot_dynamics.identification.estimation import (
    IdentificationResult, identify, with_parameters,
)
from robot_dynamics.identification.heldout import ValidationResult
from robot_dynamics.identification.plausible import Bounds
from robot_dynamics.identification.quality import MAX_ERROR, PoorFitError
from robot_dynamics.identification.regressor import parameter_names, parameters, regressor

__all__ = ['BaseParameters', 'Bounds', 'DataReport', 'Excitation', 'ExcitationLimits',
           'FourierTrajectory', 'IdentificationResult', 'MAX_ERROR', 'PoorFitError', 'Samples',
           'ValidationResult',
           'base_parameters', 'condition_number', 'design_excitation', 'identify',
           'parameter_names', 'parameters', 'prepare', 'regressor', 'with_parameters']
