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
"""robot_dynamics: exact, fast dynamics of serial robot arms.

Example::

    import numpy as np
    import robot_dynamics as rd

    model = rd.load_model('puma560')                 # or RobotModel.from_urdf(path)
    q = np.zeros(model.dof)
    tau = rd.inverse_dynamics(model, q, q, q)          # gravity torques at q = 0
    M = rd.mass_matrix(model, q)

Arrays are (n,) for one state or (N, n) for a batch; see :mod:`robot_dynamics.api`. The layers,
from the bottom up, are described in docs/architecture.md.
"""

from robot_dynamics import fast, solvers
from robot_dynamics.analysis.feasibility import FeasibilityReport, scaled_waypoints
from robot_dynamics.analysis.feasibility import check_trajectory as check_feasibility
from robot_dynamics.analysis.opcount import operation_counts
from robot_dynamics.analysis.time_optimal import (Retiming, TimeOptimalReport, time_optimal,
                                                  time_optimal_retiming)
from robot_dynamics.analysis.verify import VerificationReport, verify
from robot_dynamics.api import (
    cholesky_solve, coriolis_matrix, coriolis_torques, forward_dynamics,
    forward_dynamics_derivatives, friction_slopes, friction_torques, gravity_torques,
    inverse_dynamics, inverse_dynamics_derivatives, jacobian, kinetic_energy, mass_matrix,
    mass_matrix_dot, potential_energy, static_torques, tip_pose, total_energy,
)
from robot_dynamics.cartesian import (
    cartesian_coriolis_centrifugal, cartesian_dynamics, cartesian_mass_matrix,
    coriolis_centrifugal_matrices, jacobian_dot, velocity_products,
)
from robot_dynamics.codegen import generate
from robot_dynamics.contacts import (
    CollisionDetector, CollisionThresholds, MomentumObserver, collision_thresholds,
    detect_collisions, external_wrench, link_wrench_torques, momentum_observer,
)
from robot_dynamics.errors import (DHError, InfeasiblePathError, ModelError, ModelWarning,
                                   ResultOverflowError, SingularityError, SolverError, URDFError)
from robot_dynamics.identification import (
    base_parameters, design_excitation, identify, parameters, regressor,
)
from robot_dynamics.model import RobotModel
from robot_dynamics.model.bundled import BUNDLED_MODELS, data_path, load_model
from robot_dynamics.simulation.integrators import SimulationError, simulate, step
from robot_dynamics.simulation.linearize import linearize

__version__ = '0.1.0'

__all__ = [
    'BUNDLED_MODELS', 'DHError', 'ModelError', 'ModelWarning', 'ResultOverflowError',
    'RobotModel', 'SimulationError',
    'SolverError', 'URDFError', 'cholesky_solve', 'coriolis_matrix', 'coriolis_torques',
    'data_path', 'forward_dynamics', 'friction_torques', 'gravity_torques', 'inverse_dynamics',
    'jacobian', 'kinetic_energy', 'load_model', 'mass_matrix', 'mass_matrix_dot',
    'potential_energy', 'simulate', 'solvers', 'static_torques', 'step', 'tip_pose',
    'total_energy', 'verify', 'VerificationReport', 'operation_counts',
    'SingularityError', 'cartesian_coriolis_centrifugal', 'cartesian_dynamics',
    'cartesian_mass_matrix', 'coriolis_centrifugal_matrices', 'jacobian_dot', 'velocity_products',
    'fast', 'generate', 'base_parameters', 'design_excitation', 'identify', 'parameters',
    'regressor', 'friction_slopes', 'inverse_dynamics_derivatives',
    'forward_dynamics_derivatives', 'linearize',
    'check_feasibility', 'FeasibilityReport', 'scaled_waypoints',
    'MomentumObserver', 'momentum_observer', 'external_wrench', 'link_wrench_torques',
    'collision_thresholds', 'CollisionThresholds', 'detect_collisions', 'CollisionDetector',
    'time_optimal', 'time_optimal_retiming', 'Retiming', 'TimeOptimalReport',
    'InfeasiblePathError',
]
