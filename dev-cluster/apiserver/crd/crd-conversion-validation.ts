import type { StatusCause } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { isDns1035Label } from "./dns-names.js";
import { child, forbidden, index, invalid, notSupported, RawValue, required } from "./field-errors.js";
import { goQuote } from "./go-format.js";

const ACCEPTED_REVIEW_VERSIONS = ["v1", "v1beta1"];

function object(value: JsonValue | undefined): JsonObject | undefined {
  return isJsonObject(value) ? value : undefined;
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.map((item) => (typeof item === "string" ? item : "")) : [];
}

/**
 * validateCustomResourceConversion on the internal version of the CRD, hence its field names:
 * v1's `conversion.webhook.clientConfig` is reported as `spec.conversion.webhookClientConfig`.
 */
export function conversionErrors(conversion: JsonValue | undefined): StatusCause[] {
  const spec = object(conversion);
  if (spec === undefined) return [];
  const path = "spec.conversion";
  const strategy = typeof spec.strategy === "string" ? spec.strategy : "";
  const webhook = object(spec.webhook);
  const clientConfig = object(webhook?.clientConfig);
  const reviewVersions = strings(webhook?.conversionReviewVersions);
  const causes: StatusCause[] = [];
  if (strategy === "") causes.push(required(child(path, "strategy")));
  else if (strategy !== "None" && strategy !== "Webhook") {
    causes.push(notSupported(child(path, "strategy"), strategy, ["None", "Webhook"]));
  }
  if (strategy !== "Webhook") {
    const detail = "should not be set when strategy is not set to Webhook";
    if (clientConfig !== undefined) causes.push(forbidden(child(path, "webhookClientConfig"), detail));
    if (reviewVersions.length > 0) causes.push(forbidden(child(path, "conversionReviewVersions"), detail));
    return causes;
  }
  causes.push(...clientConfigErrors(clientConfig, child(path, "webhookClientConfig")));
  causes.push(...reviewVersionErrors(reviewVersions, child(path, "conversionReviewVersions")));
  return causes;
}

function clientConfigErrors(clientConfig: JsonObject | undefined, path: string): StatusCause[] {
  if (clientConfig === undefined) return [required(path, "required when strategy is set to Webhook")];
  const hasUrl = typeof clientConfig.url === "string";
  const service = object(clientConfig.service);
  if (hasUrl === (service !== undefined))
    return [required(path, "exactly one of url or service is required")];
  if (hasUrl) {
    const url = String(clientConfig.url);
    if (!URL.canParse(url) || !url.startsWith("https://")) {
      return [invalid(child(path, "url"), url, "'https' is the only allowed URL scheme")];
    }
    return [];
  }
  const causes: StatusCause[] = [];
  for (const name of ["name", "namespace"]) {
    if (typeof service?.[name] !== "string" || service[name] === "") {
      causes.push(required(child(path, "service", name), `service ${name} is required`));
    }
  }
  return causes;
}

function reviewVersionErrors(versions: string[], path: string): StatusCause[] {
  if (versions.length === 0) return [required(path)];
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  versions.forEach((version, position) => {
    if (seen.has(version)) {
      causes.push(invalid(index(path, position), version, "duplicate version"));
      return;
    }
    seen.add(version);
    for (const problem of isDns1035Label(version))
      causes.push(invalid(index(path, position), version, problem));
  });
  if (!versions.some((version) => ACCEPTED_REVIEW_VERSIONS.includes(version))) {
    const shown = new RawValue(`[]string{${versions.map(goQuote).join(", ")}}`);
    causes.push(invalid(path, shown, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(", ")}`));
  }
  return causes;
}
