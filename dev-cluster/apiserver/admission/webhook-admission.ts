import type { IncomingMessage } from "node:http";
import type { Logger } from "pino";
import type { ServiceResolver } from "../aggregation/service-resolver.js";
import type { UserInfo } from "../auth/authenticator.js";
import { labelsOf } from "../objects/object-meta.js";
import type { ObjectService } from "../objects/object-service.js";
import type { ObjectWrites } from "../objects/object-writes.js";
import { AdmittedWrites } from "./admitted-writes.js";
import { WebhookDispatcher } from "./webhook-dispatcher.js";
import { WebhookSource } from "./webhook-source.js";

export interface WebhookAdmission {
  /** The writes with the webhooks called, wrapping the ones they were made from. */
  writes: ObjectWrites;
  stop(): void;
}

/** Admission webhooks (MutatingAdmissionWebhook, ValidatingAdmissionWebhook) around the object writes. */
export function createWebhookAdmission(deps: {
  service: ObjectService;
  /** The writes that admitted ones (and those no webhook applies to) are made with. */
  inner: ObjectWrites;
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
    writes: new AdmittedWrites({ inner: deps.inner, service, dispatcher, userOf: deps.userOf }),
    stop: () => source.stop(),
  };
}
