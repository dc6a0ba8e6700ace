#!/usr/bin/env bash
# Installs what the notebooks need to run headless, idempotently:
#   - Debian's jupyter-nbconvert and python3-nbclient (the headless executor),
#   - a font for figure text (fonts-dejavu-core), used by resvg when rasterising,
#   - the Deno Jupyter kernel (`deno jupyter --install`).
# Safe to run repeatedly; installs only what is missing. Uses Debian's /usr/bin/python3 (the one
# jupyter-nbconvert runs on), whatever python3 comes first on PATH.
set -euo pipefail

need=()
command -v jupyter-nbconvert >/dev/null 2>&1 || need+=(jupyter-nbconvert)
/usr/bin/python3 -c "import nbclient" >/dev/null 2>&1 || need+=(python3-nbclient)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
if [ "${#need[@]}" -gt 0 ]; then
  echo "setup_jupyter: installing ${need[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

has_deno_kernel() {
  /usr/bin/python3 -c "from jupyter_client.kernelspec import KernelSpecManager as K; \
import sys; sys.exit(0 if 'deno' in K().find_kernel_specs() else 1)" >/dev/null 2>&1
}
if ! has_deno_kernel; then
  echo "setup_jupyter: installing the Deno kernel"
  deno jupyter --install --force >/dev/null 2>&1
fi
has_deno_kernel || {
  echo "setup_jupyter: the deno kernel is not registered" >&2
  exit 1
}
echo "setup_jupyter: ok ($(jupyter-nbconvert --version 2>/dev/null | head -1) nbconvert, deno kernel)"
