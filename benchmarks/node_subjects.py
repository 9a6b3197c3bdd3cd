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
"""The node benchmarks' subjects: start a node process as users do, measure its CPU, stop it.

The soak, latency, arms and contact-CPU benchmarks start their subjects with
:func:`start_node` (the installed package, or a source tree's), measure with
:func:`measured_cpu` and stop with :func:`stop_nodes`, in a private localhost-only ROS
domain (:func:`private_graph`).
"""

import contextlib
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import threading
import time
import warnings


def read_proc(pid):
    """``(rss_bytes, cpu_seconds)`` of a process from /proc."""
    with open(f'/proc/{pid}/status') as handle:
        rss = next(int(line.split()[1]) * 1024 for line in handle if line.startswith('VmRSS'))
    with open(f'/proc/{pid}/stat') as handle:
        fields = handle.read().rsplit(')', 1)[1].split()
    ticks = os.sysconf('SC_CLK_TCK')
    return rss, (int(fields[11]) + int(fields[12])) / ticks


def start_node(module, arguments=(), root=None, executor=None, capture=False):
    """Start ``python -m module arguments`` as users do; the benchmarks' one way to start nodes.

    ``root`` None: the installed package (this tree, once ``./scripts/setup_venv.sh`` or
    ``colcon build`` installed it); else the source tree ``root``, which must hold its compiled
    engine (a tree without it would run the numpy fallback, about 10x slower per message: the
    node then saturates a core at 1 kHz and the benchmark measures its queue). ``executor``:
    ``ROBOT_DYNAMICS_EXECUTOR`` (None: the default). ``capture``: its output is kept (text,
    :func:`stop_nodes` returns it); else discarded.
    """
    env = dict(os.environ, PYTHONWARNINGS='ignore', PYTHONDONTWRITEBYTECODE='1')
    env.pop('ROBOT_DYNAMICS_EXECUTOR', None)
    if executor:
        env['ROBOT_DYNAMICS_EXECUTOR'] = executor
    if root is None:
        env['PYTHONSAFEPATH'] = '1'                 # never the source tree: the installed one
    else:
        if not list(pathlib.Path(root, 'robot_dynamics', 'engine').glob('_engine*.so')):
            sys.exit(f'{root}: no compiled engine in robot_dynamics/engine/; build it first '
                     f'(cd {root} && python setup.py build_ext --inplace)')
        env['PYTHONPATH'] = str(root) + os.pathsep + os.environ.get('PYTHONPATH', '')
    output = dict(stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) if capture \
        else dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return subprocess.Popen([sys.executable, '-m', module, *arguments],
                            cwd=root or tempfile.gettempdir(), env=env, **output)


def dynamics_node_arguments(namespace, model_name, parameters=()):
    """Return the ``--ros-args`` of a dynamics node in ``namespace`` with ``parameters``."""
    arguments = ['--ros-args', '-r', f'__ns:={namespace}', '-p', f'model:={model_name}']
    for parameter in parameters:
        arguments += ['-p', parameter]
    return arguments


def stop_nodes(processes):
    """SIGTERM each process, SIGKILL what is left after 10 s; return their captured output."""
    for process in processes:
        process.terminate()
    outputs = []
    for process in processes:
        try:
            output, _ = process.communicate(timeout=10.0)
        except subprocess.TimeoutExpired:        # a subject that ignores SIGTERM
            process.kill()
            output, _ = process.communicate()
        outputs.append(output or '')
    return outputs


def measured_cpu(pids, seconds, ready, warm_up, flags=(), started=None):
    """CPU of ``pids`` together, % of one core, over ``seconds`` once ``ready()`` and warm.

    Waits for ``ready()`` (60 s at most), then ``warm_up`` s; each of ``flags`` (shared
    values) is 1 while measuring, and ``started()`` is called as it starts. The benchmarks'
    one measuring window.
    """
    deadline = time.monotonic() + 60.0
    while not ready() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(warm_up)
    start = sum(read_proc(pid)[1] for pid in pids)
    wall = time.monotonic()
    for flag in flags:
        flag.value = 1
    if started is not None:
        started()
    time.sleep(seconds)
    for flag in flags:
        flag.value = 0
    end = sum(read_proc(pid)[1] for pid in pids)
    return 100.0 * (end - start) / (time.monotonic() - wall)


def add_round(total, result):
    """Add one round's ``result`` to ``total``: latencies joined, counts summed.

    A figure per round (a list in ``total``, e.g. CPU) gets this round's appended.
    """
    for name, value in total.items():
        if name == 'latencies':
            value += result['latencies']
        elif isinstance(value, list):
            value.append(result[name])
        else:
            total[name] = value + result[name]


def private_graph():
    """Give this run a ROS domain of its own, localhost-only (the installed package runs)."""
    os.environ['ROS_DOMAIN_ID'] = str(random.SystemRandom().randint(100, 200))
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    os.environ.setdefault('AMENT_PREFIX_PATH', sys.prefix)


def quiet_model(name):
    """Load the bundled model ``name`` without printing its model warnings."""
    import robot_dynamics as rd
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return rd.load_model(name)


@contextlib.contextmanager
def receiver_graph(name, realtime=0, executor_class=None):
    """Yield ``(spawn context, node)``: this process's node ``name`` in a private graph.

    The node spins in a thread on ``executor_class`` (default: the nodes' executor; rclpy's
    own falls behind 1 kHz under load; a receiver that destroys its subscriptions while it
    spins needs rclpy's, which builds its wait set each time); ``realtime`` > 0 runs this
    process (and what it starts) SCHED_FIFO at that priority (root). All is shut down on exit,
    the spinning thread first: an executor shut down from another thread while it spins
    released the handles its wait was using (a SIGSEGV at exit, once in CI).
    """
    if realtime:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(realtime))
    private_graph()
    import multiprocessing

    import rclpy

    from robot_dynamics.nodes.executors import CachedWaitSetExecutor
    rclpy.init()
    node = rclpy.create_node(name)
    executor = (executor_class or CachedWaitSetExecutor)()
    executor.add_node(node)
    done = threading.Event()

    def spin():
        while not done.is_set() and rclpy.ok():
            executor.spin_once(timeout_sec=0.05)

    thread = threading.Thread(target=spin, daemon=True)
    thread.start()
    try:
        yield multiprocessing.get_context('spawn'), node
    finally:
        done.set()
        thread.join()
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()
