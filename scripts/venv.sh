# Sourced by scripts/start and scripts/test: makes sure .venv exists and holds
# the project with its test extras, reinstalling when pyproject.toml changes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${DRTS_VENV:-$root/.venv}"
python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "drts needs Python 3.11 or newer; set PYTHON=/path/to/python3.11" >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "creating the virtual environment in $venv" >&2
    "$python" -m venv "$venv"
fi
stamp="$venv/.drts-installed"
wanted="$("$python" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$root/pyproject.toml")"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    echo "installing drts and its test extras into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -e "$root[test]"
    echo "$wanted" > "$stamp"
fi
export PATH="$venv/bin:$PATH"
cd "$root"
