# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""A MultiThreadedExecutor without the busy spin of rclpy Jazzy (ros2/rclpy#1452).

Jazzy's ``MultiThreadedExecutor`` yields a task again while it still waits in the thread
pool's queue, submits it once more and returns at once: the spinning thread keeps the GIL and
starves the workers, and a one-process graph (the simulation demo) runs 10-100× slower than
it should, depending on scheduling luck. Upstream fixed this after the Jazzy wheels
(ros2/rclpy#1547). This subclass remembers which tasks are queued and, instead of submitting
one again, yields the GIL for a moment so that a worker can start it.
"""

import threading
import time

from rclpy.executors import (
    ConditionReachedException, ExternalShutdownException, MultiThreadedExecutor,
    ShutdownException, TimeoutException,
)

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
