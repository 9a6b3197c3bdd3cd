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
"""A simulated arm: a robot model stepped at a fixed ``dt`` under a held effort command.

What the simulation node runs, without ROS. The command is saturated at the effort limits, cut
by the drives' velocity limits (``velocity_limits``, :mod:`~robot_dynamics.simulation.drives`)
and held for steps of :func:`robot_dynamics.simulation.integrators.step`; position limits act
as hard stops (a perfectly inelastic impact within the step,
:func:`~robot_dynamics.simulation.stops.stop_step`: the engine's stops, as in ``rd.simulate``).
A diverging state (non-finite, a joint speed beyond ``bounds.MAX_VELOCITY`` or energy gained)
stops the stepping with the reason. Steps are paced by a wall clock (``real_time_factor``) or,
in lockstep, by the commands.

The settings a user may change while it runs (the node's parameters) are read at each use
through ``settings(name)``: ``integrator``, ``real_time_factor``, ``lockstep``,
``lockstep_timeout``, ``velocity_limits``, ``command_timeout``, ``max_energy``,
``energy_tolerance`` and ``initial_positions`` (docs/ros.md describes each).
"""

import time

import numpy as np

from robot_dynamics.api import total_energy
from robot_dynamics.errors import bounded
from robot_dynamics.model import bounds
from robot_dynamics.simulation.drives import drive_torque
from robot_dynamics.simulation.integrators import (INTEGRATORS, SimulationError,
                                                   apply_position_limits, step, stop_step)
from robot_dynamics.simulation.stability import beyond_plausible, divergence_advice
from robot_dynamics.simulation.trajectory import home_posture

MIN_FACTOR = 1e-3      # real_time_factor: below this the simulation is frozen (issue 30 LOW)


def check_integrator(name):
    """Refuse an unknown integrator name (at start as at run time)."""
    if name not in INTEGRATORS:
        raise ValueError(f'integrator: unknown {name!r}; use one of {sorted(INTEGRATORS)}')


def initial_positions(model, order, values):
    """Return initial positions (n,) in model order from ``values`` in ``order``.

    ``order``: the model index of each value (the node's ``joints`` order). Unset or empty: the
    home posture (0, or the middle of the range where 0 is outside the limits), where the
    standard trajectory starts. Raises ``ValueError`` unless there is one finite value per
    joint within the position limits widened by ``bounds.POSITION_MARGIN``.
    """
    q0 = home_posture(model)
    if values is None or not len(values):
        return q0
    values = np.asarray(values, dtype=float)
    if values.size != model.dof or not np.all(np.isfinite(values)):
        raise ValueError(f'initial_positions: give {model.dof} finite values, got '
                         f'{values.tolist()}')
    q0[order] = values
    try:
        bounds.check_state(model, q0)
    except ValueError as exc:
        raise ValueError(f'initial_positions: {exc}') from None
    return q0


def setting_error(model, order, name, value):
    """Return why ``value`` is refused for the setting ``name`` (None: accepted)."""
    if name == 'integrator' and value not in INTEGRATORS:
        return f'integrator: unknown {value!r}; use one of {sorted(INTEGRATORS)}'
    if name == 'real_time_factor' and 0 < value < MIN_FACTOR:
        return (f'real_time_factor: {value:.3g} would freeze the simulation; use at least '
                f'{MIN_FACTOR:g} (one simulated ms per wall second), or 0 to run as fast as '
                'possible')
    if name == 'initial_positions':
        try:
            initial_positions(model, order, value)
        except ValueError as exc:
            return str(exc)
    return None


