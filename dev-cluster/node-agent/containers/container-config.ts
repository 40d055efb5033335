import type { Frozen } from "../../../runtime/index.js";
import type {
  CachedPod,
  ConfigMap,
  Container,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Secret,
} from "../kinds.js";
import type { PodNetworkAttachment } from "../network/pod-network.js";
import { serviceAccountMountPath } from "./container-root.js";
import { expandVariables } from "./env-expansion.js";
import { ContainerConfigError, fieldRefValue } from "./field-ref.js";
import type { ResolvedImage } from "./image-map.js";
import { terminationMessagePath } from "./termination-message.js";

/**
 * Reads the objects that env and volumes refer to (undefined: not found): ConfigMaps, Secrets,
 * the claims of persistentVolumeClaim volumes and their PVs, and the agent's own Node (whose
 * labels a PV's node affinity is checked against).
 */
export interface ConfigSources {
  configMap(namespace: string, name: string): Promise<Frozen<ConfigMap> | undefined>;
  secret(namespace: string, name: string): Promise<Frozen<Secret> | undefined>;
  persistentVolumeClaim(namespace: string, name: string): Promise<Frozen<PersistentVolumeClaim> | undefined>;
  persistentVolume(name: string): Promise<Frozen<PersistentVolume> | undefined>;
  node(): Promise<Frozen<Node> | undefined>;
}

export interface ContainerContext {
  pod: CachedPod;
  container: Frozen<Container>;
  image: ResolvedImage;
  network: PodNetworkAttachment;
  /** Where pods reach the API server (KUBERNETES_SERVICE_HOST/PORT). */
  apiEndpoint: { host: string; port: number };
  /** The directory holding token, ca.crt and namespace, when the pod mounts a token. */
  serviceAccountDir?: string;
  /** Host paths of the pod's volumes, by volume name. */
  volumePaths: ReadonlyMap<string, string>;
  /** PATH when the image map gives none. */
  defaultPath: string;
  /** The working directory when neither the container nor the image map gives one. */
  podDir: string;
  /** Where the container's mounts appear as symlinks (KUBEVIRT_TS_ROOT). */
  rootDir: string;
  /** The node's file behind terminationMessagePath, mounted like a volume. */
  terminationMessageFile?: string;
  /** Variables the agent sets on every process it starts (they identify its processes). */
  agentEnv: Readonly<Record<string, string>>;
  sources: ConfigSources;
}

export interface ContainerConfig {
  command: string[];
  env: Record<string, string>;
  cwd: string;
  /** Host path of each path the container mounts (volume mounts, service-account files, termination message). */
  mounts: Record<string, string>;
}

/**
 * A container's command line, environment and working directory, as kubelet and the runtime
 * would assemble them: the image's entrypoint and args unless the container replaces them,
 * the `kubernetes` Service variables, envFrom, then env (with `$(VAR)` expansion).
 * The agent adds KUBERNETES_SERVICE_ACCOUNT_DIR and KUBEVIRT_TS_VOLUME_* (see README).
 */
export async function resolveContainerConfig(context: ContainerContext): Promise<ContainerConfig> {
  const { container, image } = context;
  const mounts = containerMounts(context);
  const env: Record<string, string> = {
    PATH: context.defaultPath,
    HOSTNAME: context.pod.metadata?.name ?? "",
    ...image.program.env,
    ...serviceVariables(context.apiEndpoint),
    ...agentVariables(context, mounts),
  };
  const lookup = (name: string): string | undefined => env[name];
  for (const source of container.envFrom ?? []) await addEnvFrom(env, source, context);
  for (const variable of container.env ?? []) {
    const value = await envValue(variable, context, lookup);
    if (value !== undefined) env[variable.name] = value;
  }
  Object.assign(env, context.agentEnv);
  const entrypoint = container.command ?? image.program.command;
  const args = container.args ?? (container.command ? [] : (image.program.args ?? []));
  const command = [...entrypoint, ...args].map((part) => expandVariables(part, lookup));
  return { command, env, cwd: container.workingDir ?? image.program.workingDir ?? context.podDir, mounts };
}

function serviceVariables(api: { host: string; port: number }): Record<string, string> {
  const port = String(api.port);
  return {
    KUBERNETES_SERVICE_HOST: api.host,
    KUBERNETES_SERVICE_PORT: port,
    KUBERNETES_SERVICE_PORT_HTTPS: port,
    KUBERNETES_PORT: `tcp://${api.host}:${port}`,
  };
}

