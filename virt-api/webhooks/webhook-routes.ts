/**
 * The webhook endpoints: POST an AdmissionReview v1, get one back with the request's uid. They
 * need no caller (the API server calls them, over TLS checked against the caBundle); a body that
 * is not an AdmissionReview is a 400.
 */
import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { WEBHOOK_PATHS, type WebhookPath } from "../../api/index.js";
import type { InferenceSource } from "../../api/instancetype/infer-from-volume.js";
import { jsonEqual } from "../../runtime/index.js";
import type { ClusterSettings, ClusterSettingsSource } from "../config/cluster-settings.js";
import type { VirtualMachine } from "../kinds.js";
import type { VirtApiMetrics } from "../server/virt-api-metrics.js";
import { type AdmissionRequest, admissionRequestOf, denied, patched, reviewOf } from "./admission-review.js";
import { type Defaulter, defaultedOrAsSent, defaultingPatch, defaultsOf, vmMutation } from "./mutators.js";
import { admissionCauses, type ObjectValidator, validatorsOf } from "./validators.js";
import { type ReferenceReader, vmReferenceCauses } from "./vm-references.js";

export interface WebhookDependencies {
  readonly settings: ClusterSettingsSource;
  /** KubeVirt's namespace: its service accounts there may change what users may not. */
  readonly installNamespace: string;
  readonly metrics: VirtApiMetrics;
  readonly log: Logger;
  /** Reads the instancetypes, preferences and revisions a VM references (conflicts, requirements). */
  readonly references?: ReferenceReader;
  /** Reads the claims and DataVolumes a VM infers its instancetype or preference from. */
  readonly inference?: InferenceSource;
}

const MUTATORS: readonly [WebhookPath, Defaulter, readonly string[]][] = [
  [WEBHOOK_PATHS.vmMutate, defaultsOf.virtualMachine, ["CREATE", "UPDATE"]],
  // KubeVirt defaults a VMI once, on CREATE: an update must not change what a running VM was given.
  [WEBHOOK_PATHS.vmiMutate, defaultsOf.virtualMachineInstance, ["CREATE"]],
  [WEBHOOK_PATHS.vmirsMutate, defaultsOf.replicaSet, ["CREATE", "UPDATE"]],
];

const VALIDATORS: readonly [WebhookPath, ObjectValidator][] = [
  [WEBHOOK_PATHS.vmValidate, validatorsOf.virtualMachine],
  [WEBHOOK_PATHS.vmiValidate, validatorsOf.virtualMachineInstance],
  [WEBHOOK_PATHS.vmirsValidate, validatorsOf.replicaSet],
  [WEBHOOK_PATHS.kubevirtValidate, validatorsOf.kubeVirt],
  [WEBHOOK_PATHS.dataVolumeValidate, validatorsOf.dataVolume],
  [WEBHOOK_PATHS.vmPoolValidate, validatorsOf.virtualMachinePool],
  [WEBHOOK_PATHS.instancetypeValidate, validatorsOf.instancetype],
  [WEBHOOK_PATHS.clusterInstancetypeValidate, validatorsOf.clusterInstancetype],
  [WEBHOOK_PATHS.preferenceValidate, validatorsOf.preference],
  [WEBHOOK_PATHS.clusterPreferenceValidate, validatorsOf.clusterPreference],
];

export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookDependencies): void {
  for (const [path, defaulter, operations] of MUTATORS) {
    app.post(path, async (request) => {
      const admission = admissionRequestOf(parseJson(request.body));
      if (
        path === WEBHOOK_PATHS.vmMutate &&
        deps.inference !== undefined &&
        operations.includes(admission.operation)
      ) {
        const response = await vmMutation(admission, deps.settings.current(), deps.inference);
        deps.metrics.admissionReview(path, response.allowed);
        return reviewOf(response);
      }
      const operationsPatch = operations.includes(admission.operation)
        ? defaultingPatch(admission, defaulter, deps.settings.current())
        : [];
      deps.metrics.admissionReview(path, true);
      return reviewOf(patched(admission.uid, operationsPatch));
    });
  }
  for (const [path, validator] of VALIDATORS) {
    app.post(path, async (request) => {
      const admission = admissionRequestOf(parseJson(request.body));
      const settings = deps.settings.current();
      const causes = admissionCauses(admission, validator, settings, deps.installNamespace);
      if (causes.length === 0 && path === WEBHOOK_PATHS.vmValidate && deps.references !== undefined) {
        causes.push(...(await referenceCauses(admission, settings, deps.references, deps.log)));
      }
      deps.metrics.admissionReview(path, causes.length === 0);
      if (causes.length > 0) {
        deps.log.debug(
          { webhook: path, namespace: admission.namespace, name: admission.name, causes: causes.length },
          "denied",
        );
      }
      return reviewOf(
        causes.length === 0 ? { uid: admission.uid, allowed: true } : denied(admission.uid, causes),
      );
    });
  }
}

/** A created or changed VM against what it references (validators.ts has checked its shape). */
async function referenceCauses(
  admission: AdmissionRequest,
  settings: ClusterSettings,
  reader: ReferenceReader,
  log: Logger,
) {
  if (admission.operation !== "CREATE" && admission.operation !== "UPDATE") return [];
  if (admission.operation === "UPDATE" && jsonEqual(specOf(admission.object), specOf(admission.oldObject)))
    return [];
  const vm = defaultedOrAsSent(admission.object, defaultsOf.virtualMachine, settings) as VirtualMachine;
  try {
    return await vmReferenceCauses(vm, reader, log);
  } catch (error) {
    // virt-controller checks again before it starts the VM: an API hiccup here must not block VMs.
    log.warn(
      { err: error, namespace: admission.namespace, name: admission.name },
      "could not read what the VM references",
    );
    return [];
  }
}

function specOf(object: unknown): unknown {
  return object && typeof object === "object" ? (object as { spec?: unknown }).spec : undefined;
}

/** The raw body as JSON; a body that is not JSON is the AdmissionReview check's to refuse. */
function parseJson(body: unknown): unknown {
  if (typeof body !== "string") return body;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
