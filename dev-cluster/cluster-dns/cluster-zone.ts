import { isIPv4 } from "node:net";
import type { Frozen } from "../../runtime/index.js";
import type { Service as StoredService, EndpointSlice as StoredSlice } from "../controllers/kinds.js";

type Service = Frozen<StoredService>;
type EndpointSlice = Frozen<StoredSlice>;

import {
  type DnsAnswer,
  type DnsQuestion,
  RecordType,
  type ResourceRecord,
  ResponseCode,
} from "./dns-message.js";

/** What the zone is built from: the API's Services and EndpointSlices, as an informer holds them. */
export interface ZoneSources {
  service(namespace: string, name: string): Service | undefined;
  endpointSlices(namespace: string, serviceName: string): readonly EndpointSlice[];
}

/** CoreDNS's kubernetes plugin answers with a 5 s TTL: records follow the cluster quickly. */
const TTL = 5;

/** An address of a Service's endpoints, with the hostname its pod claims (hostname + subdomain). */
interface EndpointAddress {
  ip: string;
  hostname?: string;
}

/**
 * The cluster's DNS zone as Kubernetes' DNS specification defines it, answered from the API
 * objects at query time (no copy to keep in step):
 * - `SVC.NS.svc.ZONE`: A of the ClusterIP; for a headless Service, A of each ready endpoint
 *   (every endpoint with `publishNotReadyAddresses`); CNAME for an ExternalName Service;
 * - `HOSTNAME.SVC.NS.svc.ZONE`: A of the endpoint whose pod named itself so (a pod's or a VMI's
 *   `hostname` under the `subdomain` of a headless Service);
 * - `_PORT._PROTO.SVC.NS.svc.ZONE`: SRV of a named port;
 * - `A-B-C-D.NS.pod.ZONE`: A of the address the name spells (CoreDNS's `pods insecure`).
 * A name of the zone that exists without a record of the asked type is NODATA; an unknown one
 * NXDOMAIN, both with the zone's SOA. Names outside the zone are NXDOMAIN too (without an SOA:
 * they are not the zone's): nothing is forwarded off the machine.
 */
export class ClusterZone {
  readonly #domain: string;
  readonly #sources: ZoneSources;

  constructor(domain: string, sources: ZoneSources) {
    this.#domain = domain.toLowerCase().replace(/\.$/, "");
    this.#sources = sources;
  }

