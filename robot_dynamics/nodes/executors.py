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
"""A MultiThreadedExecutor without the busy spin of rclpy Jazzy (ros2/rclpy#1452).

Jazzy's ``MultiThreadedExecutor`` yields a task again while it still waits in the thread
pool's queue, submits it once more and returns at once: the spinning thread keeps the GIL and
starves the workers, and a one-process graph (the simulation demo) runs 10-100× slower than
it should, depending on scheduling luck. Upstream fixed this after the Jazzy wheels
(ros2/rclpy#1547). This subclass remembers which tasks are queued and, instead of submitting
one again, yields the GIL for a moment so that a worker can start it.

``CachedWaitSetExecutor`` is a leaner ``SingleThreadedExecutor`` (wait set kept between
iterations, callbacks called directly); see its docstring and docs/robustness.md, "Soak".
"""

import contextlib
import inspect
import threading
import time

from rclpy.executors import (
    ConditionReachedException, ExternalShutdownException, MultiThreadedExecutor,
    ShutdownException, SingleThreadedExecutor, TimeoutException, TimeoutObject,
)
from rclpy.exceptions import InvalidHandle
from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy
from rclpy.subscription import Subscription
from rclpy.utilities import timeout_sec_to_nsec
from rclpy.waitable import NumberOfEntities

_WAIT_ENDED = (ExternalShutdownException, ShutdownException, TimeoutException,
               ConditionReachedException)


class QueueAwareMultiThreadedExecutor(MultiThreadedExecutor):
    """``MultiThreadedExecutor`` that never re-submits a task still queued in its pool."""

    def __init__(self, num_threads=None, *, context=None):
        super().__init__(num_threads=num_threads, context=context)
        self._queued = set()
        self._queued_lock = threading.Lock()

    def _run_queued(self, task):
        with self._queued_lock:
            self._queued.discard(task)
        task()

    def _spin_once_impl(self, timeout_sec=None, wait_condition=lambda: False):
        try:
            handler, _, _ = self.wait_for_ready_callbacks(timeout_sec, None, wait_condition)
        except _WAIT_ENDED:
            return
        with self._queued_lock:
            queued = handler in self._queued
            if not queued:
                self._queued.add(handler)
        if queued:
            time.sleep(50e-6)              # let a worker take the GIL and start the task
            return
        self._executor.submit(self._run_queued, handler)
        self._futures.append(handler)
        for future in self._futures[:]:
            if future.done():
                self._futures.remove(future)
                future.result()            # raise any exception of the callback


class CachedWaitSetExecutor(SingleThreadedExecutor):
    """``SingleThreadedExecutor`` that keeps its wait set while the nodes' entities do not change.

    Jazzy's executor gathers the entities of every node, enters each handle, builds a new
    ``WaitSet`` and wraps every callback in a coroutine ``Task`` whose end triggers the
    executor's guard condition (one more wake-up per message), all in Python on every
    iteration. This one builds the entity lists and the ``WaitSet`` once and rebuilds them only
    when its guard condition fires (a node added or removed, an entity created or destroyed: the
    nodes call ``wake()``, or a task created), and calls ready callbacks directly. Coroutine
    callbacks and waitables (QoS events) run as tasks as in the base class.

    While cached, the entities' handles are held in use, so an entity destroyed meanwhile is
    freed at the next rebuild; ``remove_node`` and ``shutdown`` release them.
    """

    def __init__(self, *, context=None):
        super().__init__(context=context)
        self._cache = None

    def _release_cache(self):
        if self._cache is not None:
            self._cache['handles'].close()
            self._cache = None

    def spin(self):
        """Execute callbacks until shutdown, then release the cached handles."""
        try:
            super().spin()
        finally:
            self._release_cache()

    def remove_node(self, node):
        """Stop managing ``node`` and release the cached handles."""
        super().remove_node(node)
        self._release_cache()

    def shutdown(self, timeout_sec=None):
        """Shut down as the base class does, releasing the cached handles first."""
        self._release_cache()
        return super().shutdown(timeout_sec)

    def _build_cache(self):
        """Enter every entity's handle and size one ``WaitSet`` for them all."""
        handles = contextlib.ExitStack()
        kinds = {kind: [] for kind in ('subscription', 'timer', 'client', 'service',
                                       'guard_condition')}
        waitables, count = [], NumberOfEntities(0, 0, 0, 0, 0)
        owners = {'subscription': 'subscriptions', 'timer': 'timers', 'client': 'clients',
                  'service': 'services', 'guard_condition': 'guards'}
        own_guards = [(self._guard, None), (self._sigint_gc, None)]
        for node in self.get_nodes():
            for kind, attribute in owners.items():
                for entity in getattr(node, attribute):
                    try:
                        handles.enter_context(entity.handle)
                    except InvalidHandle:
                        continue
                    kinds[kind].append((entity, node))
            for waitable in node.waitables:
                try:
                    handles.enter_context(waitable)
                except InvalidHandle:
                    continue
                waitables.append((waitable, node))
                count += waitable.get_num_entities()
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
        self._cache = {'handles': handles, 'wait_set': wait_set, 'kinds': kinds,
                       'by_pointer': by_pointer, 'waitables': waitables}

    def _run_pending_tasks(self):
        """Run the tasks that are neither running nor done (coroutines, created tasks)."""
        with self._tasks_lock:
            tasks = [task for task, _, _ in self._tasks]
        for task in tasks:
            if not task.executing() and not task.done():
                task()
                if task.exception() is not None:
                    raise task.exception()
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
        """Take the ready data of one entity and run its callback."""
        try:
            self._take_and_call(kind, entity, node)
        except InvalidHandle:                      # destroyed since the wait: nothing to do
            pass

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
        if self._is_shutdown or not self._context.ok():
            return
        if self._cache is None:
            self._build_cache()
        cache = self._cache
        wait_set = cache['wait_set']
        wait_set.clear_entities()
        for kind, add in (('subscription', wait_set.add_subscription),
                          ('timer', wait_set.add_timer), ('client', wait_set.add_client),
                          ('service', wait_set.add_service),
                          ('guard_condition', wait_set.add_guard_condition)):
            for entity, _ in cache['kinds'][kind]:
                add(entity.handle)
        for waitable, _ in cache['waitables']:
            waitable.add_to_wait_set(wait_set)
        timeout = timeout_sec.timeout if isinstance(timeout_sec, TimeoutObject) else timeout_sec
        wait_set.wait(timeout_sec_to_nsec(timeout))
        if self._is_shutdown:
            return
        if not self._context.ok():
            raise ExternalShutdownException()
        ready = {kind: wait_set.get_ready_entities(kind) for kind in cache['by_pointer']}
        try:
            self._dispatch_ready(cache, wait_set, ready)
        finally:
            if self._guard is None or self._guard.handle.pointer in ready['guard_condition']:
                self._release_cache()              # entities changed or a task was created

    def _dispatch_ready(self, cache, wait_set, ready):
        """Run the callbacks of the ready entities, waitables and timers first."""
        for waitable, node in cache['waitables']:
            if waitable.is_ready(wait_set) and waitable.callback_group.can_execute(waitable):
                handler = self._make_handler(waitable, node, self._take_waitable)
                handler()
                handler.result()                   # raise any exception of the callback
        for kind in ('timer', 'subscription', 'guard_condition', 'client', 'service'):
            by_pointer = cache['by_pointer'][kind]
            for pointer in ready[kind]:
                if pointer in by_pointer:
                    self._dispatch(kind, *by_pointer[pointer])
