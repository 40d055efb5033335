import type { Logger } from "pino";
import type { ResourceClient } from "../../runtime/index.js";
import type { RequestHeaderConfig } from "../auth/request-header-config.js";
import type { Authorizer } from "../auth/subject-access-review.js";
import type { ClusterSettingsSource } from "../config/cluster-settings.js";
import type { HandlerClient } from "../handler/handler-client.js";
import type { HandlerLocator } from "../handler/handler-locator.js";
import type { Pod, VirtualMachine, VirtualMachineInstance } from "../kinds.js";
import type { VirtApiMetrics } from "../server/virt-api-metrics.js";
import type { ReferenceReader } from "../webhooks/vm-references.js";

/** What the subresource endpoints (HTTP and WebSocket) work with. */
export interface SubresourceDependencies {
  readonly vms: ResourceClient<VirtualMachine>;
  readonly vmis: ResourceClient<VirtualMachineInstance>;
  /** Launcher pods (any namespace): a port-forward's address must be one of its VMI's pod IPs. */
  readonly pods: ResourceClient<Pod>;
  readonly authorizer: Authorizer;
  /** The KubeVirt CR's settings: addvolume/removevolume need their feature gate. */
  readonly clusterSettings: ClusterSettingsSource;
  /** The instancetypes, preferences and revisions a VM references (expand-spec). */
  readonly references: ReferenceReader;
  readonly requestHeader: { current(): RequestHeaderConfig | undefined };
  readonly handlerLocator: HandlerLocator;
  readonly handlerClient: HandlerClient;
  readonly metrics: VirtApiMetrics;
  readonly log: Logger;
  /** Between WebSocket pings on proxied streams (KubeVirt's 15 s). */
  readonly pingIntervalMs: number;
}
