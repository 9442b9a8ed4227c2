"""The robot side: TaskManager and tick-based simulator. Not built yet: see the execution issue."""
