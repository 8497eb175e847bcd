# Sourced by scripts/run and scripts/test: make .venv match pyproject.toml.
# Reinstalls only when pyproject.toml changed (a hash stamp inside .venv).

kut_venv() {
  local root python stamp want
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  python="${PYTHON:-python3}"
  stamp="$root/.venv/.kut-installed"
  want="$("$python" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$root/pyproject.toml")"

  if [ ! -x "$root/.venv/bin/python" ] || ! "$root/.venv/bin/python" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null; then
    if ! "$python" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null; then
      echo "KÜT needs Python 3.11 or newer (set PYTHON=/path/to/python3.11)." >&2
      return 1
    fi
    echo "[kut] creating .venv" >&2
    rm -rf "$root/.venv"
    "$python" -m venv "$root/.venv"
  fi

  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "[kut] installing dependencies into .venv" >&2
    if [ ! -x "$root/.venv/bin/uv" ]; then
      "$root/.venv/bin/python" -m pip install --quiet --disable-pip-version-check uv
    fi
    (cd "$root" && "$root/.venv/bin/uv" pip install --quiet --python "$root/.venv/bin/python" -e '.[dev]')
    echo "$want" > "$stamp"
  fi
}
