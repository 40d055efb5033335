import { bindingsOf, INTERFACE_MODELS, type Interface } from "../vmi/interfaces.js";
import type { Network } from "../vmi/networks.js";
import type { VirtualMachineInstanceSpec } from "../vmi/vmi-spec.js";
import { type Cause, duplicate, invalid } from "./cause.js";
import { duplicatePositions } from "./duplicates.js";
import { child, index } from "./field-path.js";

const MAC_ADDRESS = /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/;
/** Bindings that only work on the pod network. */
const POD_NETWORK_ONLY = ["masquerade", "passtBinding"] as const;
const POD_NETWORK_ONLY_NAMES: Record<(typeof POD_NETWORK_ONLY)[number], string> = {
  masquerade: "Masquerade",
  passtBinding: "PasstBinding",
};
/** Bindings KubeVirt removed in v1.3: the API still has the fields, admission refuses them. */
const DISCONTINUED = { passt: "Passt", slirp: "Slirp", macvtap: "Macvtap" } as const;

/**
 * `spec.networks` and `spec.domain.devices.interfaces` (virt-api's validateNetworks and
 * validateNetworksMatchInterfaces): unique names, one source per network, at most one pod
 * network interface, every interface names a network and every network has an interface, one
 * binding per interface, pod-only bindings on the pod network, models, MACs and ports.
 */
export function validateNetworks(field: string, spec: VirtualMachineInstanceSpec): Cause[] {
  const networksField = child(field, "networks");
  const interfacesField = child(field, "domain", "devices", "interfaces");
  const networks = spec.networks ?? [];
  const interfaces = spec.domain.devices.interfaces ?? [];
  const causes: Cause[] = [];
  for (const { at } of duplicatePositions(networks, (network) => network.name)) {
    const name = networks[at]?.name ?? "";
    causes.push(
      duplicate(
        child(index(networksField, at), "name"),
        `Network with name "${name}" already exists, every network must have a unique name`,
      ),
    );
  }
  networks.forEach((network, position) => {
    causes.push(...validateNetworkSource(index(networksField, position), network));
  });
  causes.push(...validateDefaultNetworks(networksField, networks));
  const podInterfaces = interfaces.filter(
    (iface) => networks.find((network) => network.name === iface.name)?.pod !== undefined,
  );
  if (podInterfaces.length > 1) {
    causes.push(
      invalid(interfacesField, `more than one interface is connected to a pod network in ${interfacesField}`),
    );
  }
  for (const { at } of duplicatePositions(interfaces, (iface) => iface.name)) {
    causes.push(
      duplicate(
        child(index(interfacesField, at), "name"),
        "Only one interface can be connected to one specific network",
      ),
    );
  }
  const portNames = new Set<string>();
  interfaces.forEach((iface, position) => {
    const network = networks.find((candidate) => candidate.name === iface.name);
    causes.push(...validateInterface(index(interfacesField, position), iface, network, portNames));
  });
  const interfaceNames = new Set(interfaces.map((iface) => iface.name));
  networks.forEach((network, position) => {
    if (interfaceNames.has(network.name)) return;
    const nameField = child(index(networksField, position), "name");
    causes.push(invalid(nameField, `${nameField} '${network.name}' not found.`));
  });
  return causes;
}

function validateNetworkSource(field: string, network: Network): Cause[] {
  const sources = [network.pod, network.multus].filter((source) => source !== undefined).length;
  if (sources > 1) return [invalid(field, "should have only one network type")];
  if (sources === 0) return [invalid(field, "should have a network type")];
  if (network.multus !== undefined && network.multus.networkName === "") {
    return [invalid(child(field, "multus", "networkName"), "CNI delegating plugin must have a networkName")];
  }
  return [];
}

