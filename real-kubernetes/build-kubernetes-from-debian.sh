#!/usr/bin/env bash
# Builds Kubernetes 1.20.2's server binaries from Debian bookworm's source package `kubernetes`
# (Debian builds only kubectl from it): kube-apiserver, kube-controller-manager, kube-scheduler,
# kubelet and kube-proxy, static (CGO_ENABLED=0), xz-compressed into OUT/bin. About 13 minutes on
# 2 cores and 2.5 GB of disk; everything comes from Debian's mirror.
#   build-kubernetes-from-debian.sh OUT
set -euo pipefail
out=$(realpath -m "${1:?usage: build-kubernetes-from-debian.sh OUT}")
work="$out/work"
mkdir -p "$out/bin" "$work"
exec > >(tee "$out/build.log") 2>&1

# deb-src for bookworm main, next to the host's own sources.
if ! apt-get indextargets --format '$(IDENTIFIER)' 2>/dev/null | grep -qx 'Sources'; then
  # The same Signed-By as the host's own stanza for that mirror: apt refuses two different values.
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    > /etc/apt/sources.list.d/kubevirt-ts-deb-src.sources
  apt-get update
fi
apt-get install -y --no-install-recommends dpkg-dev golang-go rsync jq xz-utils golang-github-modern-go-reflect2-dev

cd "$work"
[[ -d kubernetes-1.20.5+really1.20.2 ]] || apt-get source --download-only kubernetes
[[ -d kubernetes-1.20.5+really1.20.2 ]] || dpkg-source --no-check -x kubernetes_*.dsc kubernetes-1.20.5+really1.20.2
cd kubernetes-1.20.5+really1.20.2

# The vendored reflect2 1.0.1 crashes under Go >= 1.18 (json-iterator's map encoding faults in
# runtime.mapiterinit on the first request): use Debian's 1.0.2 sources instead.
reflect2=/usr/share/gocode/src/github.com/modern-go/reflect2
find vendor/github.com/modern-go/reflect2 -maxdepth 1 \( -name '*.go' -o -name '*.s' \) -delete
cp "$reflect2"/*.go vendor/github.com/modern-go/reflect2/
cp "$reflect2"/*.s vendor/github.com/modern-go/reflect2/ 2>/dev/null || true

for name in kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy; do
  CGO_ENABLED=0 make WHAT="cmd/$name"
  xz -T0 -c "_output/bin/$name" > "$out/bin/$name.xz.partial"
  mv "$out/bin/$name.xz.partial" "$out/bin/$name.xz"
done
(cd "$out/bin" && sha256sum ./*.xz > SHA256SUMS)
echo "built: $out/bin"