/** Volume name as a variable suffix: upper case, anything but letters and digits as "_". */
export function volumeVariableName(volumeName: string): string {
  return `KUBEVIRT_TS_VOLUME_${volumeName.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

function containerMounts(context: ContainerContext): Record<string, string> {
  const mounts: Record<string, string> = {};
  if (context.serviceAccountDir) mounts[serviceAccountMountPath] = context.serviceAccountDir;
  if (context.terminationMessageFile) {
    mounts[terminationMessagePath(context.container)] = context.terminationMessageFile;
  }
  for (const mount of context.container.volumeMounts ?? []) {
    const root = context.volumePaths.get(mount.name);
    if (root !== undefined) mounts[mount.mountPath] = mount.subPath ? `${root}/${mount.subPath}` : root;
  }
  return mounts;
}

function agentVariables(context: ContainerContext, mounts: Record<string, string>): Record<string, string> {
  const variables: Record<string, string> = { KUBEVIRT_TS_ROOT: context.rootDir };
  if (context.serviceAccountDir) variables.KUBERNETES_SERVICE_ACCOUNT_DIR = context.serviceAccountDir;
  for (const mount of context.container.volumeMounts ?? []) {
    const root = context.volumePaths.get(mount.name);
    if (root !== undefined) variables[volumeVariableName(mount.name)] = root;
  }
  variables.KUBEVIRT_TS_VOLUME_MOUNTS = JSON.stringify(mounts);
  return variables;
}

type EnvVar = NonNullable<Container["env"]>[number];
type EnvFromSource = NonNullable<Container["envFrom"]>[number];

async function envValue(
  variable: Frozen<EnvVar>,
  context: ContainerContext,
  lookup: (name: string) => string | undefined,
): Promise<string | undefined> {
  const from = variable.valueFrom;
  if (!from) return expandVariables(variable.value ?? "", lookup);
  const namespace = context.pod.metadata?.namespace ?? "";
  if (from.fieldRef) return fieldRefValue(from.fieldRef.fieldPath, context.pod, context.network);
  if (from.configMapKeyRef) {
    const { name = "", key, optional } = from.configMapKeyRef;
    const configMap = await context.sources.configMap(namespace, name);
    return keyValue(
      configMap?.data?.[key],
      configMap !== undefined,
      "configmap",
      namespace,
      name,
      key,
      optional,
    );
  }
  if (from.secretKeyRef) {
    const { name = "", key, optional } = from.secretKeyRef;
    const secret = await context.sources.secret(namespace, name);
    const encoded = secret?.data?.[key];
    const value =
      encoded === undefined ? secret?.stringData?.[key] : Buffer.from(encoded, "base64").toString();
    return keyValue(value, secret !== undefined, "secret", namespace, name, key, optional);
  }
  throw new ContainerConfigError(`env ${variable.name}: resourceFieldRef is not supported by the node agent`);
}

function keyValue(
  value: string | undefined,
  found: boolean,
  kind: "configmap" | "secret",
  namespace: string,
  name: string,
  key: string,
  optional: boolean | undefined,
): string | undefined {
  if (value !== undefined) return value;
  if (optional) return undefined;
  if (!found) throw new ContainerConfigError(`${kind} "${name}" not found`);
  const kindName = kind === "configmap" ? "ConfigMap" : "Secret";
  throw new ContainerConfigError(`couldn't find key ${key} in ${kindName} ${namespace}/${name}`);
}

async function addEnvFrom(
  env: Record<string, string>,
  source: Frozen<EnvFromSource>,
  context: ContainerContext,
): Promise<void> {
  const namespace = context.pod.metadata?.namespace ?? "";
  const prefix = source.prefix ?? "";
  if (source.configMapRef) {
    const { name = "", optional } = source.configMapRef;
    const configMap = await context.sources.configMap(namespace, name);
    if (!configMap && !optional) throw new ContainerConfigError(`configmap "${name}" not found`);
    for (const [key, value] of Object.entries(configMap?.data ?? {})) env[`${prefix}${key}`] = value;
  }
  if (source.secretRef) {
    const { name = "", optional } = source.secretRef;
    const secret = await context.sources.secret(namespace, name);
    if (!secret && !optional) throw new ContainerConfigError(`secret "${name}" not found`);
    for (const [key, value] of Object.entries(secret?.data ?? {})) {
      env[`${prefix}${key}`] = Buffer.from(value, "base64").toString();
    }
  }
}
