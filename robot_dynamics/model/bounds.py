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
"""Plausibility bounds: finite is not enough for the inputs and outputs of a running node.

A value can be finite and still absurd (a 1e300 kg payload, velocities of 1e200 rad/s, gravity
of 1e308 m/s²); fed to the dynamics it gives inf or NaN, or numbers no actuator can produce.
These checks compare inputs with the model (joint limits, velocity limits) and with the fixed
ranges below, which are generous on purpose: they catch garbage, not unusual robots.
Every check raises :class:`~robot_dynamics.errors.PlausibilityError` naming the field, the
value, the bound and the fix. The ROS nodes call them (docs/robustness.md, "Plausibility
bounds"); the library itself stays permissive.

Units: rad for revolute joints, m for prismatic joints (velocities per s, accelerations per s²).
"""

import numpy as np

from robot_dynamics.errors import PlausibilityError
from robot_dynamics.spatial.inertia import inertia_matrix

MAX_GRAVITY = 100.0            # |g|, m/s² (about 10 g)
MAX_MASS = 1.0e4               # a link or a payload, kg
MAX_INERTIA = 1.0e4            # a principal moment of a link or payload, kg m²
MAX_LENGTH = 100.0             # a joint placement, a centre of mass offset, m
MAX_VISCOUS_FRICTION = 1.0e5   # N m s/rad (N s/m)
MAX_COULOMB_FRICTION = 1.0e5   # N m (N)
MAX_ROTOR_INERTIA = 1.0e2      # motor side, kg m²; reflected J G² must stay <= MAX_INERTIA
MAX_GEAR_RATIO = 1.0e4
POSITION_MARGIN = 0.1          # beyond a position limit still accepted (overshoot), rad or m
MAX_POSITION = {'revolute': 1.0e4, 'prismatic': MAX_LENGTH}   # joints without limits
VELOCITY_FACTOR = 1.5          # measured or desired speed up to 1.5 x the velocity limit
MAX_VELOCITY = 1.0e3           # joints without a velocity limit, rad/s or m/s
MAX_ACCELERATION = 1.0e4       # rad/s² or m/s²
MAX_OUTPUT = 1.0e6             # a published torque (N m), force (N) or mass-matrix entry
MAX_TRAJECTORY_POINTS = 10000  # points of one JointTrajectory
MAX_JOINT_NAMES = 1000         # joint_names of one trajectory: far more than any robot has
MAX_PAYLOAD_RATIO = 5.0        # a payload up to 5 x the mass of the arm's moving links
MAX_NODE_JOINTS = 100          # moving joints of a model a ROS node serves (real time)


def _first_bad(values, bound):
    """Index of the first entry with ``|value| > bound`` (bound per entry), or None."""
    values = np.asarray(values, dtype=float)
    bad = np.flatnonzero(~(np.abs(values) <= bound))      # NaN counts as bad
    return None if bad.size == 0 else int(bad[0])


def check_gravity(gravity):
    """Return ``gravity`` (3,) if finite with ``|g| <= MAX_GRAVITY``; raise otherwise."""
    gravity = np.asarray(gravity, dtype=float).reshape(-1)
    if gravity.size != 3 or not np.all(np.isfinite(gravity)):
        raise PlausibilityError(f'gravity: give 3 finite values in m/s^2, got '
                                f'{gravity.tolist()}')
    scale = float(np.abs(gravity).max())
    with np.errstate(over='ignore'):                # 1e308 * sqrt(3) is inf: still refused
        magnitude = scale * float(np.linalg.norm(gravity / scale)) if scale > 0 else 0.0
    if magnitude > MAX_GRAVITY:
        raise PlausibilityError(f'gravity: |g| = {magnitude:.3g} m/s^2 exceeds {MAX_GRAVITY} '
                                'm/s^2; give the vector in m/s^2, e.g. [0, 0, -9.81]')
    return gravity


