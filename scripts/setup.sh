#!/usr/bin/env bash
# One setup for the quick start and CI: system packages, a virtualenv, the project with extras.
#   scripts/setup.sh            runtime only
#   scripts/setup.sh test       runtime + test extras
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"

# graphviz's `dot` draws the stage graph; a CJK font lets Hangul render in drawings.
need=()
command -v dot >/dev/null 2>&1 || need+=(graphviz)
fc-list 2>/dev/null | grep -qi nanum || need+=(fonts-nanum)
# headless Chromium opens the HTML run reports in the tests (Debian's package; nothing downloaded at test time)
case ",$extras," in *,test,*|*,workbench,*) command -v chromium >/dev/null 2>&1 || need+=(chromium) ;; esac
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "setup: please install ${need[*]} (apt); continuing without them" >&2
  fi
fi

python3 -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip >/dev/null
if [ -n "$extras" ]; then
  python -m pip install -q -e ".[$extras]"
else
  python -m pip install -q -e .
fi
