/** A minimal protobuf writer for the tests: builds the bodies whose decoding they check. */

export function varint(value: number | bigint): Uint8Array {
  let rest = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    bytes.push(rest > 0n ? low | 0x80 : low);
  } while (rest > 0n);
  return Uint8Array.from(bytes);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A varint field (int32, int64, bool, enum). */
export function varintField(number: number, value: number | bigint | boolean): Uint8Array {
  return concat(varint(number << 3), varint(typeof value === "boolean" ? Number(value) : value));
}

/** A length-delimited field: a string, bytes or an embedded message. */
export function bytesField(number: number, payload: Uint8Array | string): Uint8Array {
  const bytes = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
  return concat(varint((number << 3) | 2), varint(bytes.length), bytes);
}

export function messageField(number: number, ...fields: Uint8Array[]): Uint8Array {
  return bytesField(number, concat(...fields));
}

/** A map<string, string> entry as upstream writes it. */
export function mapEntry(number: number, key: string, value: string): Uint8Array {
  return messageField(number, bytesField(1, key), bytesField(2, value));
}

/** A whole request body: magic, then runtime.Unknown around the object's message. */
export function kubernetesBody(
  apiVersion: string,
  kind: string,
  raw: Uint8Array,
  ...extra: Uint8Array[]
): Uint8Array {
  const typeMeta = messageField(1, bytesField(1, apiVersion), bytesField(2, kind));
  return concat(Uint8Array.of(0x6b, 0x38, 0x73, 0x00), typeMeta, bytesField(2, raw), ...extra);
}
