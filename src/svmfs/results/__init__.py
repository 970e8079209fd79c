"""Result records: schema, provenance and atomic I/O."""
