/**
 * The Service `virtctl expose` creates (KubeVirt's `createService`): named by `--name`, owned by
 * the exposed object, selecting its launcher pods, on `--port` or else on every port its
 * pod-network interface lists.
 */
import type { IService } from "kubernetes-models/v1/Service";
import type { IServicePort } from "kubernetes-models/v1/ServicePort";
import { CliError } from "../errors/cli-error.js";
import type { ExposedObject } from "./exposed-object.js";
import type { ServiceOptions } from "./service-options.js";

export function serviceManifest(
  namespace: string,
  exposed: ExposedObject,
  options: ServiceOptions,
): IService {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: options.serviceName, namespace, ownerReferences: [{ ...exposed.owner }] },
    spec: {
      ports: servicePorts(exposed, options),
      selector: { ...exposed.selector },
      type: options.type,
      ...(options.clusterIp ? { clusterIP: options.clusterIp } : {}),
      ...(options.externalIp ? { externalIPs: [options.externalIp] } : {}),
      ...(options.ipFamilies.length > 0 ? { ipFamilies: [...options.ipFamilies] } : {}),
      ...(options.ipFamilyPolicy ? { ipFamilyPolicy: options.ipFamilyPolicy } : {}),
    },
  };
}

function servicePorts(exposed: ExposedObject, options: ServiceOptions): IServicePort[] {
  if (options.port) return [{ ...options.port }];
  if (exposed.interfacePorts.length > 0) return exposed.interfacePorts.map((port) => ({ ...port }));
  throw new CliError(
    "couldn't find port via --port flag or introspection; pass --port, or list ports on the pod-network interface (spec.domain.devices.interfaces[].ports)",
  );
}
