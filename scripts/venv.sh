# Sourced by scripts/start and scripts/test (and .ci/run): makes sure .venv exists and
# holds exactly what uv.lock locks (the project, its test extra and the dev group),
# installing again whenever pyproject.toml or uv.lock changes.
#
# It needs only Python 3.11+ (and git for the checkout): uv, the locker, is installed
# into the venv from PyPI by pip, at the version uv.lock locks and checked against the
# lock's hashes, then `uv sync --locked` makes the venv match the lock (and refuses a
# lock that pyproject.toml no longer agrees with: refresh it with `.venv/bin/uv lock`,
# docs/contributing.md). pip and setuptools, which `python -m venv` seeds, are removed
# afterwards, so that nothing but the lock is installed.
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
wanted="$("$python" -c '
import hashlib, sys
digest = hashlib.sha256()
for name in sys.argv[1:]:
    digest.update(open(name, "rb").read())
print(digest.hexdigest())' "$root/pyproject.toml" "$root/uv.lock")"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    echo "installing drts and its test extras into $venv from uv.lock" >&2
    if [ ! -x "$venv/bin/uv" ]; then
        # The locked uv, with every wheel hash the lock records for it.
        "$venv/bin/python" -m pip --version >/dev/null 2>&1 \
            || "$venv/bin/python" -m ensurepip --default-pip >/dev/null
        "$venv/bin/python" - "$root/uv.lock" > "$venv/uv-requirement.txt" <<'EOF'
import sys, tomllib
with open(sys.argv[1], "rb") as lock:
    uv = next(p for p in tomllib.load(lock)["package"] if p["name"] == "uv")
print(f"uv=={uv['version']}", *(f"--hash={wheel['hash']}" for wheel in uv["wheels"]))
EOF
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
            --require-hashes --only-binary :all: -r "$venv/uv-requirement.txt"
    fi
    # VIRTUAL_ENV names the shell's own venv, not this one: unset, uv says nothing of it.
    env -u VIRTUAL_ENV UV_PROJECT_ENVIRONMENT="$venv" UV_PYTHON_DOWNLOADS=never \
        "$venv/bin/uv" sync --quiet --locked --extra test --project "$root"
    seeded="$("$venv/bin/python" -c '
import importlib.util
print(*(name for name in ("pip", "setuptools") if importlib.util.find_spec(name)))')"
    if [ -n "$seeded" ]; then
        # shellcheck disable=SC2086  # one word per package
        "$venv/bin/uv" pip uninstall --quiet --python "$venv/bin/python" $seeded
    fi
    echo "$wanted" > "$stamp"
fi
export PATH="$venv/bin:$PATH"
cd "$root"
