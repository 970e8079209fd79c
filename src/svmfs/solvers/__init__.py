"""Solver code shared by the selection methods (NLP/LP models, kernels)."""
