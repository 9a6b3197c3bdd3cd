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
"""Why an explicit integration diverged: the joint damping against the scheme's stability limit.

Near a state the damping and friction act as ``M δq̈ = -D δq̇`` with
``D = diag(max(∂τ_f/∂q̇, 0))`` (``model/friction.py``), so the velocity modes decay at the
rates ``λ`` of the generalised eigenproblem ``D v = λ M v``. An explicit scheme keeps such a
mode bounded only while ``λ dt`` stays within its stability interval on the negative real
axis: 2 for explicit and semi-implicit Euler (``|1 - λ dt| <= 1``), 2.785 for the classical
RK4 (``|1 - z + z²/2 - z³/6 + z⁴/24| <= 1``). Beyond it the state grows by a factor
``|R(-λ dt)|`` per step and overflows within tens of steps: the xArm7's wrist, 2 N m s/rad on
1.4e-4 kg m², has ``λ dt ≈ 14`` at 1 ms. The ``'implicit'`` integrator is stable for any
``λ dt``.
"""

import numpy as np

from robot_dynamics.api import mass_matrix
from robot_dynamics.model import bounds
from robot_dynamics.model.friction import friction_slopes
from robot_dynamics.simulation.drives import saturated_joints
from robot_dynamics.simulation.schemes import SimulationError

#: Largest stable ``λ dt`` of each explicit scheme for a pure damping mode ``q̈ = -λ q̇``.
STABILITY_LIMITS = {'euler': 2.0, 'semi_implicit_euler': 2.0, 'rk4': 2.785}


def damping_rate(model, q, qd):
    """Return ``(λ, j)``: the fastest damping rate (1/s) near ``(q, qd)`` (n,) and its joint.

    ``λ`` is the largest generalised eigenvalue of ``D v = λ M v``; ``j`` the joint whose
    ``D_jj / M_jj`` is largest (the stiff joint to name). ``(0.0, None)`` without damping.
    """
    slopes = np.maximum(friction_slopes(model, np.asarray(qd, dtype=float)), 0.0)
    if not np.any(slopes > 0):
        return 0.0, None
    M = mass_matrix(model, q)
    L_inv = np.linalg.inv(np.linalg.cholesky(M))
    rate = float(np.linalg.eigvalsh(L_inv @ np.diag(slopes) @ L_inv.T)[-1])
    return rate, int(np.argmax(slopes / np.diag(M)))


def divergence_advice(model, q, qd, dt, integrator):
    """Return why the integration from ``(q, qd)`` diverged and what to change (a sentence).

    Names the stiff joint when its damping exceeds the scheme's stability limit
    (:func:`stiff_damping`); otherwise says that ``dt`` is too large for the torques. Both
    name the fixes: a smaller ``dt`` and the ``'implicit'`` integrator.
    """
    return stiff_damping(model, q, qd, dt, integrator) or _step_too_large(dt, integrator)


def _step_too_large(dt, integrator):
    fix = ("use integrator='implicit'" if not integrator.startswith('implicit') else
           'check the torques and the model')
    return (f'dt = {dt:g} s is too large for these torques, or the torques are unbounded: '
            f'use a smaller dt, or {fix}')


def stiff_damping(model, q, qd, dt, integrator):
    """Return the sentence naming the joint whose damping is too stiff for the scheme, or ''.

    '' for the implicit schemes, without damping, or with ``λ dt`` within the explicit
    scheme's stability limit (:data:`STABILITY_LIMITS`).
    """
    limit = STABILITY_LIMITS.get(integrator)
    if limit is None or not (np.all(np.isfinite(q)) and np.all(np.isfinite(qd))):
        return ''
    try:
        rate, j = damping_rate(model, q, qd)
    except np.linalg.LinAlgError:
        return ''
    if j is None or not rate * dt > limit:
        return ''
    M_jj = float(mass_matrix(model, q)[j, j])
    slope = float(np.maximum(friction_slopes(model, np.asarray(qd, dtype=float)), 0)[j])
    return (f'the joint damping is too stiff for explicit {integrator} at dt = {dt:g} s: '
            f'joint {model.joint_names[j]!r} has {slope:.3g} N m s/rad on '
            f'{M_jj:.3g} kg m^2 of inertia, and the fastest damping mode gives '
            f'lambda dt = {rate * dt:.3g}, beyond the {integrator} stability limit '
            f'{limit:g}; use integrator=\'implicit\' (stable for any damping) or '
            f'dt <= {0.9 * limit / rate:.3g} s')


# ---------------------------------------------------------------------- speeds beyond the bound
def plausible_run(model, run, dt, integrator):
    """Return ``run``, or raise if a speed beyond ``bounds.MAX_VELOCITY`` shows divergence.

    A diverging explicit run grows by a factor per step and overflows within tens of steps;
    one that ends before overflowing would return absurd but finite numbers (the stiff wrist
    arm: 2.6e89 rad/s after 5 ms of rk4 at 1 ms).
    """
    fast = np.flatnonzero(np.any(~(np.abs(run.qd) <= bounds.MAX_VELOCITY), axis=1))
    if fast.size == 0:
        return run
    k = max(fast[0] - 1, 0)
    when = f'at t = {run.t[fast[0]]:.4g} s'
    raise SimulationError(beyond_plausible(model, run.qd[fast[0]], when, 'run',
                                           (run.q[k], run.qd[k], run.tau[k]), dt, integrator))


