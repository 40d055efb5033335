// virTypedParameter arrays as libvirt returns them (virDomainGetGuestInfo, …): copied into a plain
// map field → value, then freed with virTypedParamsFree. The struct is read as raw bytes because its
// value is a C union (int, uint, long long, unsigned long long, double, char, char *).
import koffi from "koffi";
import { native, type Pointer } from "./ffi.js";

/** One parameter's value: numbers for the numeric kinds (64-bit ones may lose precision past 2^53). */
export type TypedValue = number | boolean | string;
export type TypedParams = ReadonlyMap<string, TypedValue>;

/** VIR_TYPED_PARAM_FIELD_LENGTH */
const FIELD_LENGTH = 80;
/** sizeof(virTypedParameter) on LP64: 80-byte name, int type, 4 bytes padding, 8-byte union. */
const PARAM_SIZE = 96;
const TYPE_OFFSET = 80;
const VALUE_OFFSET = 88;

enum TypedParamType {
  Int = 1,
  UInt = 2,
  LLong = 3,
  ULLong = 4,
  Double = 5,
  Boolean = 6,
  String = 7,
}

function decodeValue(bytes: Buffer, offset: number): TypedValue | undefined {
  const value = offset + VALUE_OFFSET;
  switch (bytes.readInt32LE(offset + TYPE_OFFSET)) {
    case TypedParamType.Int:
      return bytes.readInt32LE(value);
    case TypedParamType.UInt:
      return bytes.readUInt32LE(value);
    case TypedParamType.LLong:
      return Number(bytes.readBigInt64LE(value));
    case TypedParamType.ULLong:
      return Number(bytes.readBigUInt64LE(value));
    case TypedParamType.Double:
      return bytes.readDoubleLE(value);
    case TypedParamType.Boolean:
      return bytes.readInt8(value) !== 0;
    case TypedParamType.String: {
      const pointer = bytes.readBigUInt64LE(value);
      return pointer === 0n ? "" : (koffi.decode(pointer, "char", -1) as string);
    }
    default:
      return undefined; // a type newer than this binding
  }
}

/**
 * Unsigned 64-bit parameters as a virTypedParameter array, for calls that take one
 * (virDomainSetSchedulerParametersFlags): the buffer is the array, to pass as a pointer.
 */
export function encodeULLongParams(params: ReadonlyMap<string, bigint>): Buffer {
  const bytes = Buffer.alloc(params.size * PARAM_SIZE);
  let offset = 0;
  for (const [name, value] of params) {
    if (Buffer.byteLength(name) >= FIELD_LENGTH) throw new Error(`typed parameter name ${name} is too long`);
    bytes.write(name, offset, "utf8");
    bytes.writeInt32LE(TypedParamType.ULLong, offset + TYPE_OFFSET);
    bytes.writeBigUInt64LE(value, offset + VALUE_OFFSET);
    offset += PARAM_SIZE;
  }
  return bytes;
}

/** Copies `count` parameters at `pointer` into a map and frees them (strings included). */
export function takeTypedParams(pointer: Pointer | null, count: number): TypedParams {
  const params = new Map<string, TypedValue>();
  if (pointer === null || count <= 0) return params;
  try {
    const raw = koffi.decode(pointer, koffi.array("uint8_t", count * PARAM_SIZE)) as ArrayLike<number>;
    const bytes = Buffer.from(Uint8Array.from(raw));
    for (let index = 0; index < count; index += 1) {
      const offset = index * PARAM_SIZE;
      const nameBytes = bytes.subarray(offset, offset + FIELD_LENGTH);
      const end = nameBytes.indexOf(0);
      const name = nameBytes.toString("utf8", 0, end < 0 ? FIELD_LENGTH : end);
      const value = decodeValue(bytes, offset);
      if (value !== undefined) params.set(name, value);
    }
    return params;
  } finally {
    native.typedParamsFree(pointer, count);
  }
}
