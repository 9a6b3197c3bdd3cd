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
"""Friction laws to choose from, as regressor columns (the law itself: model/friction.py).

Every law of :mod:`robot_dynamics.model.friction` is linear in its torques once the smoothing
velocity ε and the Stribeck velocity v_s are fixed, so a law is a set of columns of joint j's
row of the regressor: the base regressor's ``FV_j`` (q̇) and ``FC_j`` columns, the latter
holding ``s(q̇)`` (``sign`` or ``tanh(q̇/ε)``), plus extra columns:

=============  =========================================  ====================================
law            joint j's friction columns                 parameters
=============  =========================================  ====================================
``coulomb``    q̇, sign(q̇)                                 FV, FC (the URDF's damping,
                                                          friction)
``offset``     q̇, sign(q̇), 1                              + F0 (offset)
``asymmetric`` q̇, sign(q̇), |sign(q̇)|                      + FA (Coulomb asymmetry)
``smooth``     q̇, tanh(q̇/ε), 1                           FV, FC, F0; ε from a grid
``stribeck``   q̇, s(q̇), 1, exp(-(q̇/v_s)²) s(q̇)           + FS; ε (or the step), v_s from a grid
=============  =========================================  ====================================

The grids scale with the joint's RMS velocity v over the fitted samples: ε ∈ {0.01, 0.03,
0.1} v, v_s ∈ {0.03, 0.1, 0.3} v. :func:`features` evaluates all candidate extra columns
once; a :class:`Variant` picks its columns, so choosing a law per joint (by cross-validated
torque error, :mod:`robot_dynamics.identification.normal`) costs no new regressor pass.
"""

from dataclasses import dataclass

import numpy as np

LAWS = ('coulomb', 'offset', 'asymmetric', 'smooth', 'stribeck')
EPSILON = (0.01, 0.03, 0.1)
STRIBECK = (0.03, 0.1, 0.3)
# Extra feature columns, in this order: offset, asymmetry, tanh_k (k = 1..3), then
# Stribeck e_m s_k for the step (k = 0) and each tanh (k = 1..3), m = 1..3.
FEATURES = 2 + len(EPSILON) + (1 + len(EPSILON)) * len(STRIBECK)


@dataclass(frozen=True)
class Variant:
    """One law with its grid values.

    ``switch`` column (None: the base FC column, sign) and ``extras`` (feature indices),
    ``epsilon``/``stribeck_velocity`` (rad/s; 0 when unused).
    """

    law: str
    switch: int = None
    extras: tuple = ()
    epsilon: float = 0.0
    stribeck_velocity: float = 0.0
    names: tuple = ()                        # the extra parameters: 'F0', 'FA', 'FS'

    @property
    def size(self):
        """Return the number of parameters beyond FV, FC."""
        return len(self.extras)

    def describe(self):
        """Law, ε and v_s as text."""
        text = self.law
        if self.epsilon:
            text += f' (ε {self.epsilon:.3g})'
        if self.stribeck_velocity:
            text += f' (v_s {self.stribeck_velocity:.3g})'
        return text


def variants(scale, law=None):
    """Candidate variants of one joint whose RMS velocity is ``scale``; ``law`` limits them."""
    eps = [0.0] + [f * scale for f in EPSILON]
    found = [Variant('coulomb'), Variant('offset', extras=(0,), names=('F0',)),
             Variant('asymmetric', extras=(1,), names=('FA',))]
    found += [Variant('smooth', 2 + k, (0,), eps[k + 1], names=('F0',))
              for k in range(len(EPSILON))]
    for k in range(1 + len(EPSILON)):
        for m, factor in enumerate(STRIBECK):
            column = 2 + len(EPSILON) + k * len(STRIBECK) + m
            found.append(Variant('stribeck', None if k == 0 else 1 + k, (0, column), eps[k],
                                 factor * scale, ('F0', 'FS')))
    if law is None:
        return found
    if law not in LAWS:
        raise ValueError(f'friction law {law!r}: choose from {LAWS} or auto')
    return [v for v in found if v.law == law]


def features(qd, scale):
    """All candidate extra columns (K, FEATURES) of one joint's velocities ``qd`` (K,)."""
    qd = np.asarray(qd, dtype=float)
    step = np.sign(qd)
    switches = [step] + [np.tanh(qd / (f * scale)) for f in EPSILON]
    out = [np.ones_like(qd), np.abs(step)] + switches[1:]
    for s in switches:
        for factor in STRIBECK:
            out.append(np.exp(-(qd / (factor * scale)) ** 2) * s)
    return np.column_stack(out)


def supported_laws(chosen, values):
    """Return the laws (n,) the physical model holds: a Stribeck amplitude at 0 drops it.

    ``chosen``: the cross-validated variant per joint; ``values`` {name: value}: the
    physical model's extras (``'FS3'`` …). A joint whose Stribeck amplitude the physical model
    holds at its bound 0 (least squares wanted it negative) has the law without it: the same
    switch and offset (``smooth`` with a tanh, ``offset`` with the step).
    """
    out = []
    for j, variant in enumerate(chosen):
        if variant.law == 'stribeck' and values.get(f'FS{j + 1}', 0.0) == 0.0:
            variant = Variant('smooth' if variant.switch is not None else 'offset',
                              variant.switch, variant.extras[:1], variant.epsilon,
                              names=variant.names[:1])
        out.append(variant)
    return out


def model_fields(variant, values):
    """Model friction fields of one joint from a variant and its extras' values {name: v}."""
    return {'friction_smoothing': variant.epsilon,
            'friction_offset': values.get('F0', 0.0),
            'coulomb_asymmetry': values.get('FA', 0.0),
            'stribeck_friction': values.get('FS', 0.0),
            'stribeck_velocity': variant.stribeck_velocity if 'FS' in values else 0.0}