def check_start_speed(model, qd, name):
    """Raise ``ValueError`` if a checked start speed ``qd`` (N, n) is beyond MAX_VELOCITY."""
    fast = np.flatnonzero(np.any(np.abs(qd) > bounds.MAX_VELOCITY, axis=1))
    if fast.size:
        j = int(np.argmax(np.abs(qd[fast[0]])))
        row = f' (batch row {fast[0]})' if len(qd) > 1 else ''
        raise ValueError(f'{name}: joint {model.joint_names[j]!r} starts at {qd[fast[0], j]:.3g} '
                         f'rad/s (m/s){row}, beyond the plausible {bounds.MAX_VELOCITY:g}; give '
                         'speeds in rad/s (m/s)')


def check_step_speeds(model, q, qd, qd_next, dt, integrator, tau=None):
    """Refuse a step from a checked state ``(q, qd)`` whose start or end speed is implausible.

    The checks of :func:`~robot_dynamics.simulate`: a start ``qd`` beyond ``MAX_VELOCITY`` is
    a ``ValueError`` (as its ``qd0``), an end ``qd_next`` beyond it a :class:`SimulationError`
    with :func:`plausible_run`'s message and advice (the batch row named for a batch; ``tau``
    the step's torque, :func:`beyond_plausible`).
    """
    if max(np.abs(qd).max(initial=0.0), np.abs(qd_next).max(initial=0.0)) \
            <= bounds.MAX_VELOCITY:                     # the common case, in ~1 µs
        return
    qd_next = np.reshape(qd_next, (-1, model.dof))
    qd = np.reshape(np.asarray(qd, dtype=float), (-1, model.dof))
    check_start_speed(model, qd, 'qd')
    if np.all(np.abs(qd_next) <= bounds.MAX_VELOCITY):
        return
    q = np.reshape(np.asarray(q, dtype=float), (-1, model.dof))
    k = int(np.flatnonzero(np.any(~(np.abs(qd_next) <= bounds.MAX_VELOCITY), axis=1))[0])
    when = f'in one step of dt = {dt:g} s' + (f' (batch row {k})' if len(qd_next) > 1 else '')
    tau = None if tau is None else np.reshape(np.asarray(tau, dtype=float), (-1, model.dof))
    start = (q[k % len(q)], qd[k % len(qd)], None if tau is None else tau[k % len(tau)])
    raise SimulationError(beyond_plausible(model, qd_next[k], when, 'step', start, dt,
                                           integrator))


def beyond_plausible(model, qd, when, what, start, dt, integrator):
    """Return the message for a speed ``qd`` (n,) beyond MAX_VELOCITY and its cause.

    ``start`` is ``(q, qd, tau)`` (n,) of the step (``tau`` may be None): when torques at
    their effort limits drove the joints there and the scheme's own stability check
    (:func:`stiff_damping`) does not apply, the message says so
    (:func:`driven_by_efforts`), not that the integration diverged.
    """
    j = int(np.argmax(np.abs(qd)))
    head = (f'joint {model.joint_names[j]!r} reached {qd[j]:.3g} rad/s (m/s) {when}, beyond '
            f'the plausible {bounds.MAX_VELOCITY:g}')
    q0, qd0, tau = start
    stiff = stiff_damping(model, q0, qd0, dt, integrator)
    cause = driven_by_efforts(model, tau, j) if tau is not None and not stiff else ''
    if cause:
        return f'{head}: {cause}'
    return f'{head}: the {what} diverged; {stiff or _step_too_large(dt, integrator)}'


def driven_by_efforts(model, tau, j):
    """Return why torques ``tau`` (n,) at their effort limits sped joint ``j`` up ('' if not).

    A light joint under its saturated effort legitimately passes any speed bound when
    nothing limits its speed (the UR5's wrist: 28 N m reach 1000 rad/s in 5 ms): the fix is
    the drives' speed limit, not a smaller ``dt``.
    """
    saturated = saturated_joints(model, tau)
    if saturated.size == 0:
        return ''
    names = ', '.join(f'{model.joint_names[i]!r} {tau[i]:.3g}' for i in saturated[:3])
    more = f' and {saturated.size - 3} more' if saturated.size > 3 else ''
    limit = model.velocity_limit[j]
    rated = (f'its velocity limit is {limit:.3g}' if np.isfinite(limit) and limit > 0 else
             'it has no velocity limit')
    return (f'the commanded efforts at their effort limits (N m or N: {names}{more}) drove it '
            f'there, not a diverging integration: nothing in this model limits a joint\'s '
            f'speed ({rated}). Model the drives\' velocity limits (the simulation node\'s '
            'velocity_limits parameter; robot_dynamics.simulation.drives.drive_torque) or '
            'command smaller efforts')
