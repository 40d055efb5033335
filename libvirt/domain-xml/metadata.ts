// Application metadata in `<metadata>`: each application owns one element in its own XML namespace,
// which libvirt stores and returns untouched (virDomainSetMetadata rewrites it to a prefixed form; both
// forms are understood here).
import type { DomainDefinition } from "./domain-types.js";
import { elementNamespace, localName, type XmlElement, type XmlNode } from "./xml-element.js";

/** `<name xmlns="namespaceUri">children</name>`: the element and its unprefixed children are in the namespace. */
export function metadataElement(namespaceUri: string, name: string, children: XmlNode[] = []): XmlElement {
  const element: XmlElement = { name, attributes: { xmlns: namespaceUri } };
  if (children.length > 0) element.children = children;
  return element;
}

/** The domain's metadata element in this namespace, if any. */
export function findMetadata(domain: DomainDefinition, namespaceUri: string): XmlElement | undefined {
  return domain.metadata?.find((element) => elementNamespace(element) === namespaceUri);
}

/** The text of the first child with this local name (`uid` matches `<uid>` and `<kv:uid>`). */
export function metadataChildText(element: XmlElement, childName: string): string | undefined {
  const child = element.children?.find(
    (node): node is XmlElement => typeof node === "object" && localName(node) === childName,
  );
  const texts = child?.children?.filter((node): node is string => typeof node === "string");
  return texts && texts.length > 0 ? texts.join("") : undefined;
}
