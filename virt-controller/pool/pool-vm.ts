/**
 * A pool's VMs as KubeVirt's pool controller makes them: `<pool>-<index>`, the lowest indexes not
 * taken, the template's labels and annotations, its dataVolumeTemplates renamed `<name>-<index>`
 * (and the volumes on them rewritten), ConfigMap and Secret references suffixed too when the
 * pool's nameGeneration asks. Pure functions: the reconciler decides when.
 */
import { createHash } from "node:crypto";
import {
  POOL_FINALIZER,
  POOL_GROUP,
  POOL_VERSION,
  type StoredVirtualMachine,
  type StoredVirtualMachinePool,
  type VirtualMachinePoolSpec,
  type VirtualMachineSpec,
} from "../../api/index.js";
import { type Frozen, mutableCopy, type OwnerReference } from "../../runtime/index.js";

/**
 * The VM annotation that says which version of the pool's template made the VM (a hash of the
 * template and nameGeneration). KubeVirt keeps that in a ControllerRevision named by the label
 * `kubevirt.io/vm-pool-revision-name`; kubevirt-ts keeps no revisions, and only compares.
 */
export const POOL_TEMPLATE_HASH_ANNOTATION = "pool.kubevirt.io/template-hash";

export function poolVmName(poolName: string, index: number): string {
  return `${poolName}-${index}`;
}

/** The index in a pool VM's name (the number after the last dash), as KubeVirt reads it; undefined if none. */
export function indexOfPoolVm(vmName: string): number | undefined {
  const suffix = vmName.slice(vmName.lastIndexOf("-") + 1);
  return /^\d+$/.test(suffix) ? Number(suffix) : undefined;
}

/** `count` indexes, lowest first, whose names no VM in the namespace has. */
export function freeIndexes(poolName: string, count: number, nameTaken: (name: string) => boolean): number[] {
  const indexes: number[] = [];
  for (let candidate = 0; indexes.length < count; candidate += 1) {
    if (!nameTaken(poolVmName(poolName, candidate))) indexes.push(candidate);
  }
  return indexes;
}

export function templateHash(spec: Frozen<VirtualMachinePoolSpec>): string {
  const versioned = { template: spec.virtualMachineTemplate, nameGeneration: spec.nameGeneration ?? {} };
  return createHash("sha256").update(JSON.stringify(versioned)).digest("hex").slice(0, 16);
}

/** The VM spec of index `index`: the template's, with the per-VM names. */
export function indexedVmSpec(spec: Frozen<VirtualMachinePoolSpec>, index: number): VirtualMachineSpec {
  const vmSpec = mutableCopy<VirtualMachineSpec>(spec.virtualMachineTemplate.spec);
  const suffix = `-${index}`;
  const renamed = new Map<string, string>();
  for (const template of vmSpec.dataVolumeTemplates ?? []) {
    const name = template.metadata?.name;
    if (!name || !template.metadata) continue;
    renamed.set(name, name + suffix);
    template.metadata.name = name + suffix;
  }
  const configMaps = spec.nameGeneration?.appendIndexToConfigMapRefs === true;
  const secrets = spec.nameGeneration?.appendIndexToSecretRefs === true;
  for (const volume of vmSpec.template.spec?.volumes ?? []) {
    const claim = volume.persistentVolumeClaim;
    if (claim) claim.claimName = renamed.get(claim.claimName) ?? claim.claimName;
    const dataVolume = volume.dataVolume;
    if (dataVolume) dataVolume.name = renamed.get(dataVolume.name) ?? dataVolume.name;
    if (configMaps && volume.configMap?.name) volume.configMap.name += suffix;
    if (secrets && volume.secret?.secretName) volume.secret.secretName += suffix;
    for (const cloudInit of [volume.cloudInitNoCloud, volume.cloudInitConfigDrive]) {
      if (!secrets || !cloudInit) continue;
      if (cloudInit.secretRef?.name) cloudInit.secretRef.name += suffix;
      if (cloudInit.networkDataSecretRef?.name) cloudInit.networkDataSecretRef.name += suffix;
    }
    if (secrets && volume.sysprep?.secret?.name) volume.sysprep.secret.name += suffix;
    if (configMaps && volume.sysprep?.configMap?.name) volume.sysprep.configMap.name += suffix;
  }
  return vmSpec;
}

export function poolOwnerReference(pool: Frozen<StoredVirtualMachinePool>): OwnerReference {
  return {
    apiVersion: `${POOL_GROUP}/${POOL_VERSION}`,
    kind: "VirtualMachinePool",
    name: pool.metadata?.name ?? "",
    uid: pool.metadata?.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The template's labels and annotations (the hash on top), as KubeVirt gives them to each VM. */
export function poolVmMetadata(pool: Frozen<StoredVirtualMachinePool>): {
  labels: Record<string, string>;
  annotations: Record<string, string>;
} {
  const metadata = pool.spec.virtualMachineTemplate.metadata;
  return {
    labels: { ...(metadata?.labels ?? {}) },
    annotations: {
      ...(metadata?.annotations ?? {}),
      [POOL_TEMPLATE_HASH_ANNOTATION]: templateHash(pool.spec),
    },
  };
}

export function renderPoolVm(pool: Frozen<StoredVirtualMachinePool>, index: number): StoredVirtualMachine {
  return {
    apiVersion: "kubevirt.io/v1",
    kind: "VirtualMachine",
    metadata: {
      name: poolVmName(pool.metadata?.name ?? "", index),
      namespace: pool.metadata?.namespace ?? "",
      ...poolVmMetadata(pool),
      ownerReferences: [poolOwnerReference(pool)],
      finalizers: [POOL_FINALIZER],
    },
    spec: indexedVmSpec(pool.spec, index),
  };
}

/** The VM brought to the pool's current template, keeping what makes it this VM (name, owner, finalizers). */
export function updatedPoolVm(
  pool: Frozen<StoredVirtualMachinePool>,
  vm: Frozen<StoredVirtualMachine>,
  index: number,
): StoredVirtualMachine {
  const updated = mutableCopy<StoredVirtualMachine>(vm);
  updated.metadata = { ...updated.metadata, ...poolVmMetadata(pool) };
  updated.spec = indexedVmSpec(pool.spec, index);
  return updated;
}
