#!/usr/bin/env python3
"""Validates Kubernetes manifests against the official schemas (offline, from kubernetes-validate).

Dev tool for `make test-cluster`; installs kubernetes-validate into .build-tools-venv on first use.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, "..", ".build-tools-venv")


def main() -> int:
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    if subprocess.call([python, "-c", "import kubernetes_validate"], stderr=subprocess.DEVNULL) != 0:
        subprocess.check_call([python, "-m", "pip", "install", "--quiet", "kubernetes-validate==1.37.0"])
    # --strict rejects fields the schema does not define (typos such as "completionMod").
    result = subprocess.call([python, "-m", "kubernetes_validate", "--strict", "-k", "1.33.0", *sys.argv[1:]])
    return result


if __name__ == "__main__":
    sys.exit(main())
