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
"""The generalized-momentum observer: external joint torques from motion and motor torques.

With the equation of motion ``M(q) q̈ + C(q, q̇) q̇ + G(q) + τ_f(q̇) = τ + τ_ext`` (``τ`` the
motor torques, ``τ_ext = Jᵀ w`` the torque of the environment's wrenches **on** the robot; the
tool wrench ``f_tip`` of :mod:`robot_dynamics.api` has the opposite sense, ``τ_ext = -ᴺJᵀ
f_tip``), the momentum ``p = M q̇`` obeys ``ṗ = τ - β + τ_ext`` with
``β = G - Cᵀ q̇ + τ_f`` (``Ṁ = C + Cᵀ``). The residual (De Luca & Mattone 2003; Haddadin,
De Luca & Albu-Schäffer, "Robot Collisions", IEEE T-RO 2017, eq. 29)::

    r(t) = K (p(t) - p(t₀) - ∫ (τ + Cᵀ q̇ - G - τ_f + r) ds),   i.e.   ṙ = K (τ_ext - r)

needs no acceleration: ``r`` follows ``τ_ext`` through a first-order low-pass of bandwidth
``K`` (1/s, per joint): a step of height ``s`` is seen as ``s (1 - e^{-K t})`` (63 % after
``1/K``, 99.3 % after ``5/K``). Rotor inertia is in ``M``, friction in ``β``.

**Discretisation, exact at any sample times.** Between samples ``k`` and ``k+1`` (``h =
t_{k+1} - t_k``, any ``h > 0``) with ``y = p - ∫ (τ - β)``, ``ṙ = K (ẏ - r)`` is solved
exactly when ``y`` grows linearly over the interval::

    r_{k+1} = e^{-K h} r_k + (1 - e^{-K h}) Δy / h,   Δy = Δp - h (τ̄ - β̄)

``Δp`` is the momentum's exact increment; ``β̄`` is the trapezoid mean of ``β`` at the two
samples and ``τ̄`` that of ``τ`` (``hold='linear'``: torques sampled from a continuous signal,
a torque sensor's or a current's) or ``τ_k`` (``hold='previous'``: a torque held from each
sample to the next, as a controller's command or :func:`robot_dynamics.simulate`'s rows). So
the estimate is exact (to rounding) for a constant ``τ_ext`` whenever ``τ - β`` is linear in
time over each interval (``hold='linear'``) or ``β`` is and ``τ`` is held; otherwise it is off
by the trapezoid rule's ``h² (τ - β)'' / 12`` (1e-6 of the torque's second derivative at
1 kHz), never by an error that grows with ``K h``: an Euler step (``r += K h (…)``) is
unstable beyond ``K h = 2``, this is stable at any gain and rate. The momentum's rate
``ṗ = M q̈ + Ṁ q̇`` goes through the same filter (:attr:`MomentumObserver.momentum_rate`:
the inertial torque of the motion, a feature of the collision thresholds).

The engine computes ``p``, ``Cᵀ q̇`` and ``G`` in one O(n) pass (``engine/src/momentum.c``)
and runs the whole step in C; :class:`MomentumObserver` (streaming) and
:func:`momentum_observer` (a recording) go through that same step, so they agree to the bit.
Without the engine both run :func:`numpy_step`, built from the mass matrix, its derivative
and Newton-Euler instead (the same numbers to rounding).
"""

from dataclasses import dataclass

import numpy as np

from robot_dynamics.algorithms.crba import mass_matrix_crba
from robot_dynamics.api import coriolis_torques, gravity_torques, mass_matrix_derivatives
from robot_dynamics.engine import ENGINE as _engine
from robot_dynamics.errors import warn
from robot_dynamics.model.arguments import batch_arguments, per_joint
from robot_dynamics.model.friction import friction_torques

#: The default observer gain K, 1/s: time constant 20 ms (99.3 % of a step after 0.1 s);
#: noise in the momentum passes as ``σ_p √(K / h)``. See docs/contacts.md#the-gain-and-the-delay.
DEFAULT_GAIN = 50.0
#: How the motor torque is taken between samples: linear (sampled signals) or held.
HOLDS = ('linear', 'previous')
#: The state's header and blocks (engine/src/observer.h).
HEADER = 3
BLOCKS = ('gain', 'momentum', 'beta', 'torque', 'tau_ext', 'momentum_rate', 'gravity')


def check_gain(model, gain):
    """Return the gain as (n,) floats, 1/s; refuse one that is not finite and positive."""
    K = per_joint(model, DEFAULT_GAIN if gain is None else gain, 'gain', 'in 1/s')
    if not np.all(np.isfinite(K) & (K > 0)):
        raise ValueError(f'gain: {K.tolist()} 1/s; every gain must be a finite number > 0: the '
                         'observer\'s bandwidth, its estimate follows a step with the time '
                         f'constant 1/gain (default {DEFAULT_GAIN:g} 1/s, 20 ms)')
    return K


