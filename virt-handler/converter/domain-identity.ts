// How a domain says which VMI it belongs to: its name ("<namespace>_<name>", as KubeVirt names domains)
// and a `<kubevirt xmlns="http://kubevirt.io">` metadata element with the VMI's uid, name and namespace,
// which virt-handler reads back to adopt its domains after a restart.
import {
  type DomainDefinition,
  findMetadata,
  metadataChildText,
  metadataElement,
} from "../../libvirt/domain-xml/index.js";
import type { Configurator } from "./configurator.js";
import { VmiConversionError } from "./conversion-error.js";

export const KUBEVIRT_METADATA_NAMESPACE = "http://kubevirt.io";
export const KUBEVIRT_METADATA_ELEMENT = "kubevirt";

export function domainNameOf(vmi: { metadata: { namespace?: string; name?: string } }): string {
  const { name, namespace } = vmi.metadata;
  if (!name) throw new VmiConversionError("InvalidSpec", "the VMI has no metadata.name");
  return `${namespace || "default"}_${name}`;
}

/** The VMI a domain belongs to, from its metadata; undefined for domains that are not ours. */
export function vmiUidFromDomain(
  domain: DomainDefinition,
): { uid: string; namespace: string; name: string } | undefined {
  const element = findMetadata(domain, KUBEVIRT_METADATA_NAMESPACE);
  if (element === undefined) return undefined;
  const uid = metadataChildText(element, "uid");
  const name = metadataChildText(element, "name");
  const namespace = metadataChildText(element, "namespace");
  if (!uid || !name || !namespace) return undefined;
  return { uid, name, namespace };
}

/** The VMI's identity and its grace period (KubeVirt keeps `graceperiod` there too). */
export const configureMetadata: Configurator = (domain, { identity, spec }) => {
  const gracePeriod = spec.terminationGracePeriodSeconds ?? 30;
  domain.metadata = [
    metadataElement(KUBEVIRT_METADATA_NAMESPACE, KUBEVIRT_METADATA_ELEMENT, [
      { name: "uid", children: [identity.uid] },
      { name: "name", children: [identity.name] },
      { name: "namespace", children: [identity.namespace] },
      {
        name: "graceperiod",
        children: [{ name: "deletionGracePeriodSeconds", children: [String(gracePeriod)] }],
      },
    ]),
  ];
};
