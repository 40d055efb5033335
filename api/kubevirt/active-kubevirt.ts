/**
 * Which KubeVirt CR configures the components of a namespace. One rule, KubeVirt's own
 * (`GetConfigFromKubeVirtCR` in pkg/virt-config): a CR being deleted configures nothing, so from
 * the moment it is deleted its components fall back to KubeVirt's defaults, not to a
 * configuration that is on its way out. KubeVirt runs one CR per install; if someone created
 * more, the oldest counts (virt-operator refuses the others).
 */

/** What the choice reads of a KubeVirt CR: its metadata only, so any copy of one (frozen or not) fits. */
export interface KubeVirtIdentity {
  readonly metadata?:
    | {
        readonly name?: string | undefined;
        readonly namespace?: string | undefined;
        readonly creationTimestamp?: string | null | undefined;
        readonly deletionTimestamp?: string | null | undefined;
      }
    | undefined;
}

/** The CR that configures `namespace`, or undefined when there is none (KubeVirt's defaults apply). */
export function activeKubeVirt<K extends KubeVirtIdentity>(
  kubevirts: readonly K[],
  namespace: string,
): K | undefined {
  return kubevirts
    .filter((kubevirt) => kubevirt.metadata?.namespace === namespace && !isBeingDeleted(kubevirt))
    .sort(byKubeVirtAge)[0];
}

function isBeingDeleted(kubevirt: KubeVirtIdentity): boolean {
  return Boolean(kubevirt.metadata?.deletionTimestamp);
}

/**
 * Oldest first: by creationTimestamp, then by name (two CRs created in the same second). A CR
 * not yet stamped (never one from a real server) comes last.
 */
export function byKubeVirtAge(left: KubeVirtIdentity, right: KubeVirtIdentity): number {
  const created = creationMs(left) - creationMs(right);
  if (created !== 0) return created;
  const leftName = left.metadata?.name ?? "";
  const rightName = right.metadata?.name ?? "";
  return leftName < rightName ? -1 : leftName > rightName ? 1 : 0;
}

function creationMs(kubevirt: KubeVirtIdentity): number {
  const parsed = Date.parse(kubevirt.metadata?.creationTimestamp ?? "");
  return Number.isNaN(parsed) ? Number.MAX_SAFE_INTEGER : parsed;
}
