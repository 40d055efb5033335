// The launcher pod's image pull secrets (KubeVirt's template.go puts the union of the VMI's
// `imagePullSecret`s into the pod's spec.imagePullSecrets). kubevirt-ts pulls containerDisks in
// virt-handler, so each is also a secret volume of the pod: the kubelet fetches it with the node's
// credentials and virt-handler reads it on the node (api/vmi/launcher-pull-secrets.ts). A missing
// Secret does not keep the pod from starting (optional), as a missing pull secret does not stop a
// kubelet: the pull then fails with the registry's refusal, which the VMI shows.
import { LAUNCHER_PULL_SECRETS, pullSecretVolumeName } from "../../api/index.js";
import type { Pod } from "../kinds.js";

type PodSpec = NonNullable<Pod["spec"]>;

export interface LauncherPullSecrets {
  imagePullSecrets: NonNullable<PodSpec["imagePullSecrets"]>;
  volumes: NonNullable<PodSpec["volumes"]>;
}

export function pullSecretVolumes(secretNames: readonly string[]): LauncherPullSecrets {
  return {
    imagePullSecrets: secretNames.map((name) => ({ name })),
    volumes: secretNames.map((secretName, index) => ({
      name: pullSecretVolumeName(index),
      secret: {
        secretName,
        optional: true,
        items: [{ key: LAUNCHER_PULL_SECRETS.key, path: LAUNCHER_PULL_SECRETS.key }],
      },
    })),
  };
}
