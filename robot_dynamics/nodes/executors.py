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
"""The nodes' executor, and spinning that survives any callback (docs/latency.md, docs/ros.md).

``CachedWaitSetExecutor`` (kept by measurement: docs/latency.md, "Executors compared") and any
executor spun by :func:`spin_surviving` log what a callback raises, rclpy's own callbacks
included, through the node (:func:`report_callback_failure`), and the node goes on.
"""

import contextlib
import inspect
import threading
import time

import rclpy.logging
from rclpy.executors import (
    ConditionReachedException, ExternalShutdownException, ShutdownException,
    SingleThreadedExecutor, TimeoutException, TimeoutObject,
)
from rclpy.event_handler import EventHandler
from rclpy.exceptions import InvalidHandle
from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy
from rclpy.subscription import Subscription
from rclpy.utilities import timeout_sec_to_nsec
from rclpy.waitable import NumberOfEntities

from robot_dynamics.control.process_policy import describe, failure_line, origin

_WAIT_ENDED = (ExternalShutdownException, ShutdownException, TimeoutException,
               ConditionReachedException)


def report_callback_failure(node, what, exc):
    """Log an exception a callback raised, through ``node`` (throttled); the node goes on.

    ``what`` names the callback (``subscription '/clock'``, ``service '/n/set_parameters'``).
    Our nodes count it and show it on /diagnostics (``callback_failed``); any other node (or
    None, for a task with no node) logs it on its own logger once a second at most.
    """
    if node is not None and hasattr(node, 'callback_failed'):
        return node.callback_failed(what, exc)
    logger = node.get_logger() if node is not None else _LOGGER
    logger.error(failure_line(what, exc), throttle_duration_sec=1.0)


def spin_surviving(executor, node=None, timeout_sec=None):
    """``executor.spin_once`` that logs a callback's exception instead of raising it.

    rclpy's executors raise whatever a callback raised, its own included (the ``/clock``
    subscription raises ``ValueError`` for a negative time), and ``rclpy.spin`` ends there. The
    end of spinning (shutdown, Ctrl-C) still propagates. ``node``: where to report (None: the
    executor's logger).
    """
    try:
        executor.spin_once(timeout_sec=timeout_sec)
    except _WAIT_ENDED:
        raise
    except Exception as exc:  # noqa: BLE001 - no callback may end the process
        if not executor.context.ok():
            raise                          # shut down while a callback ran: the caller's stop
        report_callback_failure(node, origin(exc), exc)


_LOGGER = rclpy.logging.get_logger('robot_dynamics.executor')
#: rclpy's default mismatch events (incompatible QoS or type: a warning when a peer does not
#: match). Taken outside the wait every MISMATCH_POLL_PERIOD s, never attached to it: attached,
#: Fast DDS attaches and detaches each in every wait (docs/latency.md).
MISMATCHES = {'RCL_SUBSCRIPTION_REQUESTED_INCOMPATIBLE_QOS', 'RCL_SUBSCRIPTION_INCOMPATIBLE_TYPE',
              'RCL_PUBLISHER_OFFERED_INCOMPATIBLE_QOS', 'RCL_PUBLISHER_INCOMPATIBLE_TYPE'}
MISMATCH_POLL_PERIOD = 0.1
_KINDS = ('subscription', 'timer', 'client', 'service', 'guard_condition')
_NODE_ATTRIBUTES = {'subscription': 'subscriptions', 'timer': 'timers', 'client': 'clients',
                    'service': 'services', 'guard_condition': 'guards'}


