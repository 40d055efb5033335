#!/usr/bin/env bash
# Regenerates ../<case>.pb (the protobuf body kubectl POSTs with --dry-run=server) and ../<case>.json (what
# the same command prints with --dry-run=client -o json) for every line of cases.txt. Needs kubectl 1.32.
# Usage: bash capture-fixtures.sh [KUBECTL]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kubectl="${1:-kubectl}"
work="$(mktemp -d)"
port="${PORT:-18099}"
node "$here/record-server.mjs" "$port" "$work/bodies" "$here/cronjob-source.json" &
recorder=$!
trap 'kill "$recorder"; rm -rf "$work"' EXIT
sleep 1

export INPUTS="$work/inputs"
mkdir -p "$INPUTS"
printf 'line1\nline2\n' > "$INPUTS/app.properties"
printf '\x00\x01\xff\xfe' > "$INPUTS/blob.bin"
export KUBECONFIG="$work/kubeconfig"
cat > "$KUBECONFIG" <<YAML
apiVersion: v1
kind: Config
clusters: [{name: recorder, cluster: {server: "http://127.0.0.1:$port"}}]
users: [{name: recorder, user: {token: recorder}}]
contexts: [{name: recorder, context: {cluster: recorder, user: recorder, namespace: default}}]
current-context: recorder
YAML

while IFS='|' read -r name command; do
  [ -n "$name" ] || continue
  main="${command%% -- *}"; rest=""
  [[ "$command" == *" -- "* ]] && rest="-- ${command#* -- }"
  # `create token` has no --dry-run (and no client-side -o json); the recorder answers it all the same.
  is_token=false; [[ "$name" == token* ]] && is_token=true
  server_flag="--dry-run=server"; $is_token && server_flag=""
  eval "set -- $main $server_flag $rest"
  "$kubectl" "$@" > /dev/null
  cp "$(ls -t "$work"/bodies/*.bin | head -1)" "$here/../$name.pb"
  if ! $is_token; then
    eval "set -- $main --dry-run=client -o json $rest"
    "$kubectl" "$@" > "$here/../$name.json"
  fi
done < "$here/cases.txt"

# kubectl indents by four; the repository's formatter by two.
(cd "$here/../../../../../.." && npx biome format --write dev-cluster/apiserver/protobuf/testing/testdata > /dev/null)
