"""svmfs: reproducible campaigns comparing feature-selection methods for support vector machines."""

__version__ = "0.1.0"
