import { ApiError, badRequest, unsupportedMediaType } from "../api-error.js";
import type { JsonObject } from "../json.js";
import { MissingMagicError, readEnvelope } from "./envelope.js";
import { messageForKind, messageNamed } from "./kind-messages.js";
import { decodeMessage } from "./message-decoder.js";
import { ProtobufDecodeError } from "./wire-reader.js";

/**
 * kubectl's typed `create` subcommands (namespace, configmap, secret, deployment, role, ...) send their
 * objects as `application/vnd.kubernetes.protobuf` and do not retry as JSON on a 415. This turns such a
 * body into the JSON object the rest of the server handles: the object kubectl would have sent as JSON.
 */

const PROTOBUF_CONTENT_TYPE = "application/vnd.kubernetes.protobuf";

function unsupportedKind(apiVersion: string, kind: string): ApiError {
  return unsupportedMediaType(
    `the server cannot decode ${apiVersion}, Kind=${kind} sent as protobuf; ` +
      "send it as JSON (for example kubectl create -f FILE or kubectl apply)",
  );
}

function decodeBody(body: Uint8Array): JsonObject {
  const envelope = readEnvelope(body);
  const { apiVersion, kind } = envelope;
  if (!apiVersion || !kind) throw badRequest("the protobuf body's envelope names no apiVersion or no kind");
  if (envelope.contentEncoding !== "") {
    throw unsupportedMediaType(
      `protobuf bodies with content encoding "${envelope.contentEncoding}" are not supported`,
    );
  }
  if (envelope.contentType !== "" && envelope.contentType !== PROTOBUF_CONTENT_TYPE) {
    throw unsupportedMediaType(`protobuf envelopes carrying "${envelope.contentType}" are not supported`);
  }
  const schema = messageForKind(apiVersion, kind);
  if (!schema) throw unsupportedKind(apiVersion, kind);
  return { kind, apiVersion, ...decodeMessage(envelope.raw, schema, messageNamed) };
}

/**
 * Decodes a Kubernetes protobuf request body (magic `k8s\0` + runtime.Unknown) into the object's JSON.
 * Throws ApiError: 415 UnsupportedMediaType for a kind it does not cover, 400 BadRequest for bytes that are
 * not a well-formed message.
 */
export function decodeKubernetesProtobuf(body: Uint8Array): JsonObject {
  try {
    return decodeBody(body);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof MissingMagicError) throw badRequest(error.message, { cause: error });
    if (error instanceof ProtobufDecodeError) {
      throw badRequest(`the protobuf body is malformed: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