def check_hold(hold):
    """Return the torque hold's engine code (0 linear, 1 previous)."""
    if hold not in HOLDS:
        raise ValueError(f'hold: {hold!r}; use \'linear\' (torques sampled from a continuous '
                         'signal) or \'previous\' (each torque held until the next sample)')
    return HOLDS.index(hold)


def warn_without_friction(model):
    """Say, once per call site, that the estimate will hold the real joints' friction."""
    if not model.has_friction:
        warn(f'model {model.name!r} has no joint friction: the external torque estimate will '
             'include the real joints\' friction (it is not an external torque) and the '
             'collision thresholds must cover it; identify the friction (robot-dynamics '
             'identify) or load it (friction= / --friction)')


def new_state(model, gain, hold):
    """Return a fresh observer state (float64, engine/src/observer.h's layout)."""
    state = np.zeros(HEADER + len(BLOCKS) * model.dof)
    state[2] = check_hold(hold)
    state[HEADER:HEADER + model.dof] = check_gain(model, gain)
    return state


class MomentumObserver:
    """The observer for one sample at a time: a node's loop, a user's control loop.

    ``update(t, q, qd, tau)`` takes one sample (time in s, arrays (n,) in the model's joint
    order, ``tau`` the measured motor torques) and returns the estimate ``τ̂_ext`` (n,) after
    it; the first sample only starts the observer (zeros). The estimate equals
    :func:`momentum_observer`'s row for row, to the bit (the numpy fallback's to 1e-12). Times
    must increase; NaN or missing
    values raise ``ValueError`` naming the argument and the joints (the state is unchanged:
    skip the sample, the next one integrates over the longer interval exactly).
    """

    def __init__(self, model, gain=None, hold='linear'):
        """Observe ``model`` with ``gain`` (1/s, one or per joint; default 50)."""
        self.model = model
        self.gain = check_gain(model, gain)
        self.hold = hold
        self._state = new_state(model, self.gain, hold)
        self._step = numpy_step if _engine is None else _engine.momentum_observer
        blocks = self._state[HEADER:].reshape(len(BLOCKS), model.dof)
        self._views = {name: blocks[k] for k, name in enumerate(BLOCKS)}
        self._read_only = {name: _read_only(self._views[name])     # made once: a node reads
                           for name in ('momentum_rate', 'gravity')}   # them at every sample
        warn_without_friction(model)

    def update(self, t, q, qd, tau):
        """Take the sample at time ``t`` (s); return ``τ̂_ext`` (n,), N m or N."""
        if tau is None:
            raise ValueError(missing_efforts())
        return self._step(self.model, self._state, t, q, qd, tau, False)

    def reset(self):
        """Forget every sample: the next update starts the observer again."""
        self._state[0] = 0.0
        self._views['tau_ext'][:] = 0.0
        self._views['momentum_rate'][:] = 0.0

    @property
    def time(self):
        """Return the last sample's time, s (None before the first)."""
        return float(self._state[1]) if self._state[0] else None

    @property
    def tau_ext(self):
        """Return the current estimate ``τ̂_ext`` (n,) (a copy)."""
        return self._views['tau_ext'].copy()

    @property
    def momentum_rate(self):
        """Return ``d(M q̇)/dt`` through the observer's filter (n,), N m (a read-only view)."""
        return self._read_only['momentum_rate']

    @property
    def gravity(self):
        """Return ``G(q)`` of the last sample (n,), N m (a read-only view)."""
        return self._read_only['gravity']


def _read_only(view):
    out = view.view()
    out.flags.writeable = False
    return out


def missing_efforts():
    """Return the message for a sample or recording without motor torques."""
    return ('tau: the measured motor torques are missing (None): the observer compares them '
            'with the model, without them no contact can be told; record JointState.effort '
            '(on arms without torque sensors: motor currents times the torque constants)')


@dataclass(frozen=True)
class ObserverRun:
    """The observer over a recording.

    ``t`` (N,); ``tau_ext``, ``momentum_rate``, ``gravity``, ``qd`` (N, n); ``gain`` (n,) 1/s;
    ``hold``.
    """

    t: np.ndarray
    tau_ext: np.ndarray
    momentum_rate: np.ndarray
    gravity: np.ndarray
    qd: np.ndarray
    gain: np.ndarray
    hold: str


