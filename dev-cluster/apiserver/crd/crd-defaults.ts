import { isJsonObject, type JsonObject } from "../json.js";

function objectField(parent: JsonObject | undefined, name: string): JsonObject | undefined {
  const value = parent?.[name];
  return isJsonObject(value) ? value : undefined;
}

/**
 * The defaults apiextensions.k8s.io/v1 applies to a CustomResourceDefinition, in place:
 * `names.singular` (lowercased kind), `names.listKind` (kind + "List"), `conversion.strategy`
 * None, and port 443 for a conversion webhook service. Fields of the wrong shape are left for
 * validation to report.
 */
export function defaultCustomResourceDefinition(crd: JsonObject): void {
  const spec = objectField(crd, "spec");
  if (spec === undefined) return;
  const names = objectField(spec, "names");
  if (names !== undefined && typeof names.kind === "string") {
    if (typeof names.singular !== "string" || names.singular === "")
      names.singular = names.kind.toLowerCase();
    if ((typeof names.listKind !== "string" || names.listKind === "") && names.kind !== "") {
      names.listKind = `${names.kind}List`;
    }
  }
  if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: "None" };
  const clientConfig = objectField(objectField(objectField(spec, "conversion"), "webhook"), "clientConfig");
  const service = objectField(clientConfig, "service");
  if (service !== undefined && (service.port === undefined || service.port === null)) service.port = 443;
}
