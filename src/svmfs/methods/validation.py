"""The one check of a method's parameter values: the estimator's own ``_parameter_constraints``, as
scikit-learn validates them at ``fit`` (``sklearn.utils._param_validation``), run before any job so that a
campaign's bad value is a config error naming its key."""

from __future__ import annotations

from typing import Any

from sklearn.utils._param_validation import InvalidParameterError, validate_parameter_constraints


def check_params(cls: type, params: dict[str, Any]) -> list[str]:
    """The errors of ``params`` (parameter name -> value) for the estimator class ``cls``.

    Each parameter ``cls`` declares in ``_parameter_constraints`` is checked against its constraints;
    a parameter ``cls`` does not accept is an error too. One string per error, naming the parameter.

    Examples
    --------
    >>> from sklearn.svm import LinearSVC
    >>> check_params(LinearSVC, {"C": 1.0})
    []
    >>> check_params(LinearSVC, {"C": -1.0})  # doctest: +ELLIPSIS
    ["C: The 'C' parameter of LinearSVC must be a float in the range (0.0, inf)... Got -1.0 instead."]
    >>> check_params(LinearSVC, {"nu": 0.5})
    ['nu: not a parameter of LinearSVC']
    """
    accepted = set(cls().get_params(deep=False)) if _constructible(cls) else set(params)
    errs = [f"{k}: not a parameter of {cls.__name__}" for k in params if k not in accepted]
    constraints = getattr(cls, "_parameter_constraints", {})
    for name, value in params.items():
        if name not in accepted or name not in constraints:
            continue
        try:
            validate_parameter_constraints({name: constraints[name]}, {name: value}, caller_name=cls.__name__)
        except InvalidParameterError as e:
            errs.append(f"{name}: {e}")
    return errs


def _constructible(cls: type) -> bool:
    try:
        cls()
    except TypeError:  # a required constructor argument
        return False
    return True
