import type { IncomingMessage } from "node:http";
import type { Logger } from "pino";
import type { ServiceResolver } from "../aggregation/service-resolver.js";
import type { UserInfo } from "../auth/authenticator.js";
import { labelsOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import { AdmittedWrites } from "./admitted-writes.js";
import { WebhookDispatcher } from "./webhook-dispatcher.js";
import { WebhookSource } from "./webhook-source.js";

export interface WebhookAdmission {
  /** The REST writes with the webhooks called. */
  writes: AdmittedWrites;
  stop(): void;
}

/** Admission webhooks (MutatingAdmissionWebhook, ValidatingAdmissionWebhook) for the REST writes. */
export function createWebhookAdmission(deps: {
  service: ObjectService;
  resolver: ServiceResolver;
  log: Logger;
  userOf: (request: IncomingMessage) => UserInfo;
}): WebhookAdmission {
  const { service } = deps;
  const source = new WebhookSource(service.store);
  const namespaces = service.registry.find("", "v1", "namespaces");
  const dispatcher = new WebhookDispatcher({
    source,
    resolver: deps.resolver,
    registry: service.registry,
    namespaceLabels: (name) => {
      const namespace = namespaces && service.find(namespaces, "", name);
      return namespace ? labelsOf(namespace) : undefined;
    },
    log: deps.log.child({ component: "admission-webhooks" }),
  });
  return {
    writes: new AdmittedWrites({ service, dispatcher, userOf: deps.userOf }),
    stop: () => source.stop(),
  };
}
