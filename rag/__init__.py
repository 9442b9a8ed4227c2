"""Document index and retrieval over the product manual (DuckDB). Not built yet: see the product-knowledge issue."""
