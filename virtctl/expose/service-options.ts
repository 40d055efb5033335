/**
 * `virtctl expose`'s Service flags, checked and converted as KubeVirt's virtctl does
 * (pkg/virtctl/expose/expose.go `parseFlags`): values are case-insensitive, refusals carry
 * KubeVirt's words (scripts match them) followed by what to pass instead. Checked before any
 * request, so a typo costs no round trip.
 */
import { CliError } from "../errors/cli-error.js";

export type ServiceProtocol = "TCP" | "UDP";
export type ExposedServiceType = "ClusterIP" | "NodePort" | "LoadBalancer";
export type IpFamily = "IPv4" | "IPv6";
export type IpFamilyPolicy = "SingleStack" | "PreferDualStack" | "RequireDualStack";

/** The flags as commander hands them over. */
export interface ServiceFlags {
  readonly name: string;
  readonly port?: number;
  readonly targetPort?: string;
  readonly protocol: string;
  readonly type: string;
  readonly portName?: string;
  readonly clusterIp?: string;
  readonly externalIp?: string;
  readonly ipFamily?: string;
  readonly ipFamilyPolicy?: string;
}

export interface ServiceOptions {
  readonly serviceName: string;
  /** The one port `--port` asks for; without it the exposed object's interface ports are used. */
  readonly port?: ExplicitPort;
  readonly type: ExposedServiceType;
  /** `None`: a headless Service. */
  readonly clusterIp?: string;
  readonly externalIp?: string;
  readonly ipFamilies: readonly IpFamily[];
  readonly ipFamilyPolicy?: IpFamilyPolicy;
}

export interface ExplicitPort {
  readonly name?: string;
  readonly protocol: ServiceProtocol;
  readonly port: number;
  /** A number, or the name of a container port; absent: the API server makes it `port`. */
  readonly targetPort?: number | string;
}

const PROTOCOLS: readonly ServiceProtocol[] = ["TCP", "UDP"];
const SERVICE_TYPES: readonly ExposedServiceType[] = ["ClusterIP", "NodePort", "LoadBalancer"];
const IP_FAMILY_LISTS: readonly (readonly IpFamily[])[] = [
  ["IPv4"],
  ["IPv6"],
  ["IPv4", "IPv6"],
  ["IPv6", "IPv4"],
];
const IP_FAMILY_POLICIES: readonly IpFamilyPolicy[] = ["SingleStack", "PreferDualStack", "RequireDualStack"];

export function serviceOptionsOf(flags: ServiceFlags): ServiceOptions {
  const protocol = protocolOf(flags.protocol);
  const type = serviceTypeOf(flags.type);
  const ipFamilies = ipFamiliesOf(flags.ipFamily ?? "");
  const ipFamilyPolicy = ipFamilyPolicyOf(flags.ipFamilyPolicy ?? "", ipFamilies);
  const targetPort = targetPortOf(flags.targetPort ?? "");
  return {
    serviceName: flags.name,
    // KubeVirt's `--port` defaults to 0, which means "not given".
    ...(flags.port ? { port: explicitPort(flags.port, protocol, flags.portName, targetPort) } : {}),
    type,
    ...(flags.clusterIp ? { clusterIp: flags.clusterIp } : {}),
    ...(flags.externalIp ? { externalIp: flags.externalIp } : {}),
    ipFamilies,
    ...(ipFamilyPolicy ? { ipFamilyPolicy } : {}),
  };
}

function explicitPort(
  port: number,
  protocol: ServiceProtocol,
  name: string | undefined,
  targetPort: number | string | undefined,
): ExplicitPort {
  return {
    ...(name ? { name } : {}),
    protocol,
    port,
    ...(targetPort === undefined ? {} : { targetPort }),
  };
}

function protocolOf(value: string): ServiceProtocol {
  const protocol = PROTOCOLS.find((known) => sameWord(known, value));
  if (!protocol) throw new CliError(`unknown protocol: ${value}; use --protocol TCP or UDP`);
  return protocol;
}

function serviceTypeOf(value: string): ExposedServiceType {
  if (sameWord("ExternalName", value)) {
    // A CNAME names no pods: there is nothing of the VM's to send it to.
    throw new CliError(`type: ${value} not supported; use --type ${SERVICE_TYPES.join(", ")}`);
  }
  const type = SERVICE_TYPES.find((known) => sameWord(known, value));
  if (!type) throw new CliError(`unknown service type: ${value}; use --type ${SERVICE_TYPES.join(", ")}`);
  return type;
}

function ipFamiliesOf(value: string): readonly IpFamily[] {
  if (value === "") return [];
  const families = IP_FAMILY_LISTS.find((list) => sameWord(list.join(","), value));
  if (!families) {
    const known = IP_FAMILY_LISTS.map((list) => list.join(",")).join(", ");
    throw new CliError(`unknown IPFamily/s: ${value}; use --ip-family ${known}`);
  }
  return families;
}

/** Two families and no policy: KubeVirt asks for PreferDualStack (the API server refuses SingleStack). */
function ipFamilyPolicyOf(value: string, families: readonly IpFamily[]): IpFamilyPolicy | undefined {
  if (value === "") return families.length > 1 ? "PreferDualStack" : undefined;
  const policy = IP_FAMILY_POLICIES.find((known) => sameWord(known, value));
  if (!policy) {
    throw new CliError(
      `unknown IPFamilyPolicy/s: ${value}; use --ip-family-policy ${IP_FAMILY_POLICIES.join(", ")}`,
    );
  }
  return policy;
}

/** intstr.Parse: digits are a port number, anything else a port name. */
function targetPortOf(value: string): number | string | undefined {
  if (value === "") return undefined;
  return /^[+-]?\d+$/.test(value) ? Number(value) : value;
}

function sameWord(known: string, given: string): boolean {
  return known.toLowerCase() === given.toLowerCase();
}
