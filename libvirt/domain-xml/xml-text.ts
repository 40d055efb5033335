// Text and attribute values as they are written into XML. Escaping is ours, not the builder's, for two
// reasons: a literal tab, newline or carriage return in an attribute is read back as a space (XML's
// attribute-value normalisation, which libxml2 applies), so those are written as character references;
// and a character XML 1.0 cannot carry at all (most C0 controls, U+FFFE, U+FFFF, a lone surrogate)
// must be refused, not emitted: libvirt would reject the document, or worse, read something else.

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

/**
 * Text content: markup characters (quotes too, as libvirt writes them), and a carriage return, which a
 * parser would turn into a newline.
 */
const TEXT_SPECIALS = /[&<>"'\r]/g;
/** Attribute values: everything a quoted attribute or normalisation would change. */
const ATTRIBUTE_SPECIALS = /[&<>"'\t\n\r]/g;

export function escapeXmlText(value: string): string {
  return value.replace(TEXT_SPECIALS, (special) => ENTITIES[special] ?? special);
}

export function escapeXmlAttribute(value: string): string {
  return value.replace(ATTRIBUTE_SPECIALS, (special) => ENTITIES[special] ?? special);
}

/** Whether a UTF-16 code unit is a character XML 1.0's Char production excludes (surrogates aside). */
function isForbiddenCodeUnit(code: number): boolean {
  if (code < 0x20) return code !== 0x09 && code !== 0x0a && code !== 0x0d;
  return code === 0xfffe || code === 0xffff;
}

/**
 * The first character of `value` that no XML 1.0 document can contain, as "U+0001"; undefined when
 * every character is allowed.
 */
export function forbiddenXmlCharacter(value: string): string | undefined {
  for (let position = 0; position < value.length; position++) {
    const code = value.charCodeAt(position);
    if (isForbiddenCodeUnit(code)) return codePointName(code);
    if (isHighSurrogate(code) && isLowSurrogate(value.charCodeAt(position + 1))) {
      position++;
      continue;
    }
    if (isHighSurrogate(code) || isLowSurrogate(code))
      return `an unpaired surrogate (${codePointName(code)})`;
  }
  return undefined;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function codePointName(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}
