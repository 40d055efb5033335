import type { Logger } from "pino";
import type { Clock, EventRecorder, ResourceClient } from "../../../runtime/index.js";
import type { ConfigSources } from "../containers/container-config.js";
import type { ImageProgram } from "../containers/image-map.js";
import type { Pod } from "../kinds.js";
import type { ClusterDnsSettings } from "../network/pod-dns.js";
import type { PodNetwork } from "../network/pod-network.js";
import type { TokenRequester } from "../service-account/token-requester.js";
import type { RecordStore } from "../state/record-store.js";
import type { BackOffPolicy } from "./back-off.js";

/** What every pod worker shares: the node's parts, passed in once by the agent. */
export interface WorkerDeps {
  store: RecordStore;
  /** The agent's kubelet directory (its data dir): a hostPath under /var/lib/kubelet is found there. */
  kubeletRoot: string;
  network: PodNetwork;
  /** The cluster's DNS, written into each pod's resolv.conf; none: pods read the node's. */
  clusterDns?: ClusterDnsSettings;
  /** Called with a pod's new network namespace before its containers start (the Service proxy's rules). */
  preparePodNetwork?: (netns: string) => Promise<void>;
  /** Root of `pods/<ns>_<name>_<uid>/<container>/<n>.log`. */
  logsRoot: string;
  imageMapPath: string;
  /** Images the node has besides the map file's (which may override them). */
  builtInImages: Readonly<Record<string, ImageProgram>>;
  /** Where pods reach the API server. */
  apiEndpoint: { host: string; port: number };
  caCertPem: string;
  tokens: TokenRequester;
  sources: ConfigSources;
  pods: ResourceClient<Pod>;
  events: EventRecorder;
  clock: Clock;
  log: Logger;
  restartBackOff: BackOffPolicy;
  imagePullBackOff: BackOffPolicy;
  /** How often adopted processes are checked for their end. */
  adoptedPollMs: number;
  /** Set on every process the agent starts: how a restarted agent recognises its processes. */
  agentEnv: Readonly<Record<string, string>>;
  /** PATH of processes whose image gives none. */
  defaultPath: string;
  /** Looks at the pod again (now, or after `delayMs`). */
  enqueue(key: string, delayMs?: number): void;
}
