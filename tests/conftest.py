"""Shared fixtures: the project root and a writer for campaign configs."""

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def write_config(tmp_path):
    def write(cfg: dict, name: str = "campaign.yaml") -> Path:
        path = tmp_path / name
        path.write_text(yaml.safe_dump(cfg, sort_keys=False))
        return path

    return write