  answer(question: DnsQuestion): DnsAnswer {
    const suffix = `.${this.#domain}`;
    if (question.name !== this.#domain && !question.name.endsWith(suffix)) {
      // Nothing is forwarded off the machine: a name outside the zone does not exist here. Not
      // REFUSED, which makes resolvers stop walking their search path ("svc.ns" must go on to
      // "svc.ns.svc.cluster.local").
      return { code: ResponseCode.NXDOMAIN, answers: [], authority: [] };
    }
    const labels = question.name === this.#domain ? [] : question.name.slice(0, -suffix.length).split(".");
    const records = this.#records(labels, question.name);
    if (records === undefined) return { code: ResponseCode.NXDOMAIN, answers: [], authority: [this.#soa()] };
    const cname = records.filter((record) => record.data.type === RecordType.CNAME);
    const wanted =
      cname.length > 0
        ? cname
        : records.filter((record) => question.type === RecordType.ANY || record.data.type === question.type);
    return { code: ResponseCode.NOERROR, answers: wanted, authority: wanted.length > 0 ? [] : [this.#soa()] };
  }

  /** Every record of the name, or undefined when the name does not exist in the zone. */
  #records(labels: readonly string[], name: string): ResourceRecord[] | undefined {
    const [first, second, third, fourth, fifth] = labels;
    if (labels.length === 0 || (labels.length === 1 && (first === "svc" || first === "pod"))) return [];
    if (labels.length === 2 && (second === "svc" || second === "pod")) return [];
    if (labels.length === 3 && third === "pod" && first && second) return podRecords(first, name);
    if (labels.length === 3 && third === "svc" && first && second)
      return this.#serviceRecords(second, first, name);
    if (labels.length === 4 && fourth === "svc" && first && second && third) {
      return this.#hostnameRecords(third, second, first, name);
    }
    if (
      labels.length === 5 &&
      fifth === "svc" &&
      first?.startsWith("_") &&
      second?.startsWith("_") &&
      third &&
      fourth
    ) {
      return this.#srvRecords(fourth, third, first.slice(1), second.slice(1), name);
    }
    return undefined;
  }

  #serviceRecords(namespace: string, serviceName: string, name: string): ResourceRecord[] | undefined {
    const service = this.#sources.service(namespace, serviceName);
    if (!service?.spec) return undefined;
    if (service.spec.type === "ExternalName" && service.spec.externalName) {
      return [
        {
          name,
          ttl: TTL,
          data: { type: RecordType.CNAME, target: service.spec.externalName.replace(/\.$/, "") },
        },
      ];
    }
    const clusterIP = service.spec.clusterIP;
    const addresses =
      clusterIP && clusterIP !== "None"
        ? [clusterIP]
        : this.#endpointAddresses(service).map((address) => address.ip);
    return [...new Set(addresses)].map((address) => ({
      name,
      ttl: TTL,
      data: { type: RecordType.A, address },
    }));
  }

  #hostnameRecords(
    namespace: string,
    serviceName: string,
    hostname: string,
    name: string,
  ): ResourceRecord[] | undefined {
    const service = this.#sources.service(namespace, serviceName);
    if (!service) return undefined;
    const addresses = this.#endpointAddresses(service).filter((address) => address.hostname === hostname);
    if (addresses.length === 0) return undefined;
    return addresses.map(({ ip }) => ({ name, ttl: TTL, data: { type: RecordType.A, address: ip } }));
  }

  #srvRecords(
    namespace: string,
    serviceName: string,
    portName: string,
    protocol: string,
    name: string,
  ): ResourceRecord[] | undefined {
    const service = this.#sources.service(namespace, serviceName);
    const port = service?.spec?.ports?.find(
      (candidate) => candidate.name === portName && (candidate.protocol ?? "TCP").toLowerCase() === protocol,
    );
    if (!service?.spec || !port) return undefined;
    const serviceHost = `${serviceName}.${namespace}.svc.${this.#domain}`;
    const headless = !service.spec.clusterIP || service.spec.clusterIP === "None";
    const targets = headless
      ? this.#endpointAddresses(service).map(({ ip, hostname }) =>
          hostname ? `${hostname}.${serviceHost}` : `${ip.replaceAll(".", "-")}.${serviceHost}`,
        )
      : [serviceHost];
    return [...new Set(targets)].map((target) => ({
      name,
      ttl: TTL,
      data: { type: RecordType.SRV, priority: 0, weight: 100, port: port.port, target },
    }));
  }

  #endpointAddresses(service: Service): EndpointAddress[] {
    const namespace = service.metadata?.namespace ?? "";
    const name = service.metadata?.name ?? "";
    const includeNotReady = service.spec?.publishNotReadyAddresses === true;
    const found: EndpointAddress[] = [];
    for (const slice of this.#sources.endpointSlices(namespace, name)) {
      if (slice.addressType !== "IPv4") continue;
      for (const endpoint of slice.endpoints ?? []) {
        if (!includeNotReady && endpoint.conditions?.ready === false) continue;
        for (const ip of endpoint.addresses ?? []) {
          // Slices are written by namespace users too: only an address an A record can carry.
          if (!isIPv4(ip)) continue;
          found.push({ ip, ...(endpoint.hostname ? { hostname: endpoint.hostname.toLowerCase() } : {}) });
        }
      }
    }
    return found;
  }

  #soa(): ResourceRecord {
    return {
      name: this.#domain,
      ttl: TTL,
      data: {
        type: RecordType.SOA,
        primary: `ns.dns.${this.#domain}`,
        mailbox: `hostmaster.${this.#domain}`,
        serial: 1,
        refresh: 7200,
        retry: 1800,
        expire: 86400,
        minimum: TTL,
      },
    };
  }
}

/** `10-244-0-5` names 10.244.0.5; anything else does not exist. */
function podRecords(label: string, name: string): ResourceRecord[] | undefined {
  const octets = label.split("-");
  if (octets.length !== 4 || octets.some((octet) => !/^\d{1,3}$/.test(octet) || Number(octet) > 255)) {
    return undefined;
  }
  return [{ name, ttl: TTL, data: { type: RecordType.A, address: octets.map(Number).join(".") } }];
}
