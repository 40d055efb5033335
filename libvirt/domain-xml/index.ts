// libvirt's domain XML as a typed model: domainToXml() writes it, domainFromXml() reads it (see README.md
// for what is covered and how unknown XML is treated).
export * from "./device-types.js";
export * from "./domain-types.js";
export { enumValues } from "./enum-values.js";
export { diskToXml } from "./format-devices.js";
export { domainToXml, domainToXmlElement, QEMU_NAMESPACE } from "./format-domain.js";
export { findMetadata, metadataChildText, metadataElement } from "./metadata.js";
export { domainFromXml, domainFromXmlElement } from "./parse-domain.js";
export {
  DomainXmlError,
  elementNamespace,
  localName,
  parseXmlDocument,
  serializeXmlElement,
  textElement,
  type XmlElement,
  type XmlNode,
  xmlElement,
} from "./xml-element.js";
