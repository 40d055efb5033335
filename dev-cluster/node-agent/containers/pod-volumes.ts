import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Clock, Frozen } from "../../../runtime/index.js";
import type { CachedPod, Volume } from "../kinds.js";
import type { PodNetworkAttachment } from "../network/pod-network.js";
import { mountClaimedVolume, resolveClaimedVolumes } from "./claim-volumes.js";
import type { ConfigSources } from "./container-config.js";
import { fieldRefValue } from "./field-ref.js";
import { nodeHostPath } from "./host-path.js";
import { CompleteVolumeError, VolumeError } from "./volume-error.js";
import { invalidPayloadPath, writeVolumePayload } from "./volume-payload.js";

export { VolumeError } from "./volume-error.js";

export interface PreparedVolumes {
  /** Host path of every volume set up, by volume name. */
  paths: Map<string, string>;
  /** Volumes of kinds the agent does not set up (csi, ephemeral, ...). */
  unsupported: string[];
}

export interface VolumeContext {
  pod: CachedPod;
  podDir: string;
  /** The agent's kubelet directory (its data dir): what hostPaths under /var/lib/kubelet are. */
  kubeletRoot: string;
  network: PodNetworkAttachment;
  /** The agent's service-account directory: what a projected token volume maps to. */
  serviceAccountDir: string | undefined;
  sources: ConfigSources;
  clock: Clock;
}

/**
 * Lays the pod's volumes out on the host as kubelet does, under
 * `pods/<uid>/volumes/kubernetes.io~<plugin>/<name>`; hostPath volumes are the host path itself
 * (under /var/lib/kubelet: the agent's own directory, host-path.ts). ConfigMap, Secret and
 * downward API volumes are written once per pod start (not kept in sync), with kubelet's
 * atomic-writer links (volume-payload.ts); a persistentVolumeClaim volume is its bound PV
 * (claim-volumes.ts), every claim resolved before anything is mounted, as kubelet's volume
 * manager does. A volume that cannot be set up fails with kubelet's message, and the pod waits
 * in ContainerCreating until a retry succeeds.
 */
export async function preparePodVolumes(context: VolumeContext): Promise<PreparedVolumes> {
  const paths = new Map<string, string>();
  const unsupported: string[] = [];
  const claimed = await resolveClaimedVolumes(context.pod, context.sources);
  const node = claimed.size > 0 ? await context.sources.node() : undefined;
  for (const volume of context.pod.spec?.volumes ?? []) {
    const pv = claimed.get(volume.name);
    const path = pv
      ? mountClaimedVolume(pv, { pod: context.pod, podDir: context.podDir, node, prepareHostPath })
      : await mountVolume(volume, context);
    if (path === undefined) unsupported.push(volume.name);
    else paths.set(volume.name, path);
  }
  return { paths, unsupported };
}

async function mountVolume(volume: Frozen<Volume>, context: VolumeContext): Promise<string | undefined> {
  try {
    return await prepareVolume(volume, context);
  } catch (error) {
    if (!(error instanceof VolumeError) || error instanceof CompleteVolumeError) throw error;
    throw new VolumeError(`MountVolume.SetUp failed for volume "${volume.name}" : ${error.message}`, {
      cause: error,
    });
  }
}

async function prepareVolume(volume: Frozen<Volume>, context: VolumeContext): Promise<string | undefined> {
  const pluginDir = (plugin: string): string =>
    join(context.podDir, "volumes", `kubernetes.io~${plugin}`, volume.name);
  if (volume.emptyDir) {
    const dir = pluginDir("empty-dir");
    mkdirSync(dir, { recursive: true });
    return dir;
  }
  if (volume.hostPath) {
    return prepareHostPath(
      nodeHostPath(volume.hostPath.path, context.kubeletRoot),
      volume.hostPath.type ?? "",
    );
  }
  if (volume.projected?.sources?.some((source) => source.serviceAccountToken)) {
    // The admission-injected kube-api-access volume: token, ca.crt and namespace.
    return context.serviceAccountDir;
  }
  const files = await volumeFiles(volume, context);
  if (!files) return undefined;
  const plugin = volume.configMap
    ? "configmap"
    : volume.secret
      ? "secret"
      : volume.downwardAPI
        ? "downward-api"
        : "projected";
  for (const relative of files.keys()) {
    const invalid = invalidPayloadPath(relative);
    if (invalid !== undefined) throw new VolumeError(invalid);
  }
  const dir = pluginDir(plugin);
  writeVolumePayload(dir, files, new Date(context.clock.now()));
  return dir;
}