def observe(model, t, q, qd, tau, gain=None, hold='linear'):
    """Run the observer over a recording; return an :class:`ObserverRun`.

    ``t`` (N,) strictly increasing, s (any spacing); ``q``, ``qd``, ``tau`` (N, n) in the
    model's joint order, ``tau`` the measured motor torques.
    """
    if tau is None:
        raise ValueError(missing_efforts())
    state = new_state(model, gain, hold)
    warn_without_friction(model)
    step = numpy_step if _engine is None else _engine.momentum_observer
    r, pdot, g = step(model, state, t, q, qd, tau, True)        # checks every argument
    gain = state[HEADER:HEADER + model.dof].copy()
    return ObserverRun(np.asarray(t, dtype=float), r, pdot, g,
                       np.broadcast_to(np.asarray(qd, dtype=float), r.shape), gain, hold)


def momentum_observer(model, t, q, qd, tau, gain=None, hold='linear'):
    """Estimated external joint torques ``τ̂_ext`` (N, n) of a recording, N m or N.

    The generalized-momentum observer of the module docstring over samples at times ``t``
    (N,) s, strictly increasing, any spacing; ``q``, ``qd`` (N, n) the measured state and
    ``tau`` (N, n) the measured motor torques, in the model's joint order. ``gain`` K (1/s,
    one or per joint; default :data:`DEFAULT_GAIN`); ``hold`` how ``tau`` goes between samples
    (``'linear'`` or ``'previous'``). Row k is the estimate after sample k (row 0: zeros).
    Friction comes from the model's friction law; a model without friction is warned about.
    """
    return observe(model, t, q, qd, tau, gain, hold).tau_ext


# ---------------------------------------------------------------------- numpy twin
def momentum_terms(model, q, qd):
    """``p = M q̇``, ``Cᵀ q̇`` and ``G`` (each (N, n)) without the engine.

    ``M`` by the composite-rigid-body algorithm (rotors added), ``Cᵀ q̇ = Ṁ q̇ - C q̇`` with
    ``Ṁ = Σ_k ∂M/∂q_k q̇_k`` by complex step and ``C q̇`` and ``G`` by Newton-Euler: an
    independent derivation of the engine's one-pass recursion (``engine/src/momentum.c``).
    """
    M = mass_matrix_crba(model, q) + np.diag(model.reflected_inertia)
    p = np.einsum('nij,nj->ni', M, qd)
    M_dot_qd = np.einsum('nkij,nk,nj->ni', mass_matrix_derivatives(model, q), qd, qd)
    return p, M_dot_qd - coriolis_torques(model, q, qd, solver='rnea'), \
        gravity_torques(model, q, solver='rnea')


def numpy_step(model, state, t, q, qd, tau, series, chunk=2048):
    """Run the engine's ``momentum_observer`` in numpy: the same state, results and errors."""
    a, single = batch_arguments(model, q=q, qd=qd, tau=tau)
    times = np.atleast_1d(np.asarray(t, dtype=float))
    n, N = model.dof, len(a['q'])
    if times.shape != (N,) or np.ndim(t) != (0 if single else 1):
        wanted = 'one time (a number) with one sample' if single else 'one time per sample'
        raise ValueError(f't: expected {wanted}, got {np.size(t)} value(s)')
    blocks = state[HEADER:].reshape(len(BLOCKS), n)
    K, p_, w_, held, r, pdot, G = blocks
    out = np.empty((3, N, n))
    for start in range(0, N, chunk):
        rows = slice(start, start + chunk)
        p_all, c_all, g_all = momentum_terms(model, np.array(a['q'][rows]),
                                             np.array(a['qd'][rows]))
        w_all = c_all - g_all - friction_torques(model, np.array(a['qd'][rows]))
        for k in range(len(p_all)):
            row = start + k
            _numpy_update(state, times[row], row, p_all[k], w_all[k], a['tau'][row], blocks)
            G[:] = g_all[k]
            out[:, row] = r, pdot, G
    result = tuple(x[0] if single else x for x in out)
    return result if series else result[0]


def _numpy_update(state, t, row, p_now, w_now, tau, blocks):
    """One step of ``engine/src/momentum.c``'s ``rd_observer_update``."""
    K, p, w, held, r, pdot, G = blocks
    if not np.isfinite(t):
        raise ValueError(f't: sample {row} has the time {t}; give finite times in seconds')
    if state[0]:
        h = t - state[1]
        if not h > 0:
            raise ValueError(f't: sample {row} at {t:.9g} s is not after the previous sample at '
                             f'{state[1]:.9g} s; give strictly increasing times (sort the '
                             'samples, drop repeated stamps) or reset the observer')
        dp = p_now - p
        torque = held if state[2] else 0.5 * (held + tau)
        dy = dp - h * (torque + 0.5 * (w + w_now))
        b = -np.expm1(-K * h)                                      # 1 - e^{-K h}
        r += b * (dy / h - r)
        pdot += b * (dp / h - pdot)
    else:
        r[:] = pdot[:] = 0.0
    p[:], w[:], held[:] = p_now, w_now, tau
    state[0], state[1] = 1.0, t
