/**
 * `virtctl expose (vmi|vm|vmirs) NAME --name SVC [--port N] ...`: a Service that reaches the VM,
 * as KubeVirt's virtctl creates it (pkg/virtctl/expose/): it selects the launcher pods by
 * `vmi.kubevirt.io/id` (a VMIRS's by its matchLabels) and is owned by the exposed object.
 */
import { Command } from "commander";
import type { IService } from "kubernetes-models/v1/Service";
import type { ApiClient } from "../api/api-client.js";
import { ApiError } from "../api/api-error.js";
import { servicesPath } from "../api/kubevirt-paths.js";
import { CliError, oneLine } from "../errors/cli-error.js";
import { exposableOf, readExposedObject } from "../expose/exposed-object.js";
import { serviceManifest } from "../expose/service-manifest.js";
import { type ServiceFlags, serviceOptionsOf } from "../expose/service-options.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";
import { port } from "./flag-parsers.js";

export function exposeCommand(deps: CommandDeps): Command {
  return new Command("expose")
    .description(
      "Expose a virtual machine instance, virtual machine, or virtual machine instance replica set as a new service",
    )
    .argument("<type>", "vmi, vm or vmirs (or their long and plural forms)")
    .argument("<name>", "the object to expose")
    .requiredOption("--name <name>", "name of the service created for the exposure of the VM")
    .option("--port <port>", "the port that the service should serve on", port)
    .option(
      "--target-port <port>",
      "name or number of the port on the VM that the service should direct traffic to",
    )
    .option("--protocol <protocol>", "the network protocol for the service: TCP or UDP", "TCP")
    .option("--type <type>", "type of the service: ClusterIP, NodePort or LoadBalancer", "ClusterIP")
    .option("--port-name <name>", "name of the port")
    .option("--cluster-ip <ip>", "ClusterIP to assign (empty: allocated; None: a headless service)")
    .option("--external-ip <ip>", "an external IP (not managed by the cluster) the service also accepts")
    .option("--ip-family <families>", "IPv4, IPv6, IPv4,IPv6 or IPv6,IPv4")
    .option("--ip-family-policy <policy>", "SingleStack, PreferDualStack or RequireDualStack")
    .action(async (type: string, name: string, flags: ServiceFlags, command: Command) => {
      // Flags and TYPE first, as KubeVirt does: a typo costs no request.
      const options = serviceOptionsOf(flags);
      const exposable = exposableOf(type);
      const api = deps.connect(connectionFlagsOf(command));
      const exposed = await readExposedObject(api, exposable, name);
      await createService(api, serviceManifest(api.namespace, exposed, options));
      deps.io.stdout.write(
        `Service ${options.serviceName} successfully created for ${type.toLowerCase()} ${name}\n`,
      );
    });
}

async function createService(api: ApiClient, service: IService): Promise<void> {
  try {
    await api.send("POST", servicesPath(api.namespace), service);
  } catch (error) {
    throw new CliError(`service creation failed: ${oneLine(error)}${fixFor(error, service.metadata?.name)}`, {
      cause: error,
    });
  }
}

function fixFor(error: unknown, name: string | undefined): string {
  if (!(error instanceof ApiError)) return "";
  if (error.code === 409) return `; pick another --name, or delete it first (kubectl delete service ${name})`;
  if (error.code === 403) return "; ask for permission to create services in this namespace";
  return "";
}
