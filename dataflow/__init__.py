"""Driver assembly, the turn runner, CLI and batch scoring."""
