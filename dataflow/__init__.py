"""Driver assembly and the turn runner, with what every job shares (model clients, the voice session, set rows,
schemas, the knowledge index); the jobs themselves are subpackages: `cli`, `runtime`, `workbench`."""

import os as _os

# The stages use plain Python and pydantic values, none of Hamilton's dataframe extensions;
# autoloading them would import dask/pandas plugins into every process (~0.4 s, tens of MB).
_os.environ.setdefault("HAMILTON_AUTOLOAD_EXTENSIONS", "0")
