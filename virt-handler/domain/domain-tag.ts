// The handler's own mark on the domains it defines: the node it defined them for. The converter
// records which VMI a domain belongs to; this records whose domain it is, so that two handlers
// sharing one libvirt (tests, or nodes simulated on one machine) never adopt or remove each
// other's domains.
import {
  type DomainDefinition,
  findMetadata,
  metadataChildText,
  metadataElement,
  type XmlElement,
} from "../../libvirt/domain-xml/index.js";

export const HANDLER_METADATA_NAMESPACE = "http://kubevirt-ts.io/virt-handler/v1";

export function handlerTag(nodeName: string): XmlElement {
  return metadataElement(HANDLER_METADATA_NAMESPACE, "handler", [{ name: "node", children: [nodeName] }]);
}

/** The definition with the handler's tag added (replacing an older one). */
export function withHandlerTag(definition: DomainDefinition, nodeName: string): DomainDefinition {
  const others = (definition.metadata ?? []).filter(
    (element) => element !== findMetadata(definition, HANDLER_METADATA_NAMESPACE),
  );
  return { ...definition, metadata: [...others, handlerTag(nodeName)] };
}

/** The node whose handler defined the domain, or undefined when no handler did. */
export function taggedNode(definition: DomainDefinition): string | undefined {
  const tag = findMetadata(definition, HANDLER_METADATA_NAMESPACE);
  return tag === undefined ? undefined : metadataChildText(tag, "node");
}

/** "namespace_name" (KubeVirt's domain name) → the VMI's key "namespace/name"; undefined for other names. */
export function vmiKeyOfDomainName(domainName: string): string | undefined {
  const separator = domainName.indexOf("_");
  if (separator <= 0 || separator === domainName.length - 1) return undefined;
  return `${domainName.slice(0, separator)}/${domainName.slice(separator + 1)}`;
}
