"""Hamilton node modules, one per step of the turn pipeline (DESIGN section 3).

Modules whose names start with `_` hold mechanisms shared by the stages; they are not
given to the driver and define no nodes.
"""

import os as _os

# The stages use plain Python and pydantic values, none of Hamilton's dataframe extensions;
# autoloading them would import dask/pandas plugins into every process (~0.4 s, tens of MB).
_os.environ.setdefault("HAMILTON_AUTOLOAD_EXTENSIONS", "0")