class Simulator:
    """Integrates ``M(q) qdd + V + G + F = tau`` at a fixed step, paced by a wall clock.

    ``order``: the model index of each joint of a command in joint order (default: model
    order); ``solver``: None for the compiled engine, else a solver name ('rnea'); ``push``:
    ``push(q, t)`` returns external joint torques (n,) or None (not in the efforts);
    ``on_failure(reason)`` is called once when the stepping stops; ``clock``: wall seconds.
    """

    def __init__(self, model, dt, publish_period, settings, order=None, solver=None,
                 push=None, on_failure=None, clock=time.monotonic):
        self.model, self.dt, self.settings, self.solver = model, dt, settings, solver
        self.order = np.arange(model.dof) if order is None else order
        self.push = push or (lambda q, t: None)
        self.on_failure = on_failure or (lambda reason: None)
        self.clock = clock
        self.publish_period = publish_period
        self.steps_per_publish = max(1, int(round(publish_period / dt)))
        self.step_count = 0
        self.reset()

    def initial_positions(self):
        """Return the initial positions (n,) in model order the settings ask for."""
        return initial_positions(self.model, self.order, self.settings('initial_positions'))

    # ------------------------------------------------------------------ state
    def reset(self):
        """Back to the initial state at rest, time 0, no command, not failed or paused."""
        n = self.model.dof
        self.q, _ = apply_position_limits(self.model, self.initial_positions(), np.zeros(n))
        self.qd = np.zeros(n)
        self.tau = np.zeros(n)
        self.sim_time = 0.0
        self.paused = False
        self.failed = False
        self.error = ''
        self.command = np.zeros(n)
        self.command_time = None
        self.new_command = False
        self.published_at = self.clock()
        self.energy_start = total_energy(self.model, self.q, self.qd)
        self._work_in = 0.0
        self._work_stops = 0.0
        self.anchor()

    def anchor(self):
        """Restart real-time pacing from now (after a reset, a pause or an overrun)."""
        self._wall_anchor = self.clock()
        self._sim_anchor = self.sim_time

    def pause(self, paused):
        """Pause or resume the stepping (resuming restarts the pacing from now)."""
        self.paused = bool(paused)
        if not self.paused:
            self.anchor()

    def published(self):
        """Take note of a publication of the state (lockstep waits for the answer to it)."""
        self.new_command = False
        self.published_at = self.clock()

    # ------------------------------------------------------------------ commands
    def set_command(self, efforts, joint_order=False):
        """Hold ``efforts`` (n,), model order or ``joint_order``, from now on.

        Raises :class:`~robot_dynamics.errors.PlausibilityError` (nothing held) for a value
        that is not finite or beyond ``bounds.MAX_OUTPUT``.
        """
        bounds.check_output('effort command', efforts)
        command = np.zeros(self.model.dof)
        command[self.order if joint_order else slice(None)] = efforts
        self.command = command
        self.command_time = self.sim_time
        self.new_command = True

    def applied_torque(self):
        """Return the command saturated at the effort limits; zero once older than the timeout."""
        timeout = self.settings('command_timeout')
        if self.command_time is None or self.sim_time - self.command_time > timeout:
            return np.zeros(self.model.dof)
        limit = self.model.effort_limit
        return np.clip(self.command, -limit, limit)

    def drive_torque(self, tau):
        """Return the torque the drives deliver for ``tau``: speed-limited unless disabled.

        ``velocity_limits`` (default true): a drive gives no torque that would pass its joint's
        URDF velocity limit (:func:`~robot_dynamics.simulation.drives.drive_torque`).
        """
        if not self.settings('velocity_limits'):
            return tau
        return drive_torque(self.model, self.q, self.qd, tau, self.dt, self.solver)

    # ------------------------------------------------------------------ stepping
    def tick(self):
        """Step as far as the pacing allows now; return True when the state is to be published.

        Paused or failed: nothing. In lockstep, hold still until the first command, the state
        repeated every ``lockstep_timeout`` wall seconds meanwhile (the arm does not fall
        while the other nodes start, and late subscribers get it); then step on once a command
        answered the last state, or ``lockstep_timeout`` passed. Otherwise step to the next
        publish instant, no further than ``real_time_factor`` allows (:meth:`steps_due`).
        """
        if self.paused or self.failed:
            return False
        if self.settings('lockstep'):
            waited = self.clock() - self.published_at >= self.settings('lockstep_timeout')
            if self.command_time is None:
                return waited
            if not self.new_command and not waited:
                return False
        steps = self.steps_due()
        return steps > 0 and self.advance(steps)

    def steps_due(self):
        """Return the steps to take now: to the next publish instant, paced by wall time.

        ``real_time_factor`` simulated seconds per wall second since the anchor (0: as fast as
        possible); more than ten publish periods behind, the pacing restarts from now (no
        debt: a loaded machine's pause is not made up for at full speed).
        """
        steps = self.steps_per_publish - self.step_count % self.steps_per_publish
        factor = self.settings('real_time_factor')
        if factor > 0:
            target = self._sim_anchor + (self.clock() - self._wall_anchor) * factor
            behind = int((target - self.sim_time) / self.dt + 1e-9)
            if behind > 10 * self.steps_per_publish:
                self.anchor()          # cannot keep up: run as fast as possible, no debt
            steps = min(steps, behind)
        return steps

    def advance(self, steps):
        """Integrate ``steps`` steps of ``dt``; return True at a publish instant, state sound."""
        integrator = self.settings('integrator')
        for _ in range(steps):
            try:
                tau = self.drive_torque(self.applied_torque())
                push = self.push(self.q, self.sim_time)      # not in the efforts
                total = tau if push is None else tau + push
                q, qd, _ = step(self.model, self.q, self.qd, total, self.dt, integrator,
                                solver=self.solver)
                self._work_in += float(total @ (qd + self.qd)) * 0.5 * self.dt
                self._apply_stops(q, qd)
            except (SimulationError, np.linalg.LinAlgError, ValueError) as exc:
                return self.fail(f'integration failed at t = {self.sim_time:.4f} s: {exc}')
            self.tau = tau
            self.sim_time = round(self.sim_time + self.dt, 12)
            self.step_count += 1
            if self.step_count % self.steps_per_publish == 0:
                return self._check_runaway()
        return False

    def _apply_stops(self, q, qd):
        """Take the state after the joint stops act on the step to ``(q, qd)``; count their work.

        The stops land the passing joints on their stop within the step and halt them
        (:func:`~robot_dynamics.simulation.stops.stop_step`: the engine's ``rd_stop_step``,
        the stops of ``rd.step``/``rd.simulate`` with ``position_limits=True``, on the free
        step): the whole energy change against the free step is their work, so that the
        runaway check measures the integration's own energy error.
        """
        self.q, self.qd = stop_step(self.model, self.q, q, qd, self.dt, self.solver)
        if not (np.array_equal(self.q, q) and np.array_equal(self.qd, qd)):
            self._work_stops += float(total_energy(self.model, self.q, self.qd)
                                      - total_energy(self.model, q, qd))

    def _check_runaway(self):
        """Return False (and stop) if the state is not finite or the energy ran away."""
        if not (np.all(np.isfinite(self.q)) and np.all(np.isfinite(self.qd))):
            return self.fail('state became NaN/inf')
        if not np.all(np.abs(self.qd) <= bounds.MAX_VELOCITY):
            return self.fail(beyond_plausible(
                self.model, self.qd, 'after the joint stops', 'state',
                (self.q, self.qd, self.tau), self.dt, self.settings('integrator')))
        energy = total_energy(self.model, self.q, self.qd)
        if not np.isfinite(energy) or energy > self.settings('max_energy'):
            return self.fail(f'total energy {energy:.3g} J exceeds max_energy')
        excess = energy - self.energy_start - self._work_in - self._work_stops
        if excess > self.settings('energy_tolerance'):
            return self.fail(self._runaway_reason(excess))
        return True

    def _runaway_reason(self, excess):
        """Why the energy check tripped: the integration itself gained the energy."""
        integrator = self.settings('integrator')
        fix = ('reduce dt or use integrator rk4 (accurate) or implicit (stable under damping)'
               if integrator in ('euler', 'semi_implicit_euler') else
               'reduce dt' + (' or use integrator implicit' if integrator == 'rk4' else ''))
        advice = divergence_advice(self.model, self.q, self.qd, self.dt, integrator)
        if 'too stiff' in advice:
            fix = advice
        return (f'energy grew {excess:.3g} J more than the commands and the joint stops put '
                f'in (energy_tolerance {self.settings("energy_tolerance"):g} J): '
                f'the {integrator} integration at dt = {self.dt:g} s is unstable for this '
                f'model; {fix}')

    def fail(self, reason):
        """Stop stepping for ``reason`` (kept, bounded, in :attr:`error`); return False."""
        self.failed = True
        self.error = bounded(reason)
        self.on_failure(self.error)
        return False

    def trial_step(self):
        """Integrate one step from the current state (discarded): raise if it cannot run."""
        q, qd, _ = step(self.model, self.q, self.qd, np.zeros(self.model.dof), self.dt,
                        self.settings('integrator'), solver=self.solver)
        if not (np.all(np.isfinite(q)) and np.all(np.isfinite(qd))):
            raise SimulationError('the first step from the initial state is not finite')

    # ------------------------------------------------------------------ reports
    def health(self):
        """Return ``(ok, message)``: not ok when failed, or silent too long while running."""
        if self.failed:
            return False, self.error
        if self.paused:
            return True, 'paused'
        factor = self.settings('real_time_factor')
        window = max(1.0, 3.0 * self.publish_period / factor) if factor > 0 else 1.0
        if self.settings('lockstep'):      # waits up to lockstep_timeout per step
            window = max(window, 3.0 * self.settings('lockstep_timeout'))
        silent = self.clock() - self.published_at
        if silent > window:
            return False, (f'running but nothing published for {silent:.2f} s: '
                           f'{self.error or "stepping stalled"}')
        return True, 'running'

    def measured_factor(self):
        """Return the simulated seconds per wall second since the pacing's anchor."""
        elapsed = self.clock() - self._wall_anchor
        return (self.sim_time - self._sim_anchor) / elapsed if elapsed > 0 else 0.0
