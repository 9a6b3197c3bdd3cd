#!/usr/bin/env bash
# Demo: set up .venv, then run the ROS 2 simulation demo on the bundled PUMA 560 in one
# process (simulator + dynamics node + computed-torque controller + trajectory publisher,
# as launch/simulation.launch.py starts them). Prints the tracking error per joint with and
# without the dynamics node's feed-forward and the dynamics node's compute time per message,
# and writes out/demo.png. Extra arguments go to robot_dynamics_bringup (see --help).
set -euo pipefail
cd "$(dirname "$0")"
./scripts/setup_venv.sh >&2        # stdout opens with the demo's result

# An isolated ROS 2 graph on this machine: local discovery only, a domain of our own.
export AMENT_PREFIX_PATH="$PWD/.venv${AMENT_PREFIX_PATH:+:$AMENT_PREFIX_PATH}"
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-$((100 + RANDOM % 101))}
export RCUTILS_LOGGING_BUFFERED_STREAM=1
export MPLBACKEND=Agg

mkdir -p out
exec .venv/bin/robot_dynamics_bringup --robot puma560 --plot out/demo.png --compare "$@"
