"""Campaign configuration: schema validation with defaults, then the checks a schema cannot express.

The Snakefile validates with ``snakemake.utils.validate`` against ``workflow/schemas/config.schema.yaml``
and then calls :func:`check_campaign`, so a bad config is rejected before any job runs, with a
message naming the key. :func:`load_config` does both for use outside Snakemake.

The package's modules, in the order they build on each other:

- :mod:`.schema`: the JSON schema's validation with defaults, :class:`ConfigError`;
- :mod:`.merge`: the strict YAML read of campaign files and their deep merge (a later overlay wins, a ``null`` deletes its key);
- :mod:`.campaign`: the enabled datasets (replicates expanded) and methods, splits, settings, the registry;
- :mod:`.plan`: the select jobs, each one's config slice (``config_hash``) and execution layout (parts);
- :mod:`.sizes`: class counts and shapes known before any download;
- :mod:`.resources`: a job's resources, runtime and fit-count warnings;
- :mod:`.budget`: the per-job budget and its cost warning;
- :mod:`.validate_methods`, :mod:`.validate`: the checks after the schema, one validator per section.
"""

from __future__ import annotations

from .schema import (  # noqa: F401
    ConfigError,
    NAME_RE,
    SCHEMA,
    validate_schema,
)
from .merge import (  # noqa: F401
    apply_deletions,
    campaign_chain,
    check_config_files,
    deep_update,
    loaded_config_files,
    merge_config_files,
    read_config_file,
)
from .campaign import (  # noqa: F401
    campaign_datasets,
    campaign_methods,
    method_execution,
    dataset_lock_path,
    dataset_methods,
    dataset_splits,
    job_method_config,
    load_dataset_registry,
    method_settings,
    mirror_url,
    n_folds,
    SPLIT_DEFAULTS,
)
from .plan import (  # noqa: F401
    GLOBAL_SCALING_PART,
    global_selection_methods,
    grid_block,
    is_audit_part,
    job_campaign_config,
    job_config,
    job_grid,
    LAYOUT_KEYS,
    PART_NAME,
    part_names,
    RESULT_FREE_KEYS,
    SELECT_JOB_AUDITS,
    select_job_audits,
    select_jobs,
    split_global_scaling,
    split_inner_folds,
)
from .sizes import (  # noqa: F401
    expected_class_counts,
    expected_shape,
    largest_training_side,
)
from .budget import campaign_budget_warnings  # noqa: F401
from .resources import (  # noqa: F401
    fit_count_warnings,
    method_resources,
    runtime_warnings,
)
from .validate import (  # noqa: F401
    _check_inner_cv_tables,
    check_campaign,
    load_config,
)

__all__ = [
    "ConfigError",
    "NAME_RE",
    "SCHEMA",
    "validate_schema",
    "apply_deletions",
    "campaign_chain",
    "check_config_files",
    "deep_update",
    "loaded_config_files",
    "merge_config_files",
    "read_config_file",
    "campaign_datasets",
    "campaign_methods",
    "method_execution",
    "dataset_lock_path",
    "dataset_methods",
    "dataset_splits",
    "job_method_config",
    "load_dataset_registry",
    "method_settings",
    "mirror_url",
    "n_folds",
    "SPLIT_DEFAULTS",
    "GLOBAL_SCALING_PART",
    "global_selection_methods",
    "grid_block",
    "is_audit_part",
    "job_campaign_config",
    "job_config",
    "job_grid",
    "LAYOUT_KEYS",
    "PART_NAME",
    "part_names",
    "RESULT_FREE_KEYS",
    "SELECT_JOB_AUDITS",
    "select_job_audits",
    "select_jobs",
    "split_global_scaling",
    "split_inner_folds",
    "expected_class_counts",
    "expected_shape",
    "largest_training_side",
    "campaign_budget_warnings",
    "fit_count_warnings",
    "method_resources",
    "runtime_warnings",
    "check_campaign",
    "load_config",
]
