import type { FastifyRequest } from "fastify";
import { badRequest } from "../api-error.js";
import type { JsonValue } from "../json.js";
import { decodeKubernetesProtobuf } from "../protobuf/decode-kubernetes-protobuf.js";

/** A request's body as it arrived, read once; the verb decides how to decode it. */
export interface RequestBody {
  contentType: string | undefined;
  /** The bytes, for protobuf-encoded objects. */
  bytes: Buffer;
  /** The bytes as text (JSON, or YAML for apply patches). */
  text: string;
}

const PROTOBUF = "application/vnd.kubernetes.protobuf";

export function readRequestBody(request: FastifyRequest): RequestBody {
  const body = request.body;
  const bytes =
    body === undefined || body === null
      ? Buffer.alloc(0)
      : Buffer.isBuffer(body)
        ? body
        : Buffer.from(String(body));
  return { contentType: request.headers["content-type"], bytes, text: bytes.toString("utf8") };
}

export function parseJsonBody(body: RequestBody): JsonValue {
  if (body.text.trim() === "") throw badRequest("the request body is empty");
  try {
    return JSON.parse(body.text) as JsonValue;
  } catch (error) {
    throw badRequest(
      `the request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** A body that may be left out (DeleteOptions): undefined when empty. */
export function parseOptionalJsonBody(body: RequestBody): JsonValue | undefined {
  return body.text.trim() === "" ? undefined : parseJsonBody(body);
}

/** kubectl's typed clients (`create namespace`, `create token`, `auth can-i`) send protobuf; others JSON. */
export function parseObjectBody(body: RequestBody): JsonValue {
  const mediaType = (body.contentType ?? "").split(";")[0]?.trim();
  if (mediaType === PROTOBUF) return decodeKubernetesProtobuf(body.bytes);
  return parseJsonBody(body);
}
