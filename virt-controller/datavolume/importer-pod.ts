// The importer pod that fills a DataVolume's claim (CDI's importer-<name>): it mounts the claim at
// /data, and for a clone the source claim read-only at /source, and the cdi-importer program writes
// /data/disk.img from the source (cdi-importer/README.md). It restarts on failure, as CDI's does, and
// says why it failed in its termination message. It is owned by the DataVolume, and is the claim's
// first consumer: under WaitForFirstConsumer the scheduler binds the claim where the pod lands.
import { CDI_GROUP, CDI_VERSION, type StoredDataVolume } from "../../api/index.js";
import type { Frozen } from "../../runtime/index.js";
import type { Pod } from "../kinds.js";
import { CDI_APP_LABEL, requestedBytes } from "./data-volume-claim.js";

/** The port of the importer's progress metric (CDI's). */
export const IMPORTER_METRICS_PORT = 8443;
/** The label that says which DataVolume an importer pod fills. */
export const DATA_VOLUME_LABEL = "cdi.kubevirt.io/dataVolume";

/** A source the importer can read, as its environment names it. */
export type ImportSource =
  | { readonly kind: "http"; readonly url: string }
  | { readonly kind: "registry"; readonly url: string }
  | { readonly kind: "blank" }
  | { readonly kind: "pvc"; readonly claimName: string };

export function importerPodName(dv: Frozen<StoredDataVolume>): string {
  return `importer-${dv.metadata?.name ?? ""}`;
}

export function renderImporterPod(dv: Frozen<StoredDataVolume>, source: ImportSource, image: string): Pod {
  const name = dv.metadata?.name ?? "";
  const env = [
    { name: "IMPORTER_SOURCE", value: source.kind },
    ...(source.kind === "http" || source.kind === "registry"
      ? [{ name: "IMPORTER_ENDPOINT", value: source.url }]
      : []),
    { name: "IMPORTER_IMAGE_SIZE", value: String(requestedBytes(dv)) },
    { name: "OWNER_UID", value: dv.metadata?.uid ?? "" },
    { name: "IMPORTER_METRICS_PORT", value: String(IMPORTER_METRICS_PORT) },
  ];
  const clone = source.kind === "pvc";
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: importerPodName(dv),
      namespace: dv.metadata?.namespace ?? "",
      labels: { ...CDI_APP_LABEL, [DATA_VOLUME_LABEL]: name },
      ownerReferences: [
        {
          apiVersion: `${CDI_GROUP}/${CDI_VERSION}`,
          kind: "DataVolume",
          name,
          uid: dv.metadata?.uid ?? "",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: [
        {
          name: "importer",
          image,
          env,
          ports: [{ name: "metrics", containerPort: IMPORTER_METRICS_PORT, protocol: "TCP" }],
          volumeMounts: [
            { name: "cdi-data-vol", mountPath: "/data" },
            ...(clone ? [{ name: "cdi-source-vol", mountPath: "/source", readOnly: true }] : []),
          ],
          terminationMessagePolicy: "FallbackToLogsOnError",
        },
      ],
      volumes: [
        { name: "cdi-data-vol", persistentVolumeClaim: { claimName: name } },
        ...(clone
          ? [
              {
                name: "cdi-source-vol",
                persistentVolumeClaim: { claimName: source.claimName, readOnly: true },
              },
            ]
          : []),
      ],
      restartPolicy: "OnFailure",
      // The importer reads its source and writes the claim; it never talks to the API server.
      automountServiceAccountToken: false,
    },
  };
}
