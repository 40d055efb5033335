import {
  componentSelector,
  fieldEnv,
  httpGetProbe,
  metricsPort,
  pullPolicy,
  pullSecrets,
} from "./container-parts.js";
import type { ManagedObject } from "./install-strategy.js";
import { podPlacement, preferSpreadOverNodes } from "./node-placement.js";
import { COMPONENT_LABEL, managedMetadata, podTemplateLabels } from "./object-metadata.js";
import { PRIORITY_CLASS_NAME } from "./priority-class.js";
import { componentImage, type RenderContext } from "./render-context.js";
import { CONTROLLER_SERVICE_ACCOUNT } from "./service-accounts.js";

export const VIRT_CONTROLLER = "virt-controller";
export const VIRT_LAUNCHER = "virt-launcher";
/** CDI's importer image name: kubevirt-ts fills DataVolumes itself. */
export const CDI_IMPORTER = "cdi-importer";

/**
 * virt-controller: leader-elected, so its replicas (2 by default, KubeVirt's `infra.replicas`)
 * only stand by for each other. Flags as virt-controller/cli-options.ts defines them; the
 * configuration itself it reads from the KubeVirt CR.
 */
export function renderVirtControllerDeployment(context: RenderContext): ManagedObject {
  const labels = podTemplateLabels(VIRT_CONTROLLER);
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: managedMetadata(context, VIRT_CONTROLLER, {
      namespaced: true,
      extraLabels: { [COMPONENT_LABEL]: VIRT_CONTROLLER },
    }),
    spec: {
      replicas: context.infraReplicas,
      selector: componentSelector(COMPONENT_LABEL, VIRT_CONTROLLER),
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: CONTROLLER_SERVICE_ACCOUNT,
          priorityClassName: PRIORITY_CLASS_NAME,
          ...podPlacement(context.infraPlacement, preferSpreadOverNodes(COMPONENT_LABEL, VIRT_CONTROLLER)),
          ...pullSecrets(context),
          // It needs no privilege: it only talks to the API server.
          securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
          containers: [
            {
              name: VIRT_CONTROLLER,
              image: componentImage(context, VIRT_CONTROLLER),
              ...pullPolicy(context),
              args: [
                "--namespace",
                context.namespace,
                "--launcher-image",
                componentImage(context, VIRT_LAUNCHER),
                "--importer-image",
                componentImage(context, CDI_IMPORTER),
                // The health and metrics servers listen on 0.0.0.0 unless told otherwise:
                // components bind their pod IP (two replicas never collide on the dev cluster's
                // shared loopback).
                "--address",
                "$(POD_IP)",
              ],
              env: [fieldEnv("POD_IP", "status.podIP")],
              // https://POD:8443/metrics with kubevirt-controller-certs, once virt-operator issued it.
              ports: [metricsPort()],
              // runtime/manager/health-server.ts, plain HTTP on its own port: /readyz is 200 once
              // the informer caches synced (on every replica, leader or not), /healthz while the
              // manager runs; neither waits for the certificate.
              readinessProbe: httpGetProbe("/readyz", { timeoutSeconds: 10 }),
              livenessProbe: httpGetProbe("/healthz", { initialDelaySeconds: 15, timeoutSeconds: 10 }),
              resources: { requests: { cpu: "10m", memory: "150Mi" } },
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
            },
          ],
        },
      },
    },
  };
}
