import { decodeUtf8 } from "./special-types.js";
import { ProtobufDecodeError, readWireFields, type WireField } from "./wire-reader.js";

/**
 * The envelope of a Kubernetes protobuf body: the magic bytes `k8s\0`, then a runtime.Unknown message
 * {typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3, contentType = 4} whose raw bytes
 * are the object's own message (k8s.io/apimachinery/pkg/runtime/generated.proto).
 */

export const PROTOBUF_MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export interface ProtobufEnvelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

/** The body does not start with the magic bytes, so it is no Kubernetes protobuf at all. */
export class MissingMagicError extends Error {
  constructor() {
    // The words of upstream's protobuf serializer.
    super(
      `the provided data does not appear to be a protobuf message, expected prefix [${PROTOBUF_MAGIC.join(" ")}]`,
    );
    this.name = "MissingMagicError";
  }
}

function stringField(wire: WireField, what: string): string {
  if (wire.wireType !== 2)
    throw new ProtobufDecodeError(`${what}: wire type ${wire.wireType}, want a string`);
  return decodeUtf8(wire.bytes);
}

function readTypeMeta(bytes: Uint8Array): { apiVersion: string; kind: string } {
  let apiVersion = "";
  let kind = "";
  for (const wire of readWireFields(bytes)) {
    if (wire.number === 1) apiVersion = stringField(wire, "typeMeta.apiVersion");
    if (wire.number === 2) kind = stringField(wire, "typeMeta.kind");
  }
  return { apiVersion, kind };
}

export function readEnvelope(body: Uint8Array): ProtobufEnvelope {
  if (body.length < PROTOBUF_MAGIC.length || PROTOBUF_MAGIC.some((byte, i) => body[i] !== byte)) {
    throw new MissingMagicError();
  }
  const envelope: ProtobufEnvelope = {
    apiVersion: "",
    kind: "",
    raw: new Uint8Array(),
    contentEncoding: "",
    contentType: "",
  };
  for (const wire of readWireFields(body.subarray(PROTOBUF_MAGIC.length))) {
    if (wire.number === 1) {
      if (wire.wireType !== 2)
        throw new ProtobufDecodeError(`typeMeta: wire type ${wire.wireType}, want a message`);
      Object.assign(envelope, readTypeMeta(wire.bytes));
    }
    if (wire.number === 2) {
      if (wire.wireType !== 2) throw new ProtobufDecodeError(`raw: wire type ${wire.wireType}, want bytes`);
      envelope.raw = wire.bytes;
    }
    if (wire.number === 3) envelope.contentEncoding = stringField(wire, "contentEncoding");
    if (wire.number === 4) envelope.contentType = stringField(wire, "contentType");
  }
  return envelope;
}
