import type { ServerResponse } from "node:http";
import type { RecordedRequest } from "./tls-backend.js";

/** The namespace of the webhooks' Services. */
export const HOOKS_NAMESPACE = "hooks";

export interface ReviewRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  name: string;
  namespace: string;
  operation: string;
  userInfo: { username: string; groups: string[] };
  object: {
    metadata: { name: string; labels?: Record<string, string> };
    data?: Record<string, string>;
  } | null;
  oldObject: { metadata: { name: string } } | null;
  dryRun: boolean;
  options: { kind: string };
}

export function reviewOf(request: RecordedRequest): ReviewRequest {
  return (JSON.parse(request.body) as { request: ReviewRequest }).request;
}

function answer(response: ServerResponse, uid: string, fields: Record<string, unknown>): void {
  response.writeHead(200, { "Content-Type": "application/json" });
  response.end(
    JSON.stringify({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      response: { uid, ...fields },
    }),
  );
}

/** Answers of the `/hold` webhook wait for this. */
let held: Promise<void> = Promise.resolve();

/** Holds the `/hold` webhook's answers until the returned function is called. */
export function holdAnswers(): () => void {
  let release = () => {};
  held = new Promise((resolve) => {
    release = resolve;
  });
  return release;
}

/** The test webhooks' behaviours, by path: mutate (adds a label), deny, deny-without-code, hold, warn, allow. */
export function handleReview(request: RecordedRequest, response: ServerResponse): void {
  const review = reviewOf(request);
  const path = request.url.split("?", 1)[0];
  switch (path) {
    case "/mutate": {
      const labels = review.object?.metadata.labels;
      const patch = labels
        ? [{ op: "add", path: "/metadata/labels/mutated", value: "yes" }]
        : [{ op: "add", path: "/metadata/labels", value: { mutated: "yes" } }];
      answer(response, review.uid, {
        allowed: true,
        patchType: "JSONPatch",
        patch: Buffer.from(JSON.stringify(patch)).toString("base64"),
      });
      return;
    }
    case "/deny":
      answer(response, review.uid, {
        allowed: false,
        status: { code: 422, reason: "Invalid", message: 'data.colour: Invalid value: "red": not allowed' },
      });
      return;
    case "/deny-without-code":
      answer(response, review.uid, { allowed: false, status: { message: "nobody may" } });
      return;
    case "/hold":
      void held.then(() => answer(response, review.uid, { allowed: true }));
      return;
    case "/warn":
      answer(response, review.uid, { allowed: true, warnings: ["colour is deprecated"] });
      return;
    default:
      answer(response, review.uid, { allowed: true });
  }
}

/** A webhook configuration with one webhook, as the tests write them. */
export interface WebhookSpec {
  name: string;
  path: string;
  rules: { operations: string[]; apiGroups?: string[]; resources: string[] }[];
  objectSelector?: Record<string, string>;
  namespaceSelector?: Record<string, string>;
  failurePolicy?: "Fail" | "Ignore";
  sideEffects?: string;
  service?: string;
  timeoutSeconds?: number;
}

export function webhookConfiguration(
  kind: "Mutating" | "Validating",
  caBundle: string,
  hook: WebhookSpec,
): string {
  const selector = (labels: Record<string, string> | undefined) =>
    labels ? JSON.stringify({ matchLabels: labels }) : "{}";
  const rules = hook.rules.map((rule) => ({
    operations: rule.operations,
    apiGroups: rule.apiGroups ?? [""],
    apiVersions: ["v1"],
    resources: rule.resources,
  }));
  return JSON.stringify({
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: `${kind}WebhookConfiguration`,
    metadata: { name: hook.name },
    webhooks: [
      {
        name: `${hook.name}.hooks.example.com`,
        clientConfig: {
          caBundle,
          service: { namespace: HOOKS_NAMESPACE, name: hook.service ?? "webhooks", path: hook.path },
        },
        rules,
        objectSelector: JSON.parse(selector(hook.objectSelector)),
        namespaceSelector: JSON.parse(selector(hook.namespaceSelector)),
        failurePolicy: hook.failurePolicy ?? "Fail",
        sideEffects: hook.sideEffects ?? "None",
        admissionReviewVersions: ["v1"],
        timeoutSeconds: hook.timeoutSeconds ?? 5,
      },
    ],
  });
}
