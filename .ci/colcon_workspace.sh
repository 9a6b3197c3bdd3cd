#!/usr/bin/env bash
# Build and test the package as a ROS 2 user does, in a throwaway colcon workspace whose src/
# holds a COPY of this repository's git-tracked files (nothing built in it: no compiled engine,
# no egg-info, no build/): `colcon build`, `colcon test`, `colcon test-result --verbose`, once
# with a plain install and once with --symlink-install. The tests import the package colcon
# installed (test/conftest.py takes the source directory off sys.path).
# Uses .venv (./scripts/setup_venv.sh) plus colcon from PyPI.
# Time: the plain round runs the whole suite (as long as ./run_tests.sh); the symlink round
# runs SYMLINK_TESTS, the tests that depend on how the package is installed (imports, the
# compiled engine, share/ data, executables, launch files, the CLI, node processes), so that
# CI does not run the whole suite three times. SYMLINK_TESTS='' runs the whole suite there too.
# Extra arguments go to pytest in both rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
VENV="$ROOT/.venv"
[ -x "$VENV/bin/python" ] || ./scripts/setup_venv.sh
echo "[colcon] installing colcon from PyPI into .venv"
"$VENV/bin/python" -m pip install --quiet -r requirements-colcon.txt >>"$VENV/pip.log" 2>&1 \
  || { tail -50 "$VENV/pip.log"; exit 1; }
git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 \
  || { echo "[colcon] $ROOT is not a git checkout: the workspace copies its tracked files"; exit 1; }

WS=$(mktemp -d "${TMPDIR:-/tmp}/robot_dynamics_ws.XXXXXX")
trap 'rm -rf "$WS"' EXIT
mkdir -p "$WS/src/robot_dynamics"
# Tracked files as they are in the working tree (uncommitted edits included), nothing else.
(cd "$ROOT" && git ls-files -z --cached | tar --null -T - -cf -) \
  | tar -xf - -C "$WS/src/robot_dynamics"
if find "$WS/src" -name '*.so' -o -name '*.egg-info' -o -name build | grep -q .; then
  echo "[colcon] the copy holds build products:"; find "$WS/src" -name '*.so'; exit 1
fi

set +u
# shellcheck disable=SC1091
source "$VENV/bin/activate"
set -u
# The ROS 2 wheels' ament index is the venv prefix; the workspace's overlay goes on top of it.
export AMENT_PREFIX_PATH="$VIRTUAL_ENV"
export ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
export ROS_DOMAIN_ID=${ROS_DOMAIN_ID:-$((100 + RANDOM % 100))}
export MPLBACKEND=Agg
# What is tested must be the workspace's install, not the one ./run_tests.sh pip-installed.
python -m pip uninstall --quiet --yes robot_dynamics >/dev/null 2>&1 || true
trap 'python -m pip install --quiet --no-deps --no-build-isolation "$ROOT" >/dev/null 2>&1;
      rm -rf "$ROOT"/build "$ROOT"/*.egg-info; rm -rf "$WS"' EXIT

run_round() {  # $1: label, then colcon build options; PYTEST_ARGS: what colcon test runs
  local label=$1
  shift
  local start=$SECONDS
  echo "[colcon] $label: colcon build $*"
  rm -rf "$WS/build" "$WS/install" "$WS/log"
  (cd "$WS" && colcon build "$@" --event-handlers console_cohesion- summary+)
  (
    cd "$WS"
    set +u
    # shellcheck disable=SC1091
    source install/setup.bash
    set -u
    echo "[colcon] $label: colcon test ${PYTEST_ARGS[*]}"
    colcon test --event-handlers console_direct+ --pytest-args "${PYTEST_ARGS[@]}"
    colcon test-result --verbose
  )
  echo "[colcon] $label passed in $((SECONDS - start)) s"
}

SYMLINK_TESTS=${SYMLINK_TESTS-test/test_environment.py test/test_package.py test/test_layers.py
  test/engine test/nodes/test_nodes_launch.py test/nodes/test_launch_files.py
  test/nodes/test_node_startup.py test/nodes/test_nodes_process.py test/cli/test_cli.py
  test/solvers/test_plugins.py}
PYTEST_ARGS=(-q "$@")
run_round 'plain install'
# shellcheck disable=SC2206
PYTEST_ARGS=(-q $SYMLINK_TESTS "$@")
run_round 'symlink install' --symlink-install
echo "[colcon] both workspace rounds passed"
