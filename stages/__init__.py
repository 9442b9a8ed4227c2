"""Hamilton node modules, one per step of the turn pipeline (DESIGN section 3).

Modules whose names start with `_` hold mechanisms shared by the stages; they are not
given to the driver and define no nodes.
"""
