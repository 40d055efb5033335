import { join } from "node:path";
import type { ConfigSources } from "../containers/container-config.js";
import { type PreparedVolumes, preparePodVolumes } from "../containers/pod-volumes.js";
import type { CachedPod, PodIdentity } from "../kinds.js";
import { writePodEtcFiles } from "../network/pod-dns.js";
import { hostNetworkAttachment, type PodNetworkAttachment } from "../network/pod-network.js";
import { ServiceAccountVolume } from "../service-account/service-account-volume.js";
import type { PodRecord } from "../state/pod-record.js";
import type { WorkerDeps } from "./worker-deps.js";

/**
 * What a pod's containers share, set up before the first starts (kubelet's sandbox and
 * volume mounts): the network, the service-account files and the volumes.
 */
export class PodSandbox {
  readonly #deps: WorkerDeps;
  readonly #pod: PodIdentity;
  readonly #record: PodRecord;
  readonly podDir: string;
  #serviceAccount: ServiceAccountVolume | undefined;
  #volumes: PreparedVolumes | undefined;

  constructor(deps: WorkerDeps, pod: PodIdentity, record: PodRecord) {
    this.#deps = deps;
    this.#pod = pod;
    this.#record = record;
    this.podDir = deps.store.podDir(pod.uid);
  }

  get network(): PodNetworkAttachment | undefined {
    return this.#record.networkRemoved ? undefined : this.#record.network;
  }

  get serviceAccountDir(): string | undefined {
    return this.#serviceAccount?.dir;
  }

  get volumePaths(): ReadonlyMap<string, string> {
    return this.#volumes?.paths ?? new Map();
  }

  /** Takes over a previous run's network; false when it is gone (the containers must start over). */
  async adopt(): Promise<boolean> {
    const network = this.network;
    if (!network || network.mode === "host") return true;
    return this.#deps.network.adopt(network);
  }

  /** Sets up whatever is missing; throws VolumeError when a volume cannot be set up. */
  async ensure(pod: CachedPod, sources: ConfigSources): Promise<PodNetworkAttachment> {
    let network = this.network;
    if (!network) {
      network = pod.spec?.hostNetwork
        ? hostNetworkAttachment(this.#deps.network)
        : await this.#deps.network.attach(this.#pod.uid);
      this.#record.network = network;
      this.#record.networkRemoved = false;
      this.#deps.store.save(this.#record);
      await this.#prepareNetns(pod, network);
    }
    if (!this.#serviceAccount && pod.spec?.automountServiceAccountToken !== false) {
      const serviceAccount = new ServiceAccountVolume({
        dir: join(this.podDir, "volumes", "kubernetes.io~projected", "kube-api-access"),
        pod: this.#pod,
        serviceAccount: pod.spec?.serviceAccountName || "default",
        caCertPem: this.#deps.caCertPem,
        tokens: this.#deps.tokens,
        clock: this.#deps.clock,
        log: this.#deps.log,
      });
      await serviceAccount.start();
      this.#serviceAccount = serviceAccount;
    }
    if (!this.#volumes) {
      this.#volumes = await preparePodVolumes({
        pod,
        podDir: this.podDir,
        kubeletRoot: this.#deps.kubeletRoot,
        network,
        serviceAccountDir: this.#serviceAccount?.dir,
        sources,
        clock: this.#deps.clock,
      });
      if (this.#volumes.unsupported.length > 0) {
        this.#deps.log.warn(
          { volumes: this.#volumes.unsupported },
          "volumes of kinds the node agent does not set up",
        );
      }
    }
    return network;
  }

  /** The pod's own resolv.conf and hosts, and the Service rules, before any process runs in the namespace. */
  async #prepareNetns(pod: CachedPod, network: PodNetworkAttachment): Promise<void> {
    const netns = network.netns;
    if (network.mode !== "netns" || !netns) return;
    await writePodEtcFiles(netns, pod, network.podIP, this.#deps.clusterDns);
    // Not fatal: the proxy's periodic resync programs a namespace it has not seen.
    await this.#deps
      .preparePodNetwork?.(netns)
      .catch((error: unknown) =>
        this.#deps.log.warn({ err: error, netns }, "cannot program the pod's Service rules yet"),
      );
  }

  /** Removes the network (the pod's processes have ended) and stops refreshing the token. */
  async teardown(): Promise<void> {
    this.#serviceAccount?.stop();
    const network = this.network;
    if (network) {
      await this.#deps.network.detach(network);
      this.#record.networkRemoved = true;
      this.#deps.store.save(this.#record);
    }
  }

  /** The agent stops: stop refreshing, leave everything in place. */
  release(): void {
    this.#serviceAccount?.stop();
  }
}
