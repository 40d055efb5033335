// The pods virt-controller makes for VMIs: launcher pods and hotplug attachment pods. Its one pod
// informer (shared by the VMI and DataVolume controllers, so one selector) watches only these.
import { LABELS } from "../../api/index.js";
import { ATTACHMENT_POD } from "./attachment-pod.js";
import { LAUNCHER } from "./launcher-pod.js";

export const VMI_PODS_SELECTOR = `${LABELS.app} in (${LAUNCHER.appLabelValue},${ATTACHMENT_POD.appLabelValue})`;

/** The index of the pod informer that finds a VMI's pods (launcher and attachment) by its uid. */
export const PODS_BY_OWNER_UID = "ownerUid";
