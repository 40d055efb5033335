/**
 * The storage tests' cluster: a dev API server with two Ready nodes, a namespace, and only the
 * PV controllers running; builders of StorageClasses, claims and volumes; and polls of the
 * objects (through a real client) and of their Events (through kubectl).
 */
import { pino } from "pino";
import { isNotFound, KubeClient, type Manager } from "../../../runtime/index.js";
import {
  eventually,
  startTestApiServer,
  type TestApiServer,
} from "../../../test/harness/api-server-fixture.js";
import {
  type PersistentVolume,
  type PersistentVolumeClaim,
  persistentVolumeClaimKind,
  persistentVolumeKind,
} from "../kinds.js";
import { startWorkloadControllers } from "../workload-controllers.js";
import { addNodes, kubectlOk } from "./cluster-fixture.js";

export const STORAGE_NS = "storage";
export const FAKE_PROVISIONER = "example.com/fake";
const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
const WAIT_MS = 10_000;

export function storageClass(
  name: string,
  mode: "Immediate" | "WaitForFirstConsumer",
  provisioner = FAKE_PROVISIONER,
  annotations: Record<string, string> = {},
) {
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name, annotations },
    provisioner,
    volumeBindingMode: mode,
  };
}

export function claim(
  name: string,
  className: string | undefined,
  size = "1Gi",
  extra: Record<string, unknown> = {},
) {
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name, namespace: STORAGE_NS },
    spec: {
      ...(className === undefined ? {} : { storageClassName: className }),
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: size } },
      ...extra,
    },
  };
}

export function volume(
  name: string,
  className: string,
  size: string,
  spec: Record<string, unknown> = {},
  annotations: Record<string, string> = {},
) {
  return {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name, annotations },
    spec: {
      storageClassName: className,
      capacity: { storage: size },
      accessModes: ["ReadWriteOnce"],
      ...(spec.local ? {} : { hostPath: { path: `/tmp/${name}` } }),
      ...spec,
    },
  };
}

export interface EventSummary {
  reason: string;
  message: string;
  type: string;
}

export const PV_CONTROLLERS = [
  "persistentvolume-claims",
  "persistentvolume-volumes",
  "pvc-protection",
  "pv-protection",
] as const;

export class StorageCluster {
  controllers: Manager | undefined;
  readonly api: TestApiServer;
  readonly #client: KubeClient;

  private constructor(api: TestApiServer) {
    this.api = api;
    this.#client = KubeClient.fromKubeConfig(api.kubeConfig(), { fieldManager: "test" });
  }

  static async start(): Promise<StorageCluster> {
    const api = await startTestApiServer();
    await addNodes(api, [{ name: "node-a" }, { name: "node-b" }]);
    await kubectlOk(api, ["create", "namespace", STORAGE_NS]);
    const cluster = new StorageCluster(api);
    await cluster.startControllers();
    return cluster;
  }

  async startControllers(): Promise<void> {
    this.controllers = await startWorkloadControllers({
      kubeConfig: this.api.kubeConfig(),
      log,
      gracefulShutdownMs: 2000,
      controllers: PV_CONTROLLERS,
    });
  }

  async close(): Promise<void> {
    await this.controllers?.stop();
    await this.api.close();
  }

  get claims() {
    return this.#client.resource(persistentVolumeClaimKind);
  }

  get volumes() {
    return this.#client.resource(persistentVolumeKind);
  }

  getClaim(name: string): Promise<PersistentVolumeClaim> {
    return this.claims.get({ namespace: STORAGE_NS, name });
  }

  getVolume(name: string): Promise<PersistentVolume> {
    return this.volumes.get({ name });
  }

  claimWhere(what: string, name: string, check: (claim: PersistentVolumeClaim) => boolean) {
    return eventually(
      `claim ${name} ${what}`,
      async () => {
        const found = await this.getClaim(name);
        return check(found) ? found : undefined;
      },
      WAIT_MS,
    );
  }

  claimPhase(name: string, phase: string) {
    return this.claimWhere(phase, name, (found) => found.status?.phase === phase);
  }

  volumePhase(name: string, phase: string) {
    return eventually(
      `volume ${name} ${phase}`,
      async () => {
        const found = await this.getVolume(name);
        return found.status?.phase === phase ? found : undefined;
      },
      WAIT_MS,
    );
  }

  gone(what: string, read: () => Promise<unknown>) {
    return eventually(
      `${what} gone`,
      async () => {
        try {
          await read();
          return undefined;
        } catch (error) {
          if (isNotFound(error)) return true;
          throw error;
        }
      },
      WAIT_MS,
    );
  }

  async eventsOf(name: string): Promise<EventSummary[]> {
    const args = ["get", "events", "-A", "--field-selector", `involvedObject.name=${name}`, "-o", "json"];
    return (JSON.parse(await kubectlOk(this.api, args)) as { items: EventSummary[] }).items;
  }

  eventWith(name: string, reason: string): Promise<EventSummary> {
    return eventually(
      `event ${reason} on ${name}`,
      async () => (await this.eventsOf(name)).find((e) => e.reason === reason),
      WAIT_MS,
    );
  }
}
