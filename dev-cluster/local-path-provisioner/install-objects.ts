/**
 * What `dev-cluster up` installs for the local-path provisioner, at every start: the default
 * StorageClass `local-path` and a second class `local` on the same provisioner (the name KubeVirt's
 * examples and kubevirtci give their node-local storage), the namespace `local-path-storage`, the
 * provisioner's service account with a least-privilege ClusterRole, and its Deployment pinned to
 * the local node with the volumes' base directory as a hostPath. The StorageClasses and the
 * namespace are created only when missing (an administrator may change them, the default among
 * them); the rest is applied, so that it follows the current run (the data directory, the node).
 */
import type { IDeployment } from "kubernetes-models/apps/v1/Deployment";
import type { IClusterRole } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole";
import type { IClusterRoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding";
import type { IServiceAccount } from "kubernetes-models/v1/ServiceAccount";
import {
  defineKind,
  isAlreadyExists,
  type KubeClient,
  type KubeObject,
  namespaceKind,
  type ResourceKind,
} from "../../runtime/index.js";
import { HOSTNAME_LABEL, LOCAL_PATH_PROVISIONER, type StorageClass, storageClassKind } from "./kinds.js";

export const LOCAL_PATH_STORAGE_NAMESPACE = "local-path-storage";
export const LOCAL_PATH_PROVISIONER_NAME = "local-path-provisioner";
export const DEFAULT_STORAGE_CLASS = "local-path";
/**
 * Not the default: the class KubeVirt's examples name (`storageClassName: local`, as in
 * examples/vm-alpine-datavolume.yaml), so that they apply unchanged.
 */
export const KUBEVIRT_EXAMPLES_STORAGE_CLASS = "local";
/** The provisioner's image: the dev cluster's image map runs this repository's build for it. */
export const LOCAL_PATH_PROVISIONER_IMAGE = "kubevirt-ts.io/local-path-provisioner:dev";
/** The image map key that matches it (the name after the last "/"). */
export const LOCAL_PATH_PROVISIONER_IMAGE_KEY = "local-path-provisioner";

const deploymentKind = defineKind<IDeployment>({
  group: "apps",
  version: "v1",
  kind: "Deployment",
  plural: "deployments",
  namespaced: true,
});
const serviceAccountKind = defineKind<IServiceAccount>({
  group: "",
  version: "v1",
  kind: "ServiceAccount",
  plural: "serviceaccounts",
  namespaced: true,
});
const rbac = { group: "rbac.authorization.k8s.io", version: "v1", namespaced: false } as const;
const clusterRoleKind = defineKind<IClusterRole>({ ...rbac, kind: "ClusterRole", plural: "clusterroles" });
const clusterRoleBindingKind = defineKind<IClusterRoleBinding>({
  ...rbac,
  kind: "ClusterRoleBinding",
  plural: "clusterrolebindings",
});

export interface LocalPathStorageSettings {
  /** The volumes' base directory on the host (`<data dir>/local-path`), absolute. */
  baseDir: string;
  /** The local node, where the provisioner runs and where the directories are. */
  nodeName: string;
}

/** A class of this provisioner: node-local directories, bound where the first pod lands. */
function localPathStorageClass(name: string, annotations?: Record<string, string>): StorageClass {
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name, ...(annotations ? { annotations } : {}) },
    provisioner: LOCAL_PATH_PROVISIONER,
    volumeBindingMode: "WaitForFirstConsumer",
    reclaimPolicy: "Delete",
  };
}

/** The default StorageClass of the dev cluster. */
export function defaultStorageClass(): StorageClass {
  return localPathStorageClass(DEFAULT_STORAGE_CLASS, {
    "storageclass.kubernetes.io/is-default-class": "true",
  });
}

/** The StorageClasses `dev-cluster up` makes: the default, then `local` for KubeVirt's examples. */
export function storageClasses(): StorageClass[] {
  return [defaultStorageClass(), localPathStorageClass(KUBEVIRT_EXAMPLES_STORAGE_CLASS)];
}

/** Only what it does: claims and PVs, classes, events, and nodes for their hostname label. */
export function provisionerClusterRole(): IClusterRole {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: { name: LOCAL_PATH_PROVISIONER_NAME },
    rules: [
      {
        apiGroups: [""],
        resources: ["persistentvolumeclaims"],
        verbs: ["get", "list", "watch", "update", "patch"],
      },
      {
        apiGroups: [""],
        resources: ["persistentvolumes"],
        verbs: ["get", "list", "watch", "create", "delete"],
      },
      { apiGroups: ["storage.k8s.io"], resources: ["storageclasses"], verbs: ["get", "list", "watch"] },
      { apiGroups: [""], resources: ["events"], verbs: ["create", "patch"] },
      { apiGroups: [""], resources: ["nodes"], verbs: ["get", "list", "watch"] },
    ],
  };
}

export function provisionerDeployment(settings: LocalPathStorageSettings): IDeployment {
  const labels = { app: LOCAL_PATH_PROVISIONER_NAME };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: LOCAL_PATH_PROVISIONER_NAME, namespace: LOCAL_PATH_STORAGE_NAMESPACE, labels },
    spec: {
      replicas: 1,
      // Never two at once: both would act on the same claims (harmless, but noisy events).
      strategy: { type: "Recreate" },
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: LOCAL_PATH_PROVISIONER_NAME,
          nodeSelector: { [HOSTNAME_LABEL]: settings.nodeName },
          containers: [
            {
              name: LOCAL_PATH_PROVISIONER_NAME,
              image: LOCAL_PATH_PROVISIONER_IMAGE,
              // Mounted at its host path, so the paths it writes into PVs are the node's.
              args: ["--base-dir", settings.baseDir],
              env: [{ name: "NODE_NAME", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } }],
              volumeMounts: [{ name: "data", mountPath: settings.baseDir }],
            },
          ],
          volumes: [{ name: "data", hostPath: { path: settings.baseDir, type: "DirectoryOrCreate" } }],
        },
      },
    },
  };
}

/** Installs (or brings up to date) the local-path storage objects; throws on the first failure. */
export async function installLocalPathStorage(
  client: KubeClient,
  settings: LocalPathStorageSettings,
): Promise<void> {
  await createIfMissing(client, namespaceKind, {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: LOCAL_PATH_STORAGE_NAMESPACE },
  });
  const force = { force: true } as const;
  await client.resource(serviceAccountKind).apply(
    {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: LOCAL_PATH_PROVISIONER_NAME, namespace: LOCAL_PATH_STORAGE_NAMESPACE },
    },
    force,
  );
  await client.resource(clusterRoleKind).apply(provisionerClusterRole(), force);
  await client.resource(clusterRoleBindingKind).apply(
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: LOCAL_PATH_PROVISIONER_NAME },
      roleRef: {
        apiGroup: "rbac.authorization.k8s.io",
        kind: "ClusterRole",
        name: LOCAL_PATH_PROVISIONER_NAME,
      },
      subjects: [
        {
          kind: "ServiceAccount",
          name: LOCAL_PATH_PROVISIONER_NAME,
          namespace: LOCAL_PATH_STORAGE_NAMESPACE,
        },
      ],
    },
    force,
  );
  await client.resource(deploymentKind).apply(provisionerDeployment(settings), force);
  for (const storageClass of storageClasses()) await createIfMissing(client, storageClassKind, storageClass);
}

async function createIfMissing<T extends KubeObject>(
  client: KubeClient,
  kind: ResourceKind<T>,
  object: T,
): Promise<void> {
  try {
    await client.resource(kind).create(object);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
}
