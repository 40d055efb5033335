// A VM's DataVolumes (KubeVirt's vm.go handleDataVolumes): each of its dataVolumeTemplates becomes a
// DataVolume owned by the VM, made as soon as the VM exists (unless the VM says
// kubevirt.io/immediate-data-volume-creation: "false", then when it starts); the VM's VMI is made only
// once every DataVolume it runs on can be used. Deleting the VM deletes them (owner references).
import { API_VERSION, CDI_GROUP, CDI_VERSION, type StoredDataVolume } from "../../api/index.js";
import type { Frozen, SharedInformer } from "../../runtime/index.js";
import type { VirtualMachine } from "../kinds.js";

/** What a VM's DataVolumes allow: nothing to wait for, wait (Provisioning), or a failure (DataVolumeError). */
export type DataVolumesState =
  | { readonly kind: "ready" }
  | { readonly kind: "provisioning" }
  | { readonly kind: "error"; readonly dataVolume: string; readonly message: string };

const IMMEDIATE_CREATION = "kubevirt.io/immediate-data-volume-creation";
/** CDI phases in which a DataVolume's claim may be used (KubeVirt's rule). */
const USABLE_PHASES = new Set(["Succeeded", "WaitForFirstConsumer", "PendingPopulation"]);

/** The DataVolumes of the VM's templates that do not exist yet, as they are to be created. */
export function missingDataVolumes(
  vm: Frozen<VirtualMachine>,
  dataVolumes: Pick<SharedInformer<StoredDataVolume>, "get">,
  starting: boolean,
): StoredDataVolume[] {
  if (!starting && vm.metadata?.annotations?.[IMMEDIATE_CREATION] === "false") return [];
  const namespace = vm.metadata?.namespace ?? "";
  return (vm.spec.dataVolumeTemplates ?? []).flatMap((template) => {
    const name = template.metadata?.name ?? "";
    if (name === "" || dataVolumes.get(`${namespace}/${name}`) !== undefined) return [];
    const dataVolume: StoredDataVolume = {
      apiVersion: `${CDI_GROUP}/${CDI_VERSION}`,
      kind: "DataVolume",
      metadata: {
        name,
        namespace,
        ...(template.metadata?.labels ? { labels: { ...template.metadata.labels } } : {}),
        ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
        ownerReferences: [
          {
            apiVersion: API_VERSION,
            kind: "VirtualMachine",
            name: vm.metadata?.name ?? "",
            uid: vm.metadata?.uid ?? "",
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: structuredClone(template.spec) as StoredDataVolume["spec"],
    };
    return [dataVolume];
  });
}

/** Whether the DataVolumes the VM's volumes name let its VMI be made. */
export function dataVolumesState(
  vm: Frozen<VirtualMachine>,
  dataVolumes: Pick<SharedInformer<StoredDataVolume>, "get">,
): DataVolumesState {
  const namespace = vm.metadata?.namespace ?? "";
  let waiting = false;
  for (const volume of vm.spec.template.spec?.volumes ?? []) {
    if (!volume.dataVolume) continue;
    const dv = dataVolumes.get(`${namespace}/${volume.dataVolume.name}`);
    const templated = (vm.spec.dataVolumeTemplates ?? []).some(
      (template) => template.metadata?.name === volume.dataVolume?.name,
    );
    // A DataVolume the VM does not make and that does not exist: its VMI says so (FailedPvcNotFound).
    if (dv === undefined) {
      waiting ||= templated;
      continue;
    }
    const phase = dv.status?.phase ?? "";
    const running = dv.status?.conditions?.find((condition) => condition.type === "Running");
    if (phase === "Failed") {
      return {
        kind: "error",
        dataVolume: volume.dataVolume.name,
        message: `DataVolume ${volume.dataVolume.name} failed to import disk image`,
      };
    }
    if (running?.status === "False" && (running.reason === "Error" || running.reason === "ImagePullFailed")) {
      return {
        kind: "error",
        dataVolume: volume.dataVolume.name,
        message: `DataVolume ${volume.dataVolume.name} importer has stopped running due to an error: ${running.message ?? ""}`,
      };
    }
    if (!USABLE_PHASES.has(phase)) waiting = true;
  }
  return waiting ? { kind: "provisioning" } : { kind: "ready" };
}
