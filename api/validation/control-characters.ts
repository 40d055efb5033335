/**
 * The first control character (C0, DEL or C1) in `value`, as "U+000A"; undefined when it has none.
 * Free text that ends up in a QEMU argument or the domain XML (a kernel command line, an SMBIOS
 * serial) has no use for them, and XML 1.0 cannot carry most of them at all.
 */
export function firstControlCharacter(value: string): string | undefined {
  for (const character of value) {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    }
  }
  return undefined;
}
