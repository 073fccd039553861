#!/usr/bin/env bash
# The deployment files, checked without Docker or a cluster: the Dockerfiles and
# docker-compose.yml (pnpm check:docker), then every Kustomize overlay rendered and validated
# (pnpm check:k8s, which installs kubectl from Debian where it is missing). Exit 1 on any problem.
set -euo pipefail
cd "$(dirname "$0")/../.."
pnpm --silent check:docker
pnpm --silent check:k8s