class CachedWaitSetExecutor(SingleThreadedExecutor):
    """``SingleThreadedExecutor`` that keeps its wait set while the nodes' entities do not change.

    Jazzy's executor builds a new ``WaitSet`` and wraps every callback in a ``Task`` on every
    iteration, in Python. This one builds them once, again when rclpy reports a change
    (:meth:`wake`, :meth:`add_node`, :meth:`remove_node`) or a handle refuses to be used (an
    entity destroyed behind the node's back), and calls ready callbacks directly; coroutines
    and waitables (actions, QoS events) run as tasks as in the base class, rclpy's
    :data:`MISMATCHES` events are polled outside the wait. The cached handles are held in use
    until the next rebuild, ``remove_node`` or ``shutdown``, never under a wait in progress. An
    exception in a callback is reported (:func:`report_callback_failure`); the others still
    run. Docs: docs/ros.md, docs/latency.md.
    """

    def __init__(self, *, context=None):
        super().__init__(context=context)
        self._cache = None
        self._changed = True
        self._iteration = threading.RLock()    # held from filling the wait set to dispatching
        self._next_poll = 0.0                  # time.monotonic() of the next mismatch poll

    def _release_cache(self, timeout_sec=None):
        """Close the cached handles once no iteration uses them (False: timed out)."""
        wait = -1 if timeout_sec is None or timeout_sec < 0 else timeout_sec
        if not self._iteration.acquire(timeout=wait):
            return False
        try:
            if self._cache is not None:
                self._cache['handles'].close()
                self._cache = None
        finally:
            self._iteration.release()
        return True

    def spin(self):
        """Execute callbacks until shutdown, then release the cached handles."""
        try:
            super().spin()
        finally:
            self._release_cache()

    def wake(self):
        """Note that the nodes' entities changed (rclpy calls this), then wake the wait."""
        self._changed = True
        super().wake()

    def add_node(self, node):
        """Manage ``node``; its entities join the wait set at the next iteration."""
        self._changed = True
        return super().add_node(node)

    def remove_node(self, node):
        """Stop managing ``node``; release the cached handles (else a spinning thread will)."""
        super().remove_node(node)
        self._changed = True
        self._release_cache(timeout_sec=0)

    def shutdown(self, timeout_sec=None):
        """Release the cached handles after the iteration in progress, then stop (False: late)."""
        with self._shutdown_lock:
            self._is_shutdown = True
            if self._guard:
                self._guard.trigger()
        if not self._release_cache(timeout_sec):
            return False
        return super().shutdown(timeout_sec)

    def _build_cache(self):
        """Enter every entity's handle and size one ``WaitSet`` for them all."""
        handles = contextlib.ExitStack()
        kinds = {kind: [] for kind in _KINDS}
        waitables, polled, count = [], [], NumberOfEntities(0, 0, 0, 0, 0)
        own_guards = [(self._guard, None), (self._sigint_gc, None)]
        for node in self.get_nodes():
            for kind, attribute in _NODE_ATTRIBUTES.items():
                for entity in getattr(node, attribute):
                    try:
                        handles.enter_context(entity.handle)
                    except InvalidHandle:              # destroyed: leave it out
                        continue
                    kinds[kind].append((entity, node))
            for waitable in node.waitables:
                try:
                    handles.enter_context(waitable)
                except InvalidHandle:
                    continue
                event = _mismatch_event(waitable)
                if event is None:
                    waitables.append((waitable, node))
                    count += waitable.get_num_entities()
                else:
                    polled.append((waitable, node, event))
        for guard, _ in own_guards:
            handles.enter_context(guard.handle)
        kinds['guard_condition'].extend(own_guards)
        handles.enter_context(self._context.handle)
        count.num_subscriptions += len(kinds['subscription'])
        count.num_guard_conditions += len(kinds['guard_condition'])
        count.num_timers += len(kinds['timer'])
        count.num_clients += len(kinds['client'])
        count.num_services += len(kinds['service'])
        wait_set = _rclpy.WaitSet(count.num_subscriptions, count.num_guard_conditions,
                                  count.num_timers, count.num_clients, count.num_services,
                                  count.num_events, self._context.handle)
        by_pointer = {kind: {entity.handle.pointer: (entity, node) for entity, node in entities}
                      for kind, entities in kinds.items()}
        adders = [(getattr(wait_set, f'add_{kind}'), [entity.handle for entity, _ in entities])
                  for kind, entities in kinds.items()]
        self._cache = {'handles': handles, 'wait_set': wait_set, 'adders': adders,
                       'by_pointer': by_pointer, 'waitables': waitables, 'polled': polled}

    def _filled_wait_set(self):
        """Return the cache with its wait set filled; rebuilt first if the entities changed."""
        for _ in range(3):
            if self._changed or self._cache is None:
                self._changed = False          # first: a change while building marks it again
                self._release_cache()
                self._build_cache()
            cache = self._cache
            wait_set = cache['wait_set']
            wait_set.clear_entities()
            try:
                for add, entity_handles in cache['adders']:
                    for handle in entity_handles:
                        add(handle)
                for waitable, _ in cache['waitables']:
                    waitable.add_to_wait_set(wait_set)
            except InvalidHandle:              # destroyed behind the node's back: rebuild
                self._changed = True
                continue
            return cache
        return None

    def _run_pending_tasks(self):
        """Run the tasks that are neither running nor done (coroutines, created tasks)."""
        if not self._tasks:                        # the usual case: nothing to lock for
            return
        with self._tasks_lock:
            tasks = list(self._tasks)
        for task, entity, node in tasks:
            if not task.executing() and not task.done():
                task()
                if task.exception() is not None:
                    report_callback_failure(node, describe('task of', entity) if entity
                                            else 'a task', task.exception())
        with self._tasks_lock:
            self._tasks = [entry for entry in self._tasks
                           if not entry[0].done() and not entry[0].cancelled()]

    def _call(self, entity, callback, *args):
        """Call a callback inside its callback group; a coroutine continues as a task."""
        group = entity.callback_group
        if not group.beginning_execution(entity):
            return None
        try:
            result = callback(*args)
        finally:
            group.ending_execution(entity)
        if inspect.iscoroutine(result):
            self.create_task(result)
            return None
        return result

    def _dispatch(self, kind, entity, node):
        """Take the ready data of one entity and run its callback; report what it raises."""
        try:
            self._take_and_call(kind, entity, node)
        except InvalidHandle:                      # destroyed since the wait: nothing to do
            pass
        except Exception as exc:  # noqa: BLE001 - logged; the other callbacks still run
            report_callback_failure(node, describe(kind, entity), exc)

    def _take_and_call(self, kind, entity, node):
        """Take the data of a ready entity and run its callback (handle still valid)."""
        if node is None:                           # the executor's own guard conditions
            return
        if not entity.callback_group.can_execute(entity) or entity._executor_event:
            return
        if kind == 'timer':
            with entity.handle:
                if not entity.handle.is_timer_ready():
                    return
                entity.handle.call_timer()
            self._call(entity, entity.callback)
        elif kind == 'subscription':
            with entity.handle:
                taken = entity.handle.take_message(entity.msg_type, entity.raw)
            if taken is not None:
                message_only = entity._callback_type is Subscription.CallbackType.MessageOnly
                self._call(entity, entity.callback, *(taken[:1] if message_only else taken))
        elif kind == 'service':
            with entity.handle:
                request, header = entity.handle.service_take_request(entity.srv_type.Request)
            if header is not None:
                response = self._call(entity, entity.callback, request,
                                      entity.srv_type.Response())
                if response is not None:
                    entity.send_response(response, header)
        elif kind == 'client':
            self._client_response(entity)
        else:                                      # a node's guard condition
            self._call(entity, entity.callback)

    def _client_response(self, client):
        """Complete the pending future of a client's response."""
        with client.handle:
            header, response = client.handle.take_response(client.srv_type.Response)
        if header is None:
            return
        try:
            future = client.get_pending_request(header.request_id.sequence_number)
        except KeyError:                           # the request was cancelled
            return
        future._set_executor(self)
        future.set_result(response)

    def _spin_once_impl(self, timeout_sec=None, wait_condition=lambda: False):
        if wait_condition():
            return
        self._run_pending_tasks()
        with self._iteration:                      # shutdown() releases nothing meanwhile
            if self._is_shutdown or not self._context.ok():
                return
            cache = self._filled_wait_set()
            if cache is None:                      # entities vanishing as they are read
                return
            wait_set = cache['wait_set']
            timeout = timeout_sec.timeout if isinstance(timeout_sec, TimeoutObject) \
                else timeout_sec
            if cache['polled']:                    # wake for the next poll at the latest
                until_poll = self._poll_mismatches(cache['polled'])
                timeout = until_poll if timeout is None or timeout < 0 \
                    else min(timeout, until_poll)
            wait_set.wait(timeout_sec_to_nsec(timeout))
            if self._is_shutdown:
                return
            if not self._context.ok():
                raise ExternalShutdownException()
            ready = {kind: wait_set.get_ready_entities(kind) for kind in _KINDS}
            self._dispatch_ready(cache, wait_set, ready)

    def _dispatch_ready(self, cache, wait_set, ready):
        """Run the callbacks of the ready entities, waitables and timers first."""
        for waitable, node in cache['waitables']:
            try:
                if waitable.is_ready(wait_set):
                    self._run_waitable(waitable, node)
            except InvalidHandle:                  # destroyed by an earlier callback
                continue
        for kind in ('timer', 'subscription', 'guard_condition', 'client', 'service'):
            by_pointer = cache['by_pointer'][kind]
            for pointer in ready[kind]:
                if self._is_shutdown or not self._context.ok():   # shut down (Ctrl-C) by
                    return                     # a callback: nothing more (publishers invalid)
                if pointer in by_pointer:
                    self._dispatch(kind, *by_pointer[pointer])

    def _poll_mismatches(self, polled):
        """Take the mismatch events when due, calling back each changed one; s to the next."""
        now = time.monotonic()
        if now >= self._next_poll:
            self._next_poll = now + MISMATCH_POLL_PERIOD
            for waitable, node, event in polled:
                try:
                    with event:
                        status = event.take_event()
                    if status is not None and status.total_count_change > 0:
                        self._call(waitable, waitable.callback, status)
                except InvalidHandle:              # destroyed since the cache was built
                    continue
                except Exception as exc:  # noqa: BLE001 - logged; the node goes on
                    report_callback_failure(node, describe('waitable', waitable), exc)
        return max(0.0, self._next_poll - now)

    def _run_waitable(self, waitable, node):
        """Take a ready waitable's data and run its work as a task (rclpy's handler)."""
        if not waitable.callback_group.can_execute(waitable):
            return
        handler = self._make_handler(waitable, node, self._take_waitable)
        handler()
        if handler.exception() is not None:
            report_callback_failure(node, describe('waitable', waitable), handler.exception())


def _mismatch_event(waitable):
    """Return the rcl event handle of one of rclpy's :data:`MISMATCHES` handlers, else None."""
    if type(waitable) is not EventHandler or waitable.event_type.name not in MISMATCHES:
        return None
    return getattr(waitable, '_EventHandler__event', None)
