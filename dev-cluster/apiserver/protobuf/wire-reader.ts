/**
 * A reader of the protobuf wire format (https://protobuf.dev/programming-guides/encoding/): the few
 * primitives needed to walk a message field by field. Every length is checked against the bytes left, so
 * hostile input ends in a ProtobufDecodeError, never in an out-of-range read or an endless loop.
 */

/** The body is not a well-formed protobuf message (or not one this server can turn into JSON). */
export class ProtobufDecodeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ProtobufDecodeError";
  }
}

export const WireType = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

/** One field as it appears on the wire; its value is interpreted later, by the message's schema. */
export type WireField =
  | { number: number; wireType: 0; varint: bigint }
  | { number: number; wireType: 1; fixed64: bigint }
  | { number: number; wireType: 2; bytes: Uint8Array }
  | { number: number; wireType: 5; fixed32: number };

/** A varint never takes more than 10 bytes (64 bits at 7 bits a byte). */
const MAX_VARINT_BYTES = 10;
/** Field numbers are 29-bit. */
const MAX_FIELD_NUMBER = 2 ** 29 - 1;

export interface VarintRead {
  value: bigint;
  /** The offset just after the varint. */
  next: number;
}

/** Reads an unsigned varint at `offset`; bits past the 64th are dropped, as Go's decoders do. */
export function readVarint(bytes: Uint8Array, offset: number): VarintRead {
  let value = 0n;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    const byte = bytes[offset + i];
    if (byte === undefined) throw new ProtobufDecodeError(`truncated varint at byte ${offset}`);
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if (byte < 0x80) return { value: BigInt.asUintN(64, value), next: offset + i + 1 };
  }
  throw new ProtobufDecodeError(`varint longer than ${MAX_VARINT_BYTES} bytes at byte ${offset}`);
}

function readFixed(bytes: Uint8Array, offset: number, size: 4 | 8): bigint {
  if (offset + size > bytes.length)
    throw new ProtobufDecodeError(`truncated fixed${size * 8} at byte ${offset}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, size);
  return size === 4 ? BigInt(view.getUint32(0, true)) : view.getBigUint64(0, true);
}

function readKey(bytes: Uint8Array, offset: number): { number: number; wireType: number; next: number } {
  const { value, next } = readVarint(bytes, offset);
  const number = value >> 3n;
  if (number < 1n || number > BigInt(MAX_FIELD_NUMBER)) {
    throw new ProtobufDecodeError(`invalid field number ${number} at byte ${offset}`);
  }
  return { number: Number(number), wireType: Number(value & 7n), next };
}

function readField(bytes: Uint8Array, offset: number): { field: WireField; next: number } {
  const key = readKey(bytes, offset);
  const { number } = key;
  switch (key.wireType) {
    case WireType.varint: {
      const { value, next } = readVarint(bytes, key.next);
      return { field: { number, wireType: 0, varint: value }, next };
    }
    case WireType.fixed64:
      return { field: { number, wireType: 1, fixed64: readFixed(bytes, key.next, 8) }, next: key.next + 8 };
    case WireType.fixed32:
      return {
        field: { number, wireType: 5, fixed32: Number(readFixed(bytes, key.next, 4)) },
        next: key.next + 4,
      };
    case WireType.lengthDelimited: {
      const { value: length, next: start } = readVarint(bytes, key.next);
      if (length > BigInt(bytes.length - start)) {
        throw new ProtobufDecodeError(
          `field ${number} claims ${length} bytes at byte ${start} but only ${bytes.length - start} remain`,
        );
      }
      const end = start + Number(length);
      return { field: { number, wireType: 2, bytes: bytes.subarray(start, end) }, next: end };
    }
    default:
      // 3 and 4 are the deprecated groups, which no Kubernetes message uses; 6 and 7 do not exist.
      throw new ProtobufDecodeError(
        `unsupported wire type ${key.wireType} for field ${number} at byte ${offset}`,
      );
  }
}

/** The fields of one message in wire order; every field advances by at least one byte, so this ends. */
export function* readWireFields(bytes: Uint8Array): Generator<WireField> {
  let offset = 0;
  while (offset < bytes.length) {
    const { field, next } = readField(bytes, offset);
    offset = next;
    yield field;
  }
}

/** The varints of a packed repeated field (proto3 style; Go's proto2 decoders accept it too). */
export function readPackedVarints(bytes: Uint8Array): bigint[] {
  const values: bigint[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const { value, next } = readVarint(bytes, offset);
    values.push(value);
    offset = next;
  }
  return values;
}
