"""Driver assembly, the turn runner, CLI and batch scoring."""

import os as _os

# The stages use plain Python and pydantic values, none of Hamilton's dataframe extensions;
# autoloading them would import dask/pandas plugins into every process (~0.4 s, tens of MB).
_os.environ.setdefault("HAMILTON_AUTOLOAD_EXTENSIONS", "0")
