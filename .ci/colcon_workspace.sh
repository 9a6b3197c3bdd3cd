#!/usr/bin/env bash
# Build and test the package as a ROS 2 user does, in a throwaway colcon workspace whose src/
# links to this checkout: `colcon build` (plain, then --symlink-install), `colcon test`,
# `colcon test-result --verbose`. Uses .venv (./scripts/setup_venv.sh) plus colcon from PyPI.
# Both rounds run the whole suite (about 80 s each here); extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
VENV="$ROOT/.venv"
[ -x "$VENV/bin/python" ] || ./scripts/setup_venv.sh
echo "[colcon] installing colcon from PyPI into .venv"
"$VENV/bin/python" -m pip install --quiet -r requirements-colcon.txt >>"$VENV/pip.log" 2>&1 \
  || { tail -50 "$VENV/pip.log"; exit 1; }

WS=$(mktemp -d "${TMPDIR:-/tmp}/robot_dynamics_ws.XXXXXX")
trap 'rm -rf "$WS"' EXIT
mkdir -p "$WS/src"
ln -s "$ROOT" "$WS/src/robot_dynamics"

set +u
# shellcheck disable=SC1091
source "$VENV/bin/activate"
set -u
# The ROS 2 wheels' ament index is the venv prefix; the workspace's overlay goes on top of it.
export AMENT_PREFIX_PATH="$VIRTUAL_ENV"
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-$((100 + RANDOM % 100))}
export MPLBACKEND=Agg
# What is tested must be the workspace's copy, not the one ./run_tests.sh pip-installed.
python -m pip uninstall --quiet --yes robot_dynamics >/dev/null 2>&1 || true
trap 'python -m pip install --quiet --no-deps --no-build-isolation "$ROOT" >/dev/null 2>&1;
      rm -rf "$ROOT"/build "$ROOT"/*.egg-info; rm -rf "$WS"' EXIT

run_round() {  # $1: label, then colcon build options; PYTEST_ARGS: what colcon test runs
  local label=$1
  shift
  echo "[colcon] $label: colcon build $*"
  rm -rf "$WS/build" "$WS/install" "$WS/log"
  (cd "$WS" && colcon build "$@" --event-handlers console_cohesion- summary+)
  (
    cd "$WS"
    set +u
    # shellcheck disable=SC1091
    source install/setup.bash
    set -u
    echo "[colcon] $label: colcon test ${PYTEST_ARGS[*]:-(whole suite)}"
    colcon test --event-handlers console_direct+ \
      ${PYTEST_ARGS[@]:+--pytest-args "${PYTEST_ARGS[@]}"}
    colcon test-result --verbose
  )
}

PYTEST_ARGS=(-q "$@")
run_round 'plain install'
run_round 'symlink install' --symlink-install
echo "[colcon] both workspace rounds passed"
