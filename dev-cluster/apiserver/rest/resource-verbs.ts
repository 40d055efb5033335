import type { FastifyReply, FastifyRequest } from "fastify";
import { methodNotAllowed } from "../api-error.js";
import type { ObjectService } from "../objects/object-service.js";
import type { ObjectWrites } from "../objects/object-writes.js";
import type { RequestTarget } from "../objects/request-target.js";
import type { PodLogSource } from "../pod-logs.js";
import type { ServiceAccountTokens } from "../serviceaccounts/service-account-tokens.js";
import type { EventDecoder } from "./event-decoder.js";
import { streamPodLog } from "./pod-log-stream.js";
import { bindPod } from "./pod-subresources.js";
import { getObject, listObjects } from "./read-handlers.js";
import { parseJsonBody, parseObjectBody, type RequestBody } from "./request-body.js";
import { addWarnings, sendJson } from "./responses.js";
import { getScale, patchScale, updateScale } from "./scale.js";
import { prepareWatch } from "./watch-handler.js";
import {
  decodeCreate,
  decodeDelete,
  decodeDeleteCollection,
  decodePatch,
  decodeUpdate,
  type HttpWrite,
} from "./write-decoding.js";

/** Kubernetes' request verbs on resource URLs. */
export type Verb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection";

/** What the verbs read from and write to. */
export interface VerbBackends {
  /** Reads. */
  service: ObjectService;
  /** Writes: the guard, admission and the store, each wrapping the next. */
  writes: ObjectWrites;
  decoder: EventDecoder;
  /** pods/log reads from it; without one, every container is answered as not started yet. */
  podLogs: PodLogSource | undefined;
  /** serviceaccounts/token issues tokens with it. */
  tokens: ServiceAccountTokens;
}

/** One request on a resource URL, with its body read (not yet decoded). */
export interface ResourceCall {
  target: RequestTarget;
  query: URLSearchParams;
  body: RequestBody;
  request: FastifyRequest;
  reply: FastifyReply;
}

type VerbHandler = (backends: VerbBackends, call: ResourceCall) => Promise<FastifyReply | undefined>;

function notAllowed(): never {
  throw methodNotAllowed("the server does not allow this method on the requested resource");
}

function httpWrite(call: ResourceCall): HttpWrite {
  return { target: call.target, query: call.query, body: call.body, request: call.request.raw };
}

function readRequest(call: ResourceCall) {
  return { target: call.target, query: call.query, accept: call.request.headers.accept };
}

/** GET of one object, of its status, or of its log or scale subresource. */
async function get({ service, podLogs }: VerbBackends, call: ResourceCall) {
  const { target, query, reply } = call;
  if (target.subresource === "log") return streamPodLog(service, podLogs, target, query, reply);
  if (target.subresource === "scale") return sendJson(reply, 200, getScale(service, target));
  return sendJson(reply, 200, getObject(service, readRequest(call)));
}

async function list({ service }: VerbBackends, call: ResourceCall) {
  return sendJson(call.reply, 200, listObjects(service, readRequest(call)));
}

/** Bad parameters answer before the reply is taken over for the stream. */
async function watch({ service, decoder }: VerbBackends, call: ResourceCall) {
  const stream = prepareWatch(service, decoder, readRequest(call));
  call.reply.hijack();
  stream(call.reply.raw);
  return undefined;
}

/** POST: a new object, or a pod's binding, or a service account's token. */
async function create({ service, writes, tokens }: VerbBackends, call: ResourceCall) {
  const { target, body, reply } = call;
  if (target.subresource === "binding")
    return sendJson(reply, 201, bindPod(service, target, parseJsonBody(body)));
  if (target.subresource === "token") {
    return sendJson(
      reply,
      201,
      tokens.createToken(target.namespace, target.name ?? "", parseObjectBody(body)),
    );
  }
  if (target.name !== undefined) notAllowed();
  const outcome = await writes.create(decodeCreate(httpWrite(call)));
  addWarnings(reply, outcome.warnings);
  return sendJson(reply, 201, outcome.object);
}

async function update({ service, writes }: VerbBackends, call: ResourceCall) {
  const { target, body, reply } = call;
  if (target.name === undefined) notAllowed();
  if (target.subresource === "scale")
    return sendJson(reply, 200, updateScale(service, target, parseJsonBody(body)));
  const outcome = await writes.update(decodeUpdate(httpWrite(call)));
  addWarnings(reply, outcome.warnings);
  return sendJson(reply, 200, outcome.object);
}

/** 201 when server-side apply created the object. */
async function patch({ service, writes }: VerbBackends, call: ResourceCall) {
  const { target, body, reply } = call;
  if (target.name === undefined) notAllowed();
  if (target.subresource === "scale") return sendJson(reply, 200, patchScale(service, target, body));
  const outcome = await writes.patch(decodePatch(httpWrite(call)));
  addWarnings(reply, outcome.warnings);
  return sendJson(reply, outcome.created ? 201 : 200, outcome.object);
}

async function deleteOne({ writes }: VerbBackends, call: ResourceCall) {
  if (call.target.subresource !== undefined) notAllowed();
  return sendJson(call.reply, 200, await writes.delete(decodeDelete(httpWrite(call))));
}

async function deleteCollection({ writes }: VerbBackends, call: ResourceCall) {
  return sendJson(call.reply, 200, await writes.deleteCollection(decodeDeleteCollection(httpWrite(call))));
}

/** One function per verb. */
export const VERB_HANDLERS: Record<Verb, VerbHandler> = {
  get,
  list,
  watch,
  create,
  update,
  patch,
  delete: deleteOne,
  deletecollection: deleteCollection,
};

function isWatch(query: URLSearchParams): boolean {
  return query.get("watch") === "true" || query.get("watch") === "1";
}

/** The verb of a request, as kube-apiserver's RequestInfo names it; undefined for methods resources do not serve. */
export function verbOf(method: string, target: RequestTarget, query: URLSearchParams): Verb | undefined {
  const named = target.name !== undefined;
  const verbs: Record<string, Verb> = {
    GET: named ? "get" : isWatch(query) ? "watch" : "list",
    POST: "create",
    PUT: "update",
    PATCH: "patch",
    DELETE: named ? "delete" : "deletecollection",
  };
  return verbs[method];
}
