import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Frozen, wireTime } from "../../../runtime/index.js";
import { type ContainerConfig, resolveContainerConfig } from "../containers/container-config.js";
import { buildContainerRoot } from "../containers/container-root.js";
import { ContainerConfigError } from "../containers/field-ref.js";
import { loadNodeImages, type ResolvedImage, resolveImage } from "../containers/image-map.js";
import { prepareTerminationMessageFile, terminationMessageFile } from "../containers/termination-message.js";
import type { CachedPod, Container, PodIdentity } from "../kinds.js";
import { containerLogPath } from "../logs/log-paths.js";
import type { PodNetworkAttachment } from "../network/pod-network.js";
import { type ContainerProcess, launchContainerProcess, StartError } from "../process/container-process.js";
import type { ContainerRecord } from "../state/pod-record.js";
import { pullRetryDelayMs } from "./back-off.js";
import type { PodSandbox } from "./pod-sandbox.js";
import type { WorkerDeps } from "./worker-deps.js";

/** What a started process was given (exec probes run with the same). */
export type LaunchedConfig = Pick<ContainerConfig, "env" | "cwd">;

export type StartOutcome =
  | { kind: "started"; process: ContainerProcess; config: LaunchedConfig }
  /** The image is not in the image map: ErrImagePull, retried after the pull back-off. */
  | { kind: "image-missing" }
  /** env or volumes refer to something missing: CreateContainerConfigError. */
  | { kind: "config-error" }
  /** The process could not be started: terminated with StartError (exit code 128). */
  | { kind: "start-error" };

export interface StartRequest {
  deps: WorkerDeps;
  pod: CachedPod;
  identity: PodIdentity;
  container: Frozen<Container>;
  record: ContainerRecord;
  sandbox: PodSandbox;
  network: PodNetworkAttachment;
}

/**
 * Starts one instance of a container, updating its record the way kubelet's status would move:
 * image resolution, configuration, then the process. The record is changed here and saved by
 * the caller right after (the process is already running by then).
 */
export async function startContainer(request: StartRequest): Promise<StartOutcome> {
  const { deps, container, record } = request;
  const now = deps.clock.now();
  const image = resolveImage(
    await loadNodeImages(deps.imageMapPath, deps.builtInImages),
    container.image ?? "",
  );
  if (!image) {
    const attempts = (record.pull?.attempts ?? 0) + 1;
    const message = `image "${container.image ?? ""}" is not in the node agent's image map (${deps.imageMapPath})`;
    record.pull = {
      attempts,
      failedAt: now,
      retryAt: now + pullRetryDelayMs(deps.imagePullBackOff, attempts),
      message,
    };
    return { kind: "image-missing" };
  }
  record.pull = undefined;
  let config: ContainerConfig;
  try {
    config = await resolveContainerConfig(configContext(request, image));
    record.configError = undefined;
  } catch (error) {
    if (!(error instanceof ContainerConfigError)) throw error;
    record.configError = error.message;
    return { kind: "config-error" };
  }
  return launch(request, image, config);
}

async function launch(
  request: StartRequest,
  image: ResolvedImage,
  config: ContainerConfig,
): Promise<StartOutcome> {
  const { deps, identity, container, record } = request;
  const instance = record.containerID ? record.restartCount + 1 : record.restartCount;
  if (record.terminated) record.lastTerminated = record.terminated;
  record.terminated = undefined;
  record.restartCount = instance;
  record.containerID = `kubevirt-ts://${randomBytes(32).toString("hex")}`;
  record.imageID = image.imageID;
  record.startedAt = wireTime(deps.clock.now());
  const logPath = containerLogPath(deps.logsRoot, identity, container.name, instance);
  const exitCodePath = exitFilePath(request.sandbox.podDir, container.name, instance);
  mkdirSync(dirname(logPath), { recursive: true });
  mkdirSync(dirname(exitCodePath), { recursive: true });
  rmSync(exitCodePath, { force: true });
  // Each instance starts with an empty message file, as kubelet gives each a new one.
  prepareTerminationMessageFile(terminationMessageFile(request.sandbox.podDir, container.name));
  buildContainerRoot(containerRootDir(request.sandbox.podDir, container.name), config.mounts);
  try {
    const process = await launchContainerProcess(
      {
        command: config.command,
        env: config.env,
        cwd: config.cwd,
        logPath,
        exitCodePath,
        execPrefix: deps.network.execPrefix(request.network),
      },
      deps.clock,
    );
    record.process = { pid: process.pid, startTicks: process.startTicks };
    return { kind: "started", process, config };
  } catch (error) {
    if (!(error instanceof StartError)) throw error;
    const finishedAt = wireTime(deps.clock.now());
    record.terminated = {
      exitCode: 128,
      reason: "StartError",
      message: error.message,
      startedAt: record.startedAt,
      finishedAt,
      containerID: record.containerID,
    };
    return { kind: "start-error" };
  }
}

/** The Events kubelet records for a start attempt's outcome. */
export function startEvents(
  outcome: StartOutcome,
  container: Frozen<Container>,
  record: ContainerRecord,
): ["Normal" | "Warning", string, string][] {
  const image = container.image ?? "";
  switch (outcome.kind) {
    case "started":
      return [
        ["Normal", "Pulled", `Container image "${image}" already present on machine`],
        ["Normal", "Created", `Created container ${container.name}`],
        ["Normal", "Started", `Started container ${container.name}`],
      ];
    case "image-missing":
      return [
        ["Warning", "Failed", `Failed to pull image "${image}": ${record.pull?.message ?? ""}`],
        ["Warning", "Failed", "Error: ErrImagePull"],
      ];
    case "config-error":
      return [["Warning", "Failed", `Error: ${record.configError ?? ""}`]];
    case "start-error":
      return [["Warning", "Failed", `Error: ${record.terminated?.message ?? ""}`]];
  }
}

/** The container's tree of mount symlinks (KUBEVIRT_TS_ROOT). */
export function containerRootDir(podDir: string, container: string): string {
  return join(podDir, "containers", container, "root");
}

/** Where the process wrapper leaves the exit status of one instance. */
export function exitFilePath(podDir: string, container: string, instance: number): string {
  return join(podDir, "containers", container, `${instance}.exit`);
}

function configContext(request: StartRequest, image: ResolvedImage) {
  const { deps, pod, container, sandbox, network, identity } = request;
  return {
    pod,
    container,
    image,
    network,
    apiEndpoint: deps.apiEndpoint,
    ...(sandbox.serviceAccountDir ? { serviceAccountDir: sandbox.serviceAccountDir } : {}),
    volumePaths: sandbox.volumePaths,
    defaultPath: deps.defaultPath,
    podDir: sandbox.podDir,
    rootDir: containerRootDir(sandbox.podDir, container.name),
    terminationMessageFile: terminationMessageFile(sandbox.podDir, container.name),
    agentEnv: { ...deps.agentEnv, KUBEVIRT_TS_POD_UID: identity.uid, KUBEVIRT_TS_CONTAINER: container.name },
    sources: deps.sources,
  };
}
