# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""Geometry and inertia helpers below every other layer: vectors, bodies, joint types."""