function validateDefaultNetworks(field: string, networks: readonly Network[]): Cause[] {
  const multusDefaults = networks.filter((network) => network.multus?.default === true).length;
  const hasPod = networks.some((network) => network.pod !== undefined);
  const causes: Cause[] = [];
  if (multusDefaults > 1) causes.push(invalid(field, "Multus CNI should only have one default network"));
  if (hasPod && multusDefaults > 0)
    causes.push(invalid(field, "Pod network cannot be defined when Multus default network is defined"));
  return causes;
}

function validateInterface(
  field: string,
  iface: Interface,
  network: Network | undefined,
  portNames: Set<string>,
): Cause[] {
  const nameField = child(field, "name");
  if (network === undefined) return [invalid(nameField, `${nameField} '${iface.name}' not found.`)];
  const causes: Cause[] = [];
  const bindings = bindingsOf(iface);
  if (bindings.length > 1)
    causes.push(
      invalid(
        field,
        `logical ${iface.name} interface must have at most one binding method, found ${bindings.join(", ")}`,
      ),
    );
  if (bindings.length > 0 && iface.binding !== undefined) {
    causes.push(
      invalid(
        child(field, "binding"),
        `logical ${iface.name} interface cannot have both a binding method and a binding plugin`,
      ),
    );
  }
  for (const [binding, name] of Object.entries(DISCONTINUED) as [keyof typeof DISCONTINUED, string][]) {
    if (iface[binding] !== undefined) {
      causes.push(invalid(child(field, binding), `${name} network binding has been discontinued since v1.3`));
    }
  }
  for (const binding of POD_NETWORK_ONLY) {
    if (iface[binding] !== undefined && network.pod === undefined) {
      causes.push(
        invalid(nameField, `${POD_NETWORK_ONLY_NAMES[binding]} interface only implemented with pod network`),
      );
    }
  }
  if (
    iface.model !== undefined &&
    iface.model !== "" &&
    !INTERFACE_MODELS.some((model) => model === iface.model)
  ) {
    causes.push(
      invalid(
        child(field, "model"),
        `interface ${nameField} uses model ${iface.model} that is not supported.`,
      ),
    );
  }
  if (iface.macAddress !== undefined && iface.macAddress !== "" && !MAC_ADDRESS.test(iface.macAddress)) {
    causes.push(
      invalid(
        child(field, "macAddress"),
        `interface ${nameField} has malformed MAC address (${iface.macAddress}).`,
      ),
    );
  }
  if (iface.bootOrder !== undefined && iface.bootOrder < 1) {
    causes.push(invalid(child(field, "bootOrder"), `${field} must have a boot order > 0, if supplied`));
  }
  causes.push(...validatePorts(child(field, "ports"), iface, portNames));
  for (const [position, option] of (iface.dhcpOptions?.privateOptions ?? []).entries()) {
    if (option.option < 224 || option.option > 254) {
      causes.push(
        invalid(
          index(child(field, "dhcpOptions", "privateOptions"), position),
          "provided DHCPPrivateOptions are out of range, must be in range 224 to 254",
        ),
      );
    }
  }
  return causes;
}

function validatePorts(field: string, iface: Interface, portNames: Set<string>): Cause[] {
  const causes: Cause[] = [];
  (iface.ports ?? []).forEach((port, position) => {
    const portField = index(field, position);
    if (port.port <= 0 || port.port > 65535) {
      causes.push(
        invalid(
          child(portField, "port"),
          `Port field is mandatory and must be between 1 and 65535, got ${port.port}`,
        ),
      );
    }
    const protocol = port.protocol ?? "TCP";
    if (protocol !== "TCP" && protocol !== "UDP") {
      causes.push(invalid(child(portField, "protocol"), "Unknown protocol, only TCP or UDP allowed"));
    }
    if (port.name !== undefined && port.name !== "") {
      if (portNames.has(port.name))
        causes.push(duplicate(child(portField, "name"), `Duplicate name of the port: ${port.name}`));
      portNames.add(port.name);
    }
  });
  return causes;
}
