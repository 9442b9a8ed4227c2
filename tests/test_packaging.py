"""The package configuration, read as setuptools reads it: every folder that ships a file is a package (so no
install warns "Package ... is absent from the `packages` configuration"), data files are declared, and the extras
hold what they promise."""

import warnings
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def setuptools_config():
    from setuptools.config.pyprojecttoml import read_configuration

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # older setuptools call [tool.setuptools] "beta"
        return read_configuration(ROOT / "pyproject.toml")


def _shipped_files():
    """Every file under the project's top-level packages (the folders holding an __init__.py), caches aside."""
    for init in sorted(ROOT.glob("*/__init__.py")):
        for path in sorted(init.parent.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                yield path


def test_every_folder_that_ships_a_file_is_a_package(setuptools_config):
    packages = set(setuptools_config["tool"]["setuptools"]["packages"])
    missing = sorted({".".join(p.parent.relative_to(ROOT).parts) for p in _shipped_files()} - packages)
    assert not missing, f"absent from the `packages` configuration: {missing}"
    assert "registry.prompts" in packages
    assert not any("__pycache__" in p for p in packages)


def test_every_data_file_is_declared_package_data(setuptools_config):
    data = setuptools_config["tool"]["setuptools"]["package-data"]
    undeclared = [str(p.relative_to(ROOT)) for p in _shipped_files() if p.suffix != ".py"
                  and not any(fnmatch(p.name, pattern) for pattern in data.get(".".join(p.parent.relative_to(ROOT).parts), []))]
    assert not undeclared, undeclared
    assert any(p.parent.name == "prompts" for p in _shipped_files()), "the model prompts are shipped"


def test_an_editable_install_is_a_plain_path_to_the_checkout(setuptools_config):
    # with the root as the only package directory setuptools writes a .pth, not a meta-path finder with its notice
    assert setuptools_config["tool"]["setuptools"]["package-dir"] == {"": "."}


def test_the_workbench_extra_opens_the_notebooks_and_ci_does_not_install_it(setuptools_config):
    extras = setuptools_config["project"]["optional-dependencies"]
    names = lambda specs: {s.split(">")[0].split("=")[0].split("[")[0].strip() for s in specs}  # noqa: E731
    assert {"jupyterlab", "ipykernel", "nbclient"} <= names(extras["workbench"])
    assert "jupyterlab" not in names(extras["test"]), "CI installs the test extra only"
    assert "setup.sh test" in (ROOT / ".ci/run").read_text(encoding="utf-8")
