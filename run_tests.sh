#!/usr/bin/env bash
# Set up the project's environment (.venv, idempotent) and run the whole test suite.
# Extra arguments go to pytest, e.g. ./run_tests.sh -k pinocchio
set -euo pipefail
cd "$(dirname "$0")"
./scripts/setup_venv.sh
# ROS 2 from PyPI wheels: the ament index lives in the venv prefix; keep DDS traffic on this
# host and in a domain of its own so concurrent runs do not see each other.
export AMENT_PREFIX_PATH="$PWD/.venv${AMENT_PREFIX_PATH:+:$AMENT_PREFIX_PATH}"
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-$((100 + RANDOM % 100))}
export MPLBACKEND=Agg
exec .venv/bin/python -m pytest "$@"
