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
"""Joint friction: the one home of the friction torque and its velocity derivative (numpy).

Per joint, from the model's fields (all default 0, which leaves viscous + Coulomb)::

    τ_f(q̇) = Fv q̇ + τ₀ + (Fc + Fs exp(-(q̇ / v_s)²)) s(q̇) + Fa |s(q̇)|
    s(q̇) = tanh(q̇ / ε) if ε > 0, else sign(q̇)

========================  ======  ==========================================================
field                     symbol  meaning
========================  ======  ==========================================================
``viscous_friction``      Fv      viscous, N m s/rad (N s/m)
``coulomb_friction``      Fc      Coulomb level, N m (N): ``Fc + Fa`` moving in +, ``Fc - Fa``
                                  moving in −
``coulomb_asymmetry``     Fa      direction-dependent Coulomb part, ``|Fa| <= Fc``
``friction_offset``       τ₀      constant offset (at rest too), e.g. a cable's pull or a
                                  torque-sensor bias
``friction_smoothing``    ε       velocity of the smooth zero crossing, rad/s (0: a step)
``stribeck_friction``     Fs      Stribeck excess of static over Coulomb friction at q̇ → 0
``stribeck_velocity``     v_s     Stribeck velocity, rad/s (> 0 where Fs > 0)
========================  ======  ==========================================================

(Olsson, Åström, Canudas de Wit, Gäfvert, Lischinsky, "Friction models and friction
compensation", Eur. J. Control 1998: the static map, eq. 6, with the tanh smoothing of
Makkar et al. 2005.) The derivative ``∂τ_f/∂q̇`` (:func:`friction_slopes`) is::

    Fv + (Fc + Fs e) s' - 2 Fs e s q̇ / v_s² + Fa sign(q̇) s',   e = exp(-(q̇/v_s)²)

with ``s' = (1 - s²) / ε``; for the step (ε = 0) ``s' = 0``, at q̇ = 0 too: the Coulomb and
Stribeck parts then contribute nothing, a documented choice (the step has no derivative
there; implicit integrators and linearisations see the viscous slope).

The compiled engine computes the same law (``engine/src/engine.h``: ``rd_friction``), so every
public function, forward dynamics and the integrators include it; the inverse dynamics,
forward dynamics and :func:`friction_torques` of the numpy path call this module.
"""

import numpy as np

#: The law's fields beyond viscous + Coulomb, in the engine's packed order.
EXTRA_FIELDS = ('friction_offset', 'coulomb_asymmetry', 'friction_smoothing',
                'stribeck_friction', 'stribeck_velocity')


def has_extra_friction(model):
    """Tell whether any joint uses more than viscous + symmetric Coulomb friction."""
    return any(np.asarray(getattr(model, name)).any() for name in EXTRA_FIELDS)


def _switch(model, qd):
    """``s(q̇)`` and ``s'(q̇)`` (shape of ``qd``): tanh where ε > 0, the step elsewhere."""
    eps = model.friction_smoothing
    smooth = eps > 0
    with np.errstate(divide='ignore', invalid='ignore'):
        s = np.where(smooth, np.tanh(qd / np.where(smooth, eps, 1.0)), np.sign(qd))
        slope = np.where(smooth, (1.0 - s * s) / np.where(smooth, eps, 1.0), 0.0)
    return s, slope


def _stribeck(model, qd):
    """``exp(-(q̇ / v_s)²)`` where Fs ≠ 0, else 0 (shape of ``qd``)."""
    active = model.stribeck_friction != 0
    ratio = qd / np.where(active, model.stribeck_velocity, 1.0)
    return np.where(active, np.exp(-ratio * ratio), 0.0)


def friction_torques(model, qd):
    """Joint friction ``τ_f(q̇)`` (the module's law), shape of ``qd`` ((n,) or (N, n))."""
    qd = np.asarray(qd, dtype=float)
    torque = model.viscous_friction * qd + model.coulomb_friction * np.sign(qd)
    if not has_extra_friction(model):
        return torque
    s, _ = _switch(model, qd)
    e = _stribeck(model, qd)
    return (model.viscous_friction * qd + model.friction_offset
            + (model.coulomb_friction + model.stribeck_friction * e) * s
            + model.coulomb_asymmetry * np.abs(s))


def friction_slopes(model, qd):
    """``∂τ_f/∂q̇`` per joint (friction couples no joints), shape of ``qd``; see the module."""
    qd = np.asarray(qd, dtype=float)
    if not has_extra_friction(model):
        return np.broadcast_to(model.viscous_friction, qd.shape).copy()
    s, ds = _switch(model, qd)
    e = _stribeck(model, qd)
    active = model.stribeck_friction != 0
    v2 = np.where(active, model.stribeck_velocity, 1.0) ** 2
    return (model.viscous_friction + (model.coulomb_friction + model.stribeck_friction * e) * ds
            - 2.0 * model.stribeck_friction * e * s * qd / v2
            + model.coulomb_asymmetry * np.sign(qd) * ds)


def friction_slope_rates(model, qd):
    """``∂²τ_f/∂q̇²`` per joint, shape of ``qd``: the rate of :func:`friction_slopes`.

    With ``s'' = -2 s s' / ε`` (0 for the step) and ``e' = -2 q̇ e / v_s²``:
    ``Fs e' s' + (Fc + Fs e) s'' - 2 Fs (e' s q̇ + e s' q̇ + e s) / v_s² + Fa sign(q̇) s''``
    (the implicit integrator's linearisation needs it, ``simulation/linearize.py``).
    """
    qd = np.asarray(qd, dtype=float)
    if not has_extra_friction(model):
        return np.zeros_like(qd)
    s, ds = _switch(model, qd)
    eps = model.friction_smoothing
    dds = np.where(eps > 0, -2.0 * s * ds / np.where(eps > 0, eps, 1.0), 0.0)
    e = _stribeck(model, qd)
    active = model.stribeck_friction != 0
    v2 = np.where(active, model.stribeck_velocity, 1.0) ** 2
    de = -2.0 * qd * e / v2
    fs = model.stribeck_friction
    return (fs * de * ds + (model.coulomb_friction + fs * e) * dds
            - 2.0 * fs * (de * s * qd + e * ds * qd + e * s) / v2
            + model.coulomb_asymmetry * np.sign(qd) * dds)


def check_friction_fields(model):
    """Return the first problem with the extra friction fields as text, or None."""
    if not has_extra_friction(model):      # all zero: no check below can fail (Fc >= 0)
        return None
    names = model.joint_names
    for j in np.flatnonzero(np.abs(model.coulomb_asymmetry) > model.coulomb_friction + 1e-12):
        return (f'coulomb_asymmetry of joint {names[j]!r} is {model.coulomb_asymmetry[j]:g} but '
                f'coulomb_friction only {model.coulomb_friction[j]:g}: the Coulomb levels '
                'Fc + Fa and Fc - Fa must both be >= 0; give |Fa| <= Fc')
    for name in ('friction_smoothing', 'stribeck_friction', 'stribeck_velocity'):
        for j in np.flatnonzero(getattr(model, name) < 0):
            return f'{name} of joint {names[j]!r} is {getattr(model, name)[j]:g}; give >= 0'
    for j in np.flatnonzero((model.stribeck_friction > 0) & ~(model.stribeck_velocity > 0)):
        return (f'stribeck_velocity of joint {names[j]!r} must be > 0 (rad/s or m/s) where '
                f'stribeck_friction is set ({model.stribeck_friction[j]:g})')
    return None
