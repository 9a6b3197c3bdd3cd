# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""ROS 2 nodes (rclpy). Thin: message ↔ array conversion and calls into the library.

The library (everything outside this package) never imports rclpy.
"""
