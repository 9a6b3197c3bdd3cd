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
"""The dynamics node's model: loading, the robot_description topic, payloads, changes.

The one base of :class:`~robot_dynamics.nodes.dynamics_node.DynamicsNode` beside ``Node``:
the node holds the parameters and the interfaces; these methods build the effective model
(source + payload + overrides + gravity) and replace it, or report why they cannot; they
judge a parameter change before it is applied and serve ``~/reload_model``. Models from the
``robot_description`` topic (and large ``robot_description`` parameters) are parsed in a worker
thread (:class:`DescriptionUpdates`).
"""

import time

from rcl_interfaces.msg import SetParametersResult
from rclpy.parameter import Parameter

from robot_dynamics.control.effective_model import EffectiveModel, check_change, checked_payload
from robot_dynamics.control.joint_states import JointStateMerge
from robot_dynamics.control.locked_joints import LockedJointTracker
from robot_dynamics.errors import bounded
from robot_dynamics.control.description_updates import (DESCRIPTION_INTERVAL, RateLimitedLoader,
                                                        model_change)
from robot_dynamics.control.model_source import SOURCE_PARAMETERS
from robot_dynamics.nodes.model_parameters import (model_parameters_set, model_values,
                                                   model_with_logged_warnings,
                                                   model_with_overrides)
from robot_dynamics.nodes.qos import STEADY

SYNC_PARSE_BYTES = 1 << 20   # a robot_description parameter larger than this loads in a worker


class DescriptionUpdates(RateLimitedLoader):
    """A :class:`RateLimitedLoader` polled by a steady timer of ``node``.

    Parsed in a worker thread, rate-limited, the latest text wins; the steady timer hands the
    results to the node's executor (a timer on the node's clock would stop with ``/clock``).
    """

    def __init__(self, node, load, apply, current, interval=DESCRIPTION_INTERVAL):
        super().__init__(load, apply, current, interval)
        node.create_timer(self.poll_period, self.poll, clock=STEADY)


class DynamicsModel:
    """The model of the dynamics node (methods of the node)."""

    def _load_model(self, source=None):
        """(Re)load the source model (``source``: already loaded); False if not available yet."""
        try:
            if source is None:
                source = model_with_logged_warnings(self, self._urdf_from_topic)
            if source is None:
                self.get_logger().info('waiting for the model on the robot_description topic')
                return False
            self._set_model(source, self._payload)
            self.locked = LockedJointTracker(
                source, self.get_parameter('locked_joints_threshold').value,
                self.get_parameter('locked_joints_rate').value) if source.locked_joints else None
        except Exception as exc:  # noqa: BLE001 - any loader error is reported, not fatal
            self._error(f'model not loaded: {exc}')
            return False
        locked = dict(self._source_model.locked_joints)
        self.get_logger().info(bounded(
            f'model {self.model.name!r}: {self.model.dof} joints {list(self.model.joint_names)}, '
            f'solver {self.solver!r}' + (f', side-branch joints locked at {locked}' if locked
                                         else '')))
        return True

    def _set_model(self, source, payload):
        """Build the effective model; raise (leaving the current one) if anything is invalid."""
        built = EffectiveModel.build(source, payload, model_values(self))
        if self.model is None or self.model.joint_names != built.model.joint_names:
            self.state, self._trajectory = None, None   # joint set changed: start afresh
            self._merge = JointStateMerge.for_model(built.model)
        self.effective = built
        self._source_model, self._payload, self.model = source, payload, built.model
        self.outputs.set_order(built.names, built.order)
        self.contacts.forget_model()           # a replaced model is not kept alive

    def _on_description(self, msg):
        if model_parameters_set(self) or not msg.data:
            return
        self._descriptions.offer(msg.data)  # parsed in a worker, rate-limited; not a copy

    def _parse_description(self, text):
        """Load the model of a robot_description text (in the worker thread)."""
        return model_with_logged_warnings(self, text)

    def _take_description(self, text, future):
        """Use a parsed robot_description (executor thread); WARN what changed."""
        self._urdf_from_topic = text               # loaded or refused: not parsed again
        if model_parameters_set(self):
            return                                 # a model parameter was set meanwhile
        try:
            source = future.result()
        except Exception as exc:  # noqa: BLE001 - any loader error is reported, not fatal
            return self._error(f'model from the robot_description topic not loaded: {exc}')
        before = self._source_model
        if self._load_model(source) and before is not None:
            self.get_logger().warning(bounded('model changed by the robot_description topic: '
                                              + model_change(before, source)))

    def _take_parameter_model(self, change, future):
        """Use a model parameter change loaded in the worker, or set the parameters back."""
        overrides, previous = change
        try:
            source = future.result()
        except Exception as exc:  # noqa: BLE001 - reported, the parameters set back
            self._reverting = True
            try:
                self.set_parameters([Parameter(name, value=value)
                                     for name, value in previous.items()])
            finally:
                self._reverting = False
            return self._error(f'{", ".join(sorted(overrides))}: the model does not load, the '
                               f'parameters are set back: {exc}')
        self._load_model(source)

    def destroy_node(self):
        """Stop the robot_description workers, then destroy the node."""
        self._descriptions.close()
        self._parameter_models.close()
        return super().destroy_node()

    def _on_payload(self, msg):
        i, c = msg.inertia, msg.inertia.com
        if self._source_model is None:
            return self._drop('payload before the model was loaded')
        try:
            self._set_model(self._source_model, checked_payload(
                self._source_model, i.m, [c.x, c.y, c.z],
                [i.ixx, i.iyy, i.izz, i.ixy, i.iyz, i.ixz]))
        except Exception as exc:  # noqa: BLE001
            return self._drop(f'payload rejected: {exc}')
        self.get_logger().info(f'payload of {i.m} kg applied to the tip link')

    def _load_pending(self, overrides):
        """Load the model the parameters being set name; ValueError with the loader's reason."""
        try:
            source = model_with_logged_warnings(self, self._urdf_from_topic, overrides)
            if source is not None:
                model_with_overrides(source, self, overrides)     # gravity, friction: valid
        except Exception as exc:  # noqa: BLE001 - any loader error refuses the change
            changed = ', '.join(sorted(SOURCE_PARAMETERS & set(overrides)))
            raise ValueError(f'{changed}: the model does not load, nothing changed: '
                             f'{exc}') from None
        return source

    def _validate_parameters(self, parameters):
        overrides = {p.name: p.value for p in parameters}
        try:
            check_change(overrides, model_values(self, overrides), self._source_model,
                         self._payload)
            self._pending_source = self._deferred_source = None
            if not self._reverting and SOURCE_PARAMETERS & set(overrides):
                text = overrides.get('robot_description',
                                     self.get_parameter('robot_description').value)
                if len(text or '') > SYNC_PARSE_BYTES:   # a worker parses it (issue 30, MED 4)
                    self._deferred_source = (dict(overrides), {
                        name: self.get_parameter(name).value for name in overrides})
                else:                                   # applied at once: loaded here to refuse
                    self._pending_source = self._load_pending(overrides)
        except ValueError as exc:
            return SetParametersResult(successful=False, reason=str(exc))
        return SetParametersResult(successful=True)

    def _on_reload(self, request, response):
        response.message = self._reloads.refusal(time.monotonic())
        if response.message:
            response.success = False
            return response
        response.success = self._load_model()
        response.message = (f'loaded {self.model.name!r} ({self.model.dof} joints)'
                            if response.success else self.last_error or 'waiting for the model')
        return response
