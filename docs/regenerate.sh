#!/bin/sh
# Regenerate the README's first look from the default campaign: docs/default_campaign.md, the table in
# README.md between its showcase markers, and docs/default_campaign.png. Runs the campaign first (a no-op
# when results/default is up to date). From the repository root, after the quick start's install:
#   sh docs/regenerate.sh
set -eu
.venv/bin/snakemake --cores 2 --workflow-profile workflow/profiles/default
.venv/bin/python -m svmfs.analysis.showcase results/default docs README.md