function prepareHostPath(path: string, type: string): string {
  if (type === "DirectoryOrCreate") mkdirSync(path, { recursive: true });
  else if (type === "FileOrCreate" && !existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "");
  } else if (type === "Directory" || type === "File") {
    const kind = type === "Directory" ? "directory" : "file";
    let matches = false;
    try {
      const stat = statSync(path);
      matches = type === "Directory" ? stat.isDirectory() : stat.isFile();
    } catch {
      matches = false;
    }
    if (!matches) throw new VolumeError(`hostPath type check failed: ${path} is not a ${kind}`);
  }
  return path;
}

type Items = readonly { readonly key: string; readonly path: string }[] | undefined;

/** The files of a configMap, secret, downwardAPI or projected volume; undefined for other kinds. */
async function volumeFiles(
  volume: Frozen<Volume>,
  context: VolumeContext,
): Promise<Map<string, Buffer> | undefined> {
  const namespace = context.pod.metadata?.namespace ?? "";
  const files = new Map<string, Buffer>();
  const addConfigMap = async (name: string, items: Items, optional: boolean | undefined): Promise<void> => {
    const configMap = await context.sources.configMap(namespace, name);
    if (!configMap && !optional) throw new VolumeError(`configmap "${name}" not found`);
    const data = Object.entries(configMap?.data ?? {}).map(
      ([key, value]) => [key, Buffer.from(value)] as const,
    );
    addItems(files, data, items);
  };
  const addSecret = async (name: string, items: Items, optional: boolean | undefined): Promise<void> => {
    const secret = await context.sources.secret(namespace, name);
    if (!secret && !optional) throw new VolumeError(`secret "${name}" not found`);
    const data = Object.entries(secret?.data ?? {}).map(
      ([key, value]) => [key, Buffer.from(value, "base64")] as const,
    );
    addItems(files, data, items);
  };
  const addDownward = (
    items: readonly { readonly path: string; readonly fieldRef?: { readonly fieldPath: string } }[],
  ) => {
    for (const item of items) {
      if (item.fieldRef)
        files.set(
          item.path,
          Buffer.from(fieldRefValue(item.fieldRef.fieldPath, context.pod, context.network)),
        );
    }
  };
  if (volume.configMap)
    await addConfigMap(volume.configMap.name ?? "", volume.configMap.items, volume.configMap.optional);
  else if (volume.secret)
    await addSecret(volume.secret.secretName ?? "", volume.secret.items, volume.secret.optional);
  else if (volume.downwardAPI) addDownward(volume.downwardAPI.items ?? []);
  else if (volume.projected) {
    for (const source of volume.projected.sources ?? []) {
      if (source.configMap)
        await addConfigMap(source.configMap.name ?? "", source.configMap.items, source.configMap.optional);
      if (source.secret)
        await addSecret(source.secret.name ?? "", source.secret.items, source.secret.optional);
      if (source.downwardAPI) addDownward(source.downwardAPI.items ?? []);
    }
  } else return undefined;
  return files;
}

function addItems(
  files: Map<string, Buffer>,
  data: readonly (readonly [string, Buffer])[],
  items: Items,
): void {
  if (!items || items.length === 0) {
    for (const [key, value] of data) files.set(key, value);
    return;
  }
  const byKey = new Map(data);
  for (const item of items) {
    const value = byKey.get(item.key);
    if (value !== undefined) files.set(item.path, value);
  }
}
