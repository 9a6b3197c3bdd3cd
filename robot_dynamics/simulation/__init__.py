# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""Simulation: time integration of the forward dynamics, trajectories and plots."""
