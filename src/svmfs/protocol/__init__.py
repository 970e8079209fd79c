"""The experimental protocol: outer splits, per-fold normalization, nested-CV tuning, evaluation."""
