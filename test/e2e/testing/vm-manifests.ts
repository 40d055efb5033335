// VirtualMachine manifests for the end-to-end test and the density benchmark: the user's
// examples/vm-tiny.yaml (the test guest), renamed and adjusted, so the tests boot what users apply.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";

/** The parts of examples/vm-tiny.yaml the tests change. */
interface TinyVmManifest {
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec: {
    runStrategy: string;
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        domain: {
          resources: { requests: { memory: string } };
          devices: {
            disks: { name: string }[];
            interfaces?: { name: string; ports?: { name?: string; port: number; protocol?: string }[] }[];
          };
        };
        terminationGracePeriodSeconds: number;
        volumes: { name: string; cloudInitNoCloud?: { userData: string } }[];
      };
    };
  };
}

export interface TinyVmOptions {
  name: string;
  namespace: string;
  runStrategy?: string;
  /** Guest memory; the example's 128Mi by default (96Mi is the least the test guest boots with). */
  memory?: string;
  /** Replaces the example's cloud-init user-data. */
  userData?: string;
  terminationGracePeriodSeconds?: number;
  /** Extra labels on the VM (not its VMIs). */
  labels?: Record<string, string>;
}

export function readTinyVm(repoRoot: string): TinyVmManifest {
  return parse(readFileSync(join(repoRoot, "examples", "vm-tiny.yaml"), "utf8")) as TinyVmManifest;
}

/** examples/vm-tiny.yaml with the given name, namespace and adjustments. */
export function tinyVm(repoRoot: string, options: TinyVmOptions): TinyVmManifest {
  const vm = readTinyVm(repoRoot);
  vm.metadata = { name: options.name, namespace: options.namespace, labels: { ...options.labels } };
  vm.spec.template.metadata.labels = { "kubevirt.io/vm": options.name };
  if (options.runStrategy) vm.spec.runStrategy = options.runStrategy;
  const template = vm.spec.template.spec;
  if (options.memory) template.domain.resources.requests.memory = options.memory;
  if (options.terminationGracePeriodSeconds !== undefined) {
    template.terminationGracePeriodSeconds = options.terminationGracePeriodSeconds;
  }
  if (options.userData !== undefined) {
    const cloudInit = template.volumes.find((volume) => volume.cloudInitNoCloud);
    if (!cloudInit?.cloudInitNoCloud) throw new Error("examples/vm-tiny.yaml has no cloudInitNoCloud volume");
    cloudInit.cloudInitNoCloud.userData = options.userData;
  }
  return vm;
}

/** A VM whose extra disk `diskName` names no volume: semantically invalid, nothing may be created for it. */
export function vmWithDiskWithoutVolume(repoRoot: string, options: TinyVmOptions & { diskName: string }) {
  const vm = tinyVm(repoRoot, options);
  vm.spec.template.spec.domain.devices.disks.push({ name: options.diskName });
  return vm;
}

/**
 * Several objects for one `kubectl apply -f -`, as a multi-document YAML stream (what users write). Not a
 * `kind: List`: kubectl validates a List against /openapi/v2, which the dev cluster does not serve.
 */
export function asDocuments(objects: readonly object[]): string {
  return objects.map((object) => stringify(object)).join("---\n");
}
