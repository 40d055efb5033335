import type { ResourceType } from "../resource-type.js";

/** A group-version-kind as discovery writes it; empty group and version mean "the parent's". */
export interface DiscoveryKind {
  group: string;
  version: string;
  kind: string;
}

export interface SubresourceDescription {
  name: string;
  responseKind: DiscoveryKind;
  verbs: string[];
}

interface KnownSubresource {
  /** The body kind; undefined means the parent's kind (e.g. pods/log answers about a Pod). */
  kind?: DiscoveryKind | ((parentKind: string) => string);
  verbs: string[];
}

const readWriteVerbs = ["get", "patch", "update"];
const connectVerbs = ["create", "get"];

/**
 * What upstream discovery says about the subresources Kubernetes defines. The table is about
 * subresource names, not kinds: any resource that serves `log` or `proxy` is described alike.
 */
const knownSubresources: Record<string, KnownSubresource> = {
  status: { verbs: readWriteVerbs },
  scale: { kind: { group: "autoscaling", version: "v1", kind: "Scale" }, verbs: readWriteVerbs },
  binding: { kind: { group: "", version: "", kind: "Binding" }, verbs: ["create"] },
  eviction: { kind: { group: "policy", version: "v1", kind: "Eviction" }, verbs: ["create"] },
  token: { kind: { group: "authentication.k8s.io", version: "v1", kind: "TokenRequest" }, verbs: ["create"] },
  log: { verbs: ["get"] },
  exec: { kind: (parent) => `${parent}ExecOptions`, verbs: connectVerbs },
  attach: { kind: (parent) => `${parent}AttachOptions`, verbs: connectVerbs },
  portforward: { kind: (parent) => `${parent}PortForwardOptions`, verbs: connectVerbs },
  proxy: { kind: (parent) => `${parent}ProxyOptions`, verbs: ["create", "delete", "get", "patch", "update"] },
  ephemeralcontainers: { verbs: readWriteVerbs },
  resize: { verbs: readWriteVerbs },
  approval: { verbs: readWriteVerbs },
  finalize: { verbs: ["update"] },
};

/** Unknown subresources are described as readable views of the parent. */
const unknownSubresource: KnownSubresource = { verbs: ["get"] };

function describe(type: ResourceType, name: string): SubresourceDescription {
  const known = knownSubresources[name] ?? unknownSubresource;
  const sameGroupVersion = (kind: string): DiscoveryKind => ({ group: "", version: "", kind });
  let responseKind: DiscoveryKind;
  if (known.kind === undefined) responseKind = sameGroupVersion(type.kind);
  else if (typeof known.kind === "function") responseKind = sameGroupVersion(known.kind(type.kind));
  else responseKind = { ...known.kind };
  return { name, responseKind, verbs: [...known.verbs] };
}

/** The subresources a resource serves, sorted by name as upstream discovery lists them. */
export function subresourcesOf(type: ResourceType): SubresourceDescription[] {
  const names = new Set(type.otherSubresources);
  if (type.statusSubresource) names.add("status");
  if (type.scaleSubresource) names.add("scale");
  return [...names].sort().map((name) => describe(type, name));
}
