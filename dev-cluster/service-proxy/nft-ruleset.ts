import type { ServiceEndpoint, ServicePortRule } from "./service-rules.js";

/** Where a ruleset runs: in a pod's network namespace, or in the node's own. */
export type RulesetPlace =
  | { kind: "pod" }
  | {
      kind: "node";
      /** The node bridge, and the pods' range behind it: what the node sends there after DNAT. */
      bridge: string;
      podCidr: string;
    };

export interface RulesetInputs {
  /** The nftables table, `ip` family; replaced whole by the script. */
  table: string;
  place: RulesetPlace;
  /** Addresses in this range that no Service holds are refused rather than sent on. */
  serviceCidr: string;
  /** The node's addresses, where NodePorts answer. */
  nodeAddresses: readonly string[];
  rules: readonly ServicePortRule[];
}

/**
 * kube-proxy's translation as one nft script that replaces the table in a single transaction
 * (so a reader never sees half a ruleset): a ClusterIP or NodePort with ready endpoints is
 * DNATed to one of them, picked at random per connection; an address of the service range that
 * routes nowhere (no Service, or no ready endpoint) is refused with ICMP port unreachable, as
 * kube-proxy refuses it, instead of being sent to the gateway.
 *
 * In a pod the rules hook `output` (the pod's own connections) and `prerouting` (what the pod
 * forwards: a masquerade VM's traffic enters its launcher pod from the in-pod bridge). On the
 * node they hook `output` only — the node forwards nothing — and what the node sends to a pod
 * after DNAT leaves with the bridge's address, so that the pod, which has no route to the
 * node's other addresses, can answer.
 */
export function renderRuleset(inputs: RulesetInputs): string {
  const { table, place } = inputs;
  const natHooks = place.kind === "pod" ? ["output", "prerouting"] : ["output"];
  const filterHooks = place.kind === "pod" ? ["output", "forward"] : ["output"];
  const lines = [`table ip ${table} {}`, `delete table ip ${table}`, `table ip ${table} {`];
  for (const hook of natHooks) {
    lines.push(
      ...chain(`nat-${hook}`, `type nat hook ${hook} priority -110; policy accept;`, ["jump services"]),
    );
  }
  for (const hook of filterHooks) {
    lines.push(
      ...chain(`filter-${hook}`, `type filter hook ${hook} priority 0; policy accept;`, [
        "ct state established,related accept",
        `ip daddr ${inputs.serviceCidr} reject`,
      ]),
    );
  }
  if (place.kind === "node") {
    lines.push(
      ...chain("nat-postrouting", "type nat hook postrouting priority 110; policy accept;", [
        `oifname "${place.bridge}" ct status dnat ip saddr != ${place.podCidr} masquerade`,
      ]),
    );
  }
  lines.push(...chain("services", undefined, serviceRules(inputs)), "}", "");
  return lines.join("\n");
}

function serviceRules(inputs: RulesetInputs): string[] {
  const rules: string[] = [];
  const nodeAddresses =
    inputs.nodeAddresses.length > 0 ? `{ ${inputs.nodeAddresses.join(", ")} }` : undefined;
  for (const rule of inputs.rules) {
    if (rule.endpoints.length === 0) continue;
    const target = dnatTarget(rule.endpoints);
    const comment = `comment "${rule.id.replace(/"/g, "")}"`;
    if (rule.clusterIP) {
      rules.push(`ip daddr ${rule.clusterIP} ${rule.protocol} dport ${rule.port} ${target} ${comment}`);
    }
    if (rule.nodePort !== undefined && nodeAddresses) {
      rules.push(`ip daddr ${nodeAddresses} ${rule.protocol} dport ${rule.nodePort} ${target} ${comment}`);
    }
  }
  return rules;
}

function dnatTarget(endpoints: readonly ServiceEndpoint[]): string {
  const [only] = endpoints;
  if (endpoints.length === 1 && only) return `dnat ip to ${only.ip}:${only.port}`;
  const choices = endpoints.map((endpoint, index) => `${index} : ${endpoint.ip} . ${endpoint.port}`);
  return `dnat ip to numgen random mod ${endpoints.length} map { ${choices.join(", ")} }`;
}

function chain(name: string, hook: string | undefined, rules: readonly string[]): string[] {
  return [
    `  chain ${name} {`,
    ...(hook ? [`    ${hook}`] : []),
    ...rules.map((rule) => `    ${rule}`),
    "  }",
  ];
}
