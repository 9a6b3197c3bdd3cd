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
"""The immutable model of a serial robot arm.

A :class:`RobotModel` is a plain structure in the spirit of Featherstone's ``model``: stacked
per-joint arrays, no behaviour beyond validation and a few named constructors. Every algorithm
takes the model as its first argument and keeps its intermediates elsewhere.

Frames
------
Body ``i`` (``i = 0 … n-1``, one per moving joint) carries frame ``{i}``, whose origin lies on the
axis of joint ``i``. At ``q = 0`` frame ``{i}`` sits at ``placement_rotation[i]``,
``placement_translation[i]`` in the frame of body ``i-1`` (the base frame for ``i = 0``); the
joint then rotates about, or slides along, ``axis[i]`` (a unit vector in frame ``{i}``). This is
URDF's ``<joint><origin>`` convention, and it is also Craig's modified Denavit-Hartenberg link
frame. Link inertial data (``mass``, centre of mass ``com``, rotational inertia ``inertia``
about the centre of mass) are expressed in frame ``{i}``. The tool frame sits at
``tip_rotation``, ``tip_translation`` in the frame of the last body.

Gravity
-------
``gravity`` is the gravitational acceleration vector in the base frame, in m/s²; the default
``[0, 0, -9.81]`` means the base z axis points up. The algorithms apply it once, as a fictitious
base acceleration ``a_0 = -gravity`` (Craig §6.5; Luh-Walker-Paul).

Locked side branches
--------------------
A model loaded from a URDF tree holds every link below the chain: branches behind moving
joints off the chain (a gripper's fingers, a head, the other arm) are merged rigidly into the
body they hang from, their joints *locked* at ``locked_joints`` (name → rad or m);
``locked_branches`` keeps their geometry so that :meth:`RobotModel.with_locked_positions`
re-merges them at new positions cheaply (:mod:`robot_dynamics.io.locked`).

Joint-space effects
-------------------
Per joint: viscous friction ``viscous_friction * qd``, Coulomb friction
``coulomb_friction * sign(qd)`` (optionally offset, asymmetric, smooth and with a Stribeck
term: :mod:`robot_dynamics.model.friction`), and the rotor's reflected inertia
``rotor_inertia * gear_ratio**2`` on the diagonal of the mass matrix (Craig §6.11; the rotor's
gyroscopic coupling is neglected, as in Corke's toolbox and Pinocchio's ``armature``).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
import warnings

import numpy as np

from robot_dynamics.errors import bounded, ModelError, ModelWarning, warn
from robot_dynamics.io.dh import dh_fields
from robot_dynamics.io.friction_yaml import KEYS as FRICTION_KEYS, apply_friction, read_friction
from robot_dynamics.io.locked import (
    LockedBranches, LockedPositions, add, centroidal_form, origin_form,
)
from robot_dynamics.io.urdf import urdf_fields
from robot_dynamics.io.urdf_writer import model_to_urdf
from robot_dynamics.model.fields import (
    FIXED_SHAPES, frozen_array as _frozen_array, frozen_fields, PER_JOINT_SHAPES,
)
from robot_dynamics.model.friction import EXTRA_FIELDS, has_extra_friction
from robot_dynamics.model.validation import validate
from robot_dynamics.spatial.inertia import combine_bodies, inertia_matrix
from robot_dynamics.spatial.joints import JOINT_TYPES, PRISMATIC, REVOLUTE  # noqa: F401


@dataclass(frozen=True, eq=False)
class RobotModel:
    """Kinematic and inertial description of a serial chain with ``n`` moving joints.

    Build one with :meth:`from_urdf`, :meth:`from_dh` or directly from arrays (every per-joint
    array has ``n`` rows; missing friction, rotor and limit arrays take neutral defaults). The
    arrays are read-only; derive a changed model with :meth:`replace`, :meth:`with_payload`
    or :meth:`with_gravity`. ``warnings``: every warning, one place to count them: the
    loader's ``notes`` (how a URDF was read: friction included, branches locked, a doubtful
    chain or tool frame; a derived model has none), then the checks' findings. ``chain_choice``:
    which chain and tool frame the URDF loader chose and why ('' when ``tip_link`` was given).
    """

    joint_types: tuple
    axis: np.ndarray
    placement_rotation: np.ndarray
    placement_translation: np.ndarray
    mass: np.ndarray
    com: np.ndarray
    inertia: np.ndarray
    joint_names: tuple = None
    link_names: tuple = None
    tip_rotation: np.ndarray = None
    tip_translation: np.ndarray = None
    gravity: np.ndarray = None
    lower_limit: np.ndarray = None
    upper_limit: np.ndarray = None
    velocity_limit: np.ndarray = None
    effort_limit: np.ndarray = None
    viscous_friction: np.ndarray = None
    coulomb_friction: np.ndarray = None
    rotor_inertia: np.ndarray = None
    gear_ratio: np.ndarray = None
    friction_offset: np.ndarray = None         # the friction law beyond Fv, Fc:
    coulomb_asymmetry: np.ndarray = None       # robot_dynamics.model.friction
    friction_smoothing: np.ndarray = None
    stribeck_friction: np.ndarray = None
    stribeck_velocity: np.ndarray = None
    name: str = 'robot'
    base_link: str = 'base'
    tip_link: str = 'tip'
    source: str = ''
    locked_joints: Mapping = None
    locked_branches: LockedBranches = field(default=None, compare=False, repr=False)
    warnings: tuple = field(default=(), compare=False)
    notes: tuple = field(default=(), compare=False, repr=False)
    chain_choice: str = field(default='', compare=False, repr=False)

    def __post_init__(self):
        """Validate every field, fill defaults and freeze the arrays."""
        self._finish(loaded=False)

    def _finish(self, loaded):
        """Check, fill and freeze the fields; ``loaded``: the URDF loader's own, unchanged.

        What the loader (:func:`~robot_dynamics.io.urdf.urdf_fields`) has checked or built so
        is not checked twice: joint types and names (str, one per joint), unit axes, rotations
        from rpy angles, symmetric inertias, masses >= 0, lower <= upper limits, velocity and
        effort limits >= 0, unique joint names, no friction beyond viscous and Coulomb (the
        extra terms are the defaults, zero).
        """
        n = len(self.joint_types)
        set_ = object.__setattr__
        if loaded:                               # n >= 1 known types, n str names each
            for name in ('joint_types', 'joint_names', 'link_names'):
                set_(self, name, tuple(getattr(self, name)))
        else:
            set_(self, 'joint_types', _types(self.joint_types))
            set_(self, 'joint_names', _names(self.joint_names, n, 'joint'))
            set_(self, 'link_names', _names(self.link_names, n, 'link'))
        values = vars(self)                      # set_ of each field, at once (no __slots__)
        values.update(frozen_fields({name: values[name] for name in _ARRAY_FIELDS}, n))
        self._set_locked()
        set_(self, 'notes', tuple(map(bounded, tuple(self.notes))))
        set_(self, 'warnings', tuple(map(bounded, self.notes + tuple(self.warnings)
                                         + tuple(validate(self, loaded)))))
        for message in self.warnings:
            warn(message)

    def _set_locked(self):
        """Freeze ``locked_joints`` (name → position) and check it against the branches."""
        branches = self.locked_branches or LockedBranches()
        positions = {str(k): float(v) for k, v in dict(self.locked_joints or {}).items()}
        expected = {name for body in branches.bodies for name in body.joints}
        if set(positions) != expected:
            raise ModelError(f'locked_joints: {sorted(positions)} must name exactly the joints '
                             f'of locked_branches {sorted(expected)}')
        object.__setattr__(self, 'locked_branches', branches)
        object.__setattr__(self, 'locked_joints', LockedPositions(positions))

    # ------------------------------------------------------------------ properties
    @property
    def dof(self):
        """Return the number of moving joints ``n``."""
        return len(self.joint_types)

    @property
    def is_revolute(self):
        """Boolean mask (n,): True where the joint is revolute."""
        return np.array([t == REVOLUTE for t in self.joint_types])

    @property
    def reflected_inertia(self):
        """Rotor inertia seen at the joint, ``rotor_inertia * gear_ratio**2`` (n,), kg m²."""
        return self.rotor_inertia * self.gear_ratio ** 2

    @property
    def has_friction(self):
        """Tell whether any joint has friction (viscous, Coulomb or the richer law's terms)."""
        return bool(np.any(self.viscous_friction) or np.any(self.coulomb_friction)
                    or has_extra_friction(self))

    @property
    def total_mass(self):
        """Sum of the moving links' masses, kg."""
        return float(self.mass.sum())

    def __repr__(self):
        """Name, joint count and joint types."""
        kinds = ''.join('R' if t == REVOLUTE else 'P' for t in self.joint_types)
        return f'RobotModel({self.name!r}, dof={self.dof}, joints={kinds})'

    # ------------------------------------------------------------------ derived models
    def replace(self, **changes):
        """Return a copy with some fields changed (validated again).

        Example: ``model.replace(viscous_friction=np.zeros(model.dof))``.
        """
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise ModelError(f'unknown RobotModel field(s) {sorted(unknown)}; '
                             f'fields are {[f.name for f in fields(self)]}')
        changes.setdefault('warnings', ())
        changes.setdefault('notes', ())           # how a file was read: not the new model's
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', ModelWarning)
            return replace(self, **changes)

    def with_gravity(self, gravity):
        """Return a copy with another gravity vector (3,), m/s², base frame."""
        return self.replace(gravity=gravity)

    def without_joint_effects(self):
        """Return the pure rigid-body model: no friction, no rotor inertia."""
        zeros = np.zeros(self.dof)
        return self.replace(viscous_friction=zeros, coulomb_friction=zeros,
                            rotor_inertia=zeros, gear_ratio=np.ones(self.dof),
                            **dict.fromkeys(EXTRA_FIELDS, zeros))

    def with_payload(self, mass, com=(0.0, 0.0, 0.0), inertia=None):
        """Return a copy with a rigid payload fixed to the last link.

        ``mass`` in kg; ``com`` (3,) its centre of mass in the tool frame, m; ``inertia`` (3, 3)
        or 6 values ``[ixx, iyy, izz, ixy, iyz, ixz]`` about its centre of mass, tool-frame
        axes, kg m² (default: a point mass). The payload is merged into the last link's
        inertial parameters with the parallel-axis theorem.
        """
        payload_inertia = inertia_matrix(np.zeros(6) if inertia is None else inertia,
                                         'payload inertia')
        com_tip = _frozen_array(com, (3,), 'payload com')
        mass = float(mass)
        if not np.isfinite(mass) or mass < 0:
            raise ModelError(f'payload mass must be a finite number >= 0 kg, got {mass}')
        com_body = self.tip_rotation @ com_tip + self.tip_translation
        rotated = self.tip_rotation @ payload_inertia @ self.tip_rotation.T
        m, c, inertia_c = combine_bodies(
            (self.mass[-1], self.com[-1], self.inertia[-1]), (mass, com_body, rotated))
        masses, coms, inertias = self.mass.copy(), self.com.copy(), self.inertia.copy()
        masses[-1], coms[-1], inertias[-1] = m, c, inertia_c
        return self.replace(mass=masses, com=coms, inertia=inertias)

    def with_friction(self, friction):
        """Return a copy with the joint friction of a sidecar (path, YAML text or dict).

        The sidecar (:mod:`robot_dynamics.io.friction_yaml`, written by ``robot-dynamics
        identify``) sets the whole friction law of the joints it lists
        (:mod:`robot_dynamics.model.friction`); the other joints keep theirs.
        """
        current = {name: getattr(self, name) for name in FRICTION_KEYS.values()}
        return self.replace(**apply_friction(read_friction(friction), self.joint_names, current))

    def with_locked_positions(self, positions):
        """Return a copy with side branches re-merged at new locked-joint positions.

        ``positions`` maps locked joints (:attr:`locked_joints`) to values, rad or m; the
        others keep theirs, and a ``<mimic>`` of a given joint follows it unless given too. Only
        the bodies the branches hang from change, by the branches' inertia at the new positions
        minus that at the old ones (so a payload stays). No limit check: measured positions are
        taken as they are. About 0.1 ms for a gripper (docs/models.md).
        """
        values = {}
        for name, value in positions.items():
            if name not in self.locked_joints:
                raise ModelError(f'locked_joints: {name!r} is not a locked joint of this model; '
                                 f'locked joints are {list(self.locked_joints)}')
            values[name] = float(value)
            if not np.isfinite(values[name]):
                raise ModelError(f'locked_joints: {name!r} = {value} is not finite')
        new = self.locked_branches.resolve(self.locked_joints, values)
        masses, coms, inertias = self.mass.copy(), self.com.copy(), self.inertia.copy()
        for i, change in self.locked_branches.change(self.locked_joints, new).items():
            body = add(origin_form(masses[i], coms[i], inertias[i]), change)
            masses[i], coms[i], inertias[i] = centroidal_form(body)
        return self.replace(mass=masses, com=coms, inertia=inertias, locked_joints=new)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_urdf(cls, urdf, base_link=None, tip_link=None, locked_joints=None, *,
                  urdf_friction=True, **overrides):
        """Load the serial chain ``base_link`` → ``tip_link`` of a URDF (file path or XML text).

        ``base_link`` defaults to the root; ``tip_link`` to the end of the longest moving path
        (the rules: :mod:`robot_dynamics.io.urdf_tree`). Links behind fixed joints are merged
        into their moving parent; side branches behind moving joints are merged rigidly at the
        positions ``locked_joints`` (name → rad or m; default 0 clipped into the limits) and
        listed in :attr:`locked_joints`. ``urdf_friction``: include the joints' ``<dynamics
        damping friction>`` as viscous and Coulomb friction (the default; a ``ModelWarning``
        names them) or leave it out (``False``; docs/models.md). ``overrides`` set model fields
        after loading, e.g. ``gravity=[0, 0, -9.81]`` or ``rotor_inertia=[…]``. See
        :mod:`robot_dynamics.io.urdf`.
        """
        with warnings.catch_warnings(record=True) as said:   # the loader's notes: warnings
            warnings.simplefilter('always', ModelWarning)
            loaded = urdf_fields(urdf, base_link=base_link, tip_link=tip_link,
                                 locked_joints=locked_joints, urdf_friction=urdf_friction)
        for other in (w for w in said if not issubclass(w.category, ModelWarning)):
            warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
        notes = tuple(dict.fromkeys(str(w.message) for w in said
                                    if issubclass(w.category, ModelWarning)))
        if overrides or cls is not RobotModel:          # fields changed, a subclass: cls(...)
            return cls(**{'notes': notes, **loaded, **overrides})
        model = object.__new__(cls)                     # cls(...) but fewer checks (_finish)
        values = vars(model)                            # object.__setattr__'s, field by field
        values.update(_DEFAULTS)
        values.update(loaded)                           # fields only (as cls(**loaded) takes)
        values['notes'] = notes
        model._finish(loaded=True)
        return model

    @classmethod
    def from_dh(cls, dh, convention=None, **overrides):
        """Load a chain from Denavit-Hartenberg parameters (YAML path, YAML text or dict).

        ``convention`` (``'standard'`` = distal, or ``'modified'`` = proximal) overrides the
        document's ``convention`` key. See :mod:`robot_dynamics.io.dh` for the schema.
        """
        return cls(**{**dh_fields(dh, convention=convention), **overrides})

    def to_urdf(self):
        """Return this model as URDF XML text (fixed tool link included, friction as dynamics)."""
        return model_to_urdf(self)


#: The array fields' names, in order (:meth:`RobotModel._finish`).
_ARRAY_FIELDS = (*PER_JOINT_SHAPES, *FIXED_SHAPES)
#: Every field's name → default, in order (:meth:`RobotModel.from_urdf`).
_DEFAULTS = {item.name: item.default for item in fields(RobotModel)}


# ---------------------------------------------------------------------- helpers
def _types(joint_types):
    """Return ``joint_types`` as a tuple of str, each one of :data:`JOINT_TYPES`; or raise."""
    if len(joint_types) == 0:
        raise ModelError('joint_types: the chain has no moving joint; '
                         'a model needs at least one revolute or prismatic joint')
    types = tuple(str(t) for t in joint_types)
    for i, t in enumerate(types):
        if t not in JOINT_TYPES:
            raise ModelError(f'joint_types[{i}]: unknown joint type {t!r}; '
                             f'use one of {JOINT_TYPES}')
    return types


def _names(names, n, prefix):
    if names is None:
        return tuple(f'{prefix}{i + 1}' for i in range(n))
    names = tuple(str(x) for x in names)
    if len(names) != n:
        raise ModelError(f'{prefix}_names: expected {n} names, got {len(names)}')
    return names
