// A small generic XML tree, converted to and from text with fast-xml-parser (in its order-preserving
// mode). The domain model is mapped onto this tree; `<metadata>` content stays in it as is.
// Comments, processing instructions and the XML declaration are dropped; text is trimmed.
import { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";
import { escapeXmlAttribute, escapeXmlText, forbiddenXmlCharacter } from "./xml-text.js";

export interface XmlElement {
  /** The tag name as written, with its prefix if any ("kubevirt:uid"). */
  name: string;
  attributes?: Record<string, string>;
  /** Child elements and text, in document order. */
  children?: XmlNode[];
}

/** An element, or a run of text. */
export type XmlNode = XmlElement | string;

/** Malformed XML, or XML that does not fit the domain model; `path` says where ("domain/devices/disk[1]"). */
export class DomainXmlError extends Error {
  constructor(
    message: string,
    readonly path: string,
    options?: ErrorOptions,
  ) {
    super(path ? `${path}: ${message}` : message, options);
    this.name = "DomainXmlError";
  }
}

// fast-xml-parser's preserveOrder shape: [{ tag: [children…], ":@": { attr: value } }, { "#text": "…" }].
type OrderedNode = Record<string, unknown>;
const ATTRIBUTES = ":@";
const TEXT = "#text";

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  htmlEntities: true, // also decodes character references (&#10;)
});

// Values reach the builder already escaped (xml-text.ts): its own escaping would leave tabs and
// newlines in attributes to be normalised away.
const builder = new XMLBuilder({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  format: true,
  indentBy: "  ",
  suppressEmptyNode: true,
  processEntities: false,
});

function fromOrdered(node: OrderedNode): XmlNode | undefined {
  const tag = Object.keys(node).find((key) => key !== ATTRIBUTES);
  if (tag === undefined) return undefined;
  if (tag === TEXT) return String(node[TEXT]);
  const element: XmlElement = { name: tag };
  const attributes = node[ATTRIBUTES] as Record<string, unknown> | undefined;
  if (attributes) {
    element.attributes = Object.fromEntries(
      Object.entries(attributes).map(([key, value]) => [key, String(value)]),
    );
  }
  const children = (node[tag] as OrderedNode[])
    .map(fromOrdered)
    .filter((child): child is XmlNode => child !== undefined);
  if (children.length > 0) element.children = children;
  return element;
}

/** A value as written, escaped; refuses characters XML 1.0 cannot carry, naming where the value was. */
function writtenValue(value: string, path: string, escaped: (value: string) => string): string {
  const forbidden = forbiddenXmlCharacter(value);
  if (forbidden !== undefined) {
    throw new DomainXmlError(`contains ${forbidden}, which an XML 1.0 document cannot carry`, path);
  }
  return escaped(value);
}

function toOrdered(node: XmlNode, parentPath: string): OrderedNode {
  if (typeof node === "string") return { [TEXT]: writtenValue(node, parentPath, escapeXmlText) };
  const path = parentPath === "" ? node.name : `${parentPath}/${node.name}`;
  const ordered: OrderedNode = { [node.name]: (node.children ?? []).map((child) => toOrdered(child, path)) };
  const attributes = Object.entries(node.attributes ?? {});
  if (attributes.length > 0) {
    ordered[ATTRIBUTES] = Object.fromEntries(
      attributes.map(([key, value]) => [key, writtenValue(value, `${path}/@${key}`, escapeXmlAttribute)]),
    );
  }
  return ordered;
}

/** Parses a document and returns its root element. */
export function parseXmlDocument(xml: string): XmlElement {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new DomainXmlError(
      `malformed XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}`,
      "",
    );
  }
  const roots = (parser.parse(xml) as OrderedNode[]).map(fromOrdered);
  const elements = roots.filter((node): node is XmlElement => typeof node === "object");
  const root = elements[0];
  if (!root || elements.length !== 1) throw new DomainXmlError("expected exactly one root element", "");
  return root;
}

/**
 * Writes an element as an indented XML document (no declaration, as libvirt writes it). Every text
 * and attribute value is escaped; one with a character XML cannot carry throws a DomainXmlError.
 */
export function serializeXmlElement(element: XmlElement): string {
  return `${(builder.build([toOrdered(element, "")]) as string).trim()}\n`;
}

/**
 * Builds an element, leaving out attributes whose value is undefined and children that are undefined, so
 * optional model fields map to optional XML without conditionals at every call site.
 */
export function xmlElement(
  name: string,
  attributes: Record<string, string | number | undefined> = {},
  children: ReadonlyArray<XmlNode | undefined> = [],
): XmlElement {
  const element: XmlElement = { name };
  const present = Object.entries(attributes).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined,
  );
  if (present.length > 0)
    element.attributes = Object.fromEntries(present.map(([key, value]) => [key, String(value)]));
  const kept = children.filter((child): child is XmlNode => child !== undefined);
  if (kept.length > 0) element.children = kept;
  return element;
}

/** An element holding only text (`<name>vm1</name>`), or undefined when the text is. */
export function textElement(name: string, text: string | number | undefined): XmlElement | undefined {
  return text === undefined ? undefined : { name, children: [String(text)] };
}

/** The namespace URI an element is in, from its own `xmlns`/`xmlns:prefix` or the given outer declarations. */
export function elementNamespace(
  element: XmlElement,
  outer: Record<string, string> = {},
): string | undefined {
  const colon = element.name.indexOf(":");
  const declaration = colon < 0 ? "xmlns" : `xmlns:${element.name.slice(0, colon)}`;
  return element.attributes?.[declaration] ?? outer[declaration];
}

/** The element's name without its namespace prefix. */
export function localName(element: XmlElement): string {
  return element.name.slice(element.name.indexOf(":") + 1);
}