def check_joint_values(name, values, dof, bound):
    """Check a per-joint parameter array: ``dof`` finite values in ``[0, bound]``."""
    values = np.asarray(values, dtype=float).reshape(-1)
    if values.size != dof:
        raise PlausibilityError(f'{name}: {values.size} values for {dof} joints')
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise PlausibilityError(f'{name}: every value must be finite and >= 0, got '
                                f'{values.tolist()}')
    i = _first_bad(values, bound)
    if i is not None:
        raise PlausibilityError(f'{name}[{i}] = {values[i]:.3g} exceeds the plausible '
                                f'{bound:.3g}; check the units')
    return values


def check_body(what, mass, com, inertia):
    """Check a rigid body: mass in [0, MAX_MASS], |com| <= MAX_LENGTH, a physical inertia.

    ``inertia`` (3, 3) about the centre of mass must be symmetric, positive semi-definite (a
    point mass has zero inertia), with principal moments <= MAX_INERTIA that satisfy the
    triangle inequality ``I1 + I2 >= I3``.
    """
    if not np.isfinite(mass) or not 0.0 <= mass <= MAX_MASS:
        raise PlausibilityError(f'{what} mass {mass:.3g} kg is outside [0, {MAX_MASS:.3g}] kg')
    offset = float(np.linalg.norm(com))
    if not offset <= MAX_LENGTH:
        raise PlausibilityError(f'{what} centre of mass is {offset:.3g} m away, more than '
                                f'{MAX_LENGTH} m; check the units')
    inertia = np.asarray(inertia, dtype=float)
    if not np.all(np.isfinite(inertia)) or not np.allclose(inertia, inertia.T):
        raise PlausibilityError(f'{what} inertia must be finite and symmetric')
    principal = np.linalg.eigvalsh(inertia)
    scale = max(principal[-1], 1e-12)
    if principal[0] < -1e-9 * scale:
        raise PlausibilityError(f'{what} inertia is not positive semi-definite (principal '
                                f'moments {principal.tolist()})')
    if principal[-1] > MAX_INERTIA:
        raise PlausibilityError(f'{what} inertia: principal moment {principal[-1]:.3g} kg m^2 '
                                f'exceeds {MAX_INERTIA:.3g} kg m^2; check the units')
    if principal[0] + principal[1] < principal[2] - 1e-9 * scale:
        raise PlausibilityError(f'{what} inertia violates the triangle inequality (principal '
                                f'moments {principal.tolist()}): not a rigid body')


def check_model(model):
    """Check every inertial and joint parameter of ``model`` against the ranges above.

    The triangle inequality is not required of links (published models violate it, e.g. the
    PUMA 560's link 1; the model warns), only of payloads (:func:`check_payload`).
    """
    check_gravity(model.gravity)
    for i, name in enumerate(model.link_names):
        if not 0.0 <= model.mass[i] <= MAX_MASS:
            raise PlausibilityError(f'mass of link {name!r} is {model.mass[i]:.3g} kg, outside '
                                    f'[0, {MAX_MASS:.3g}] kg')
        principal = np.linalg.eigvalsh(model.inertia[i])
        if not principal[-1] <= MAX_INERTIA:
            raise PlausibilityError(f'inertia of link {name!r}: principal moment '
                                    f'{principal[-1]:.3g} kg m^2 exceeds {MAX_INERTIA:.3g}')
        for field in ('com', 'placement_translation'):
            length = float(np.linalg.norm(getattr(model, field)[i]))
            if not length <= MAX_LENGTH:
                raise PlausibilityError(f'{field} of link {name!r} is {length:.3g} m long, '
                                        f'more than {MAX_LENGTH} m')
    for field, bound in (('viscous_friction', MAX_VISCOUS_FRICTION),
                         ('coulomb_friction', MAX_COULOMB_FRICTION),
                         ('rotor_inertia', MAX_ROTOR_INERTIA),
                         ('gear_ratio', MAX_GEAR_RATIO)):
        check_joint_values(field, getattr(model, field), model.dof, bound)
    check_joint_values('reflected rotor inertia (rotor_inertia * gear_ratio^2)',
                       model.reflected_inertia, model.dof, MAX_INERTIA)
    return model


def check_payload(mass, com, inertia):
    """Check a payload: mass (kg), centre of mass (m), inertia about it (kg m²).

    ``inertia`` is (3, 3) or ``[ixx, iyy, izz, ixy, iyz, ixz]``; see :func:`check_body`.
    """
    check_body('payload', float(mass), np.asarray(com, dtype=float),
               inertia_matrix(inertia, 'payload inertia'))


