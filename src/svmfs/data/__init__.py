"""Datasets: registry, synthetic generators, downloads with mirror and checksums, canonical form."""
