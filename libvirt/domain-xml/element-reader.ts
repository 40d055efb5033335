// Reads an XmlElement with typed conversions; every failure names the path of the offending element or
// attribute, so a surprising libvirt document says exactly what did not fit.
import { DomainXmlError, type XmlElement } from "./xml-element.js";

export class ElementReader {
  constructor(
    readonly element: XmlElement,
    readonly path: string,
  ) {}

  /** The first child element with this name. */
  child(name: string): ElementReader | undefined {
    const index = (this.element.children ?? []).findIndex(
      (node) => typeof node === "object" && node.name === name,
    );
    const found = this.element.children?.[index];
    return typeof found === "object" ? new ElementReader(found, `${this.path}/${name}`) : undefined;
  }

  requiredChild(name: string): ElementReader {
    const found = this.child(name);
    if (!found) throw new DomainXmlError(`<${name}> is missing`, this.path);
    return found;
  }

  /** All child elements with this name, in order. */
  children(name: string): ElementReader[] {
    const matching = (this.element.children ?? []).filter(
      (node): node is XmlElement => typeof node === "object" && node.name === name,
    );
    return matching.map((element, index) => new ElementReader(element, `${this.path}/${name}[${index}]`));
  }

  /** All child elements, whatever their names. */
  elements(): XmlElement[] {
    return (this.element.children ?? []).filter((node): node is XmlElement => typeof node === "object");
  }

  has(name: string): boolean {
    return this.child(name) !== undefined;
  }

  attribute(name: string): string | undefined {
    return this.element.attributes?.[name];
  }

  requiredAttribute(name: string): string {
    const value = this.attribute(name);
    if (value === undefined) throw new DomainXmlError(`attribute ${name} is missing`, this.path);
    return value;
  }

  /** The element's text (its text children joined), or undefined when it has none. */
  text(): string | undefined {
    const texts = (this.element.children ?? []).filter((node): node is string => typeof node === "string");
    return texts.length > 0 ? texts.join("") : undefined;
  }

  requiredText(): string {
    const text = this.text();
    if (text === undefined) throw new DomainXmlError("text is missing", this.path);
    return text;
  }

  /** The text of a child element (`<name>x</name>` → "x"). */
  childText(name: string): string | undefined {
    return this.child(name)?.text();
  }

  integerAttribute(name: string): number | undefined {
    return parseInteger(this.attribute(name), `${this.path}/@${name}`);
  }

  /** yes/no or on/off. */
  booleanAttribute(name: string): boolean | undefined {
    return parseBoolean(this.attribute(name), `${this.path}/@${name}`);
  }

  /** An attribute whose value must be one of `allowed`. */
  enumAttribute<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    return parseEnum(this.attribute(name), allowed, `${this.path}/@${name}`);
  }

  requiredEnumAttribute<T extends string>(name: string, allowed: readonly T[]): T {
    const value = this.enumAttribute(name, allowed);
    if (value === undefined) throw new DomainXmlError(`attribute ${name} is missing`, this.path);
    return value;
  }
}

export function parseInteger(value: string | undefined, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new DomainXmlError(`"${value}" is not an integer`, path);
  return Number(value.trim());
}

export function parseBoolean(value: string | undefined, path: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "yes" || value === "on") return true;
  if (value === "no" || value === "off") return false;
  throw new DomainXmlError(`"${value}" is not yes/no or on/off`, path);
}

export function parseEnum<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  path: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new DomainXmlError(`"${value}" is not one of ${allowed.join(", ")}`, path);
  }
  return value as T;
}

/** "yes"/"no" for a boolean attribute; undefined stays undefined. */
export function yesNo(value: boolean | undefined): string | undefined {
  return value === undefined ? undefined : value ? "yes" : "no";
}

/** "on"/"off" for a boolean attribute; undefined stays undefined. */
export function onOff(value: boolean | undefined): string | undefined {
  return value === undefined ? undefined : value ? "on" : "off";
}

/** Drops the keys whose value is undefined, so parsed objects compare equal to hand-written ones. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

/** undefined for an empty list, so absent elements and empty lists read back the same. */
export function nonEmpty<T>(items: T[]): T[] | undefined {
  return items.length > 0 ? items : undefined;
}