def check_payload_on(model, mass):
    """Refuse a payload heavier than ``MAX_PAYLOAD_RATIO`` times ``model``'s moving links.

    Arms carry a fraction of their own mass (a UR5: 5 kg on 17 kg; heavy industrial arms
    about a quarter); five times is beyond any arm, e.g. a 1000 kg payload sent to a UR5. A
    model without link masses has no reference and is not checked here (``MAX_MASS`` is).
    """
    total = float(model.total_mass)
    if total > 0 and mass > MAX_PAYLOAD_RATIO * total:
        raise PlausibilityError(
            f'payload mass {mass:.4g} kg is {mass / total:.3g}x the mass of the arm\'s moving '
            f'links ({total:.4g} kg), more than {MAX_PAYLOAD_RATIO:g}x: no arm carries that; '
            'check the mass (kg) and that the payload is sent to the right robot')


def position_bounds(model):
    """Return the lowest and highest accepted positions (n,): limits +- ``POSITION_MARGIN``."""
    unlimited = np.array([MAX_POSITION[t] for t in model.joint_types])
    lower = np.where(np.isfinite(model.lower_limit), model.lower_limit - POSITION_MARGIN,
                     -unlimited)
    upper = np.where(np.isfinite(model.upper_limit), model.upper_limit + POSITION_MARGIN,
                     unlimited)
    return lower, upper


def velocity_bounds(model):
    """Return the accepted speeds (n,): ``VELOCITY_FACTOR`` x limit, else ``MAX_VELOCITY``."""
    return np.where(np.isfinite(model.velocity_limit), VELOCITY_FACTOR * model.velocity_limit,
                    MAX_VELOCITY)


def check_locked_positions(model, positions, margin=POSITION_MARGIN):
    """Check locked-joint positions (name → rad or m) for :meth:`RobotModel.with_locked_positions`.

    Each name must be a locked joint of ``model`` and each value finite and within the joint's
    limits widened by ``margin`` (``MAX_POSITION`` of its kind when it has none). Measured
    positions get ``POSITION_MARGIN``, as the chain's joints (:func:`check_state`); a
    configured one gets 0, as the URDF loader.
    """
    groups = model.locked_branches.groups()
    for name, value in positions.items():
        if name not in groups:
            raise PlausibilityError(f'locked_joints: {name!r} is not a locked joint of this '
                                    f'model; locked joints are {list(model.locked_joints)}')
        lower, upper = groups[name].limits
        kind = 'prismatic' if groups[name].kind == 'prismatic' else 'revolute'
        low = lower - margin if np.isfinite(lower) else -MAX_POSITION[kind]
        high = upper + margin if np.isfinite(upper) else MAX_POSITION[kind]
        if not low <= value <= high:                   # NaN fails too
            unit = 'm' if kind == 'prismatic' else 'rad'
            limits = (f'its limits [{lower:.6g}, {upper:.6g}]'
                      + (f' widened by {margin}' if margin else '')
                      if np.isfinite(lower) and np.isfinite(upper) else
                      f'the plausible [{low:.6g}, {high:.6g}] {unit}')
            raise PlausibilityError(f'locked_joints: {name!r} = {value:.6g} is outside {limits}')


def _check_rows(model, what, positions, velocities, accelerations):
    """Check (K, n) or (n,) positions/velocities/accelerations against the model's bounds."""
    names = model.joint_names
    if positions is not None:
        lower, upper = position_bounds(model)
        rows = np.atleast_2d(positions)
        bad = np.argwhere(~((rows >= lower) & (rows <= upper)))
        if bad.size:
            k, j = bad[0]
            raise PlausibilityError(
                f'{what} position of {names[j]!r} is {rows[k, j]:.6g}, outside the joint '
                f'limits widened by {POSITION_MARGIN} ([{lower[j]:.6g}, {upper[j]:.6g}])')
    for label, values, bound in (('velocity', velocities, velocity_bounds(model)),
                                 ('acceleration', accelerations, MAX_ACCELERATION)):
        if values is None:
            continue
        rows = np.atleast_2d(values)
        bad = np.argwhere(~(np.abs(rows) <= bound))
        if bad.size:
            k, j = bad[0]
            limit = np.broadcast_to(bound, (model.dof,))[j]
            raise PlausibilityError(f'{what} {label} of {names[j]!r} is {rows[k, j]:.3g}, '
                                    f'beyond the plausible {limit:.3g}')


def check_state(model, q, qd=None):
    """Check a measured joint state (n,) in model order against the model's limits."""
    _check_rows(model, 'joint state', q, qd, None)


class StateBounds:
    """:func:`check_state` for one model with its bounds computed once (per-message use)."""

    def __init__(self, model):
        self.model = model
        lower, upper = position_bounds(model)
        self.centre, self.half_range = (lower + upper) / 2, (upper - lower) / 2
        self.speed = velocity_bounds(model)

    def check(self, q, qd=None):
        """Raise :class:`PlausibilityError` (as :func:`check_state`) if ``q, qd`` are not."""
        inside = (np.abs(q - self.centre) <= self.half_range).all()     # NaN is outside
        if not inside or (qd is not None and not (np.abs(qd) <= self.speed).all()):
            check_state(self.model, q, qd)               # names the first offending joint


def check_trajectory(model, positions, velocities=None, accelerations=None):
    """Check the waypoints (K, n) of a desired trajectory in model order.

    Their number is checked where a request is read (``MAX_TRAJECTORY_POINTS``,
    :class:`robot_dynamics.control.goals.TrajectoryRequest`): the motion commanded from it
    holds the current state too, and a positions-only one two knots per point.
    """
    _check_rows(model, 'trajectory', positions, velocities, accelerations)


def check_interpolated(model, times, peak_velocity, peak_acceleration):
    """Check the motion between waypoints: per-segment peak speeds and accelerations.

    ``times`` (K,) are the waypoints' times, s; ``peak_velocity``, ``peak_acceleration``
    (K-1, n) the peak ``|qd|`` and ``|qdd|`` of each segment of the interpolant actually
    sampled (:func:`robot_dynamics.simulation.trajectory.segment_peaks`), bounded as the
    waypoints: ``VELOCITY_FACTOR`` x the velocity limit (else ``MAX_VELOCITY``) and
    ``MAX_ACCELERATION``. Waypoints with modest velocities can still imply an absurd motion
    between them (0 and 2 rad alternating every 1 ms: 3,750 rad/s).
    """
    for label, peaks, bound in (('velocity', peak_velocity, velocity_bounds(model)),
                                ('acceleration', peak_acceleration, MAX_ACCELERATION)):
        bad = np.argwhere(~(np.asarray(peaks) <= bound))
        if bad.size:
            k, j = bad[0]
            limit = np.broadcast_to(bound, (model.dof,))[j]
            raise PlausibilityError(
                f'trajectory {label} of {model.joint_names[j]!r} reaches {peaks[k, j]:.3g} '
                f'between t = {times[k]:.6g} s and {times[k + 1]:.6g} s (interpolated between '
                f'the waypoints), beyond the plausible {limit:.3g}; space the waypoints '
                'further apart in time or give velocities and accelerations that match them')


def too_many_joints(model):
    """Return why a node refuses ``model`` (more than ``MAX_NODE_JOINTS`` moving joints)."""
    return (f'the model {model.name!r} has {model.dof} moving joints, more than '
            f'MAX_NODE_JOINTS = {MAX_NODE_JOINTS} that a node serves in real time (a '
            f'{model.dof}x{model.dof} mass matrix per state); choose the chain with '
            'base_link/tip_link or lock joints with locked_joints')


def check_output(name, values):
    """Check an output array: finite with every ``|value| <= MAX_OUTPUT``."""
    peak = np.abs(values).max(initial=0.0)         # one pass: NaN and inf fail the test
    if peak <= MAX_OUTPUT:
        return
    if not np.isfinite(values).all():
        raise PlausibilityError(f'{name} is not finite')
    if peak > MAX_OUTPUT:
        raise PlausibilityError(f'{name} reaches {peak:.3g}, beyond the plausible '
                                f'{MAX_OUTPUT:.3g}')
