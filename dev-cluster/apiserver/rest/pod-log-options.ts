import { badRequest, invalid, type StatusCause } from "../api-error.js";
import { invalidField } from "../builtin/field-errors.js";

/** The query of GET pods/<name>/log (core/v1 PodLogOptions), parsed and validated. */
export interface PodLogOptions {
  container: string | undefined;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  limitBytes?: number;
}

/** Query booleans convert as in apimachinery: absent is false, so are "0" and "false" (any case); anything else, "" too, is true. */
function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  return !(value === "0" || value.toLowerCase() === "false");
}

function integer(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === "") return undefined;
  if (!/^[+-]?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw badRequest(`PodLogOptions.${name}: cannot parse "${value}" as an integer`);
  }
  return Number(value);
}

/** ValidatePodLogOptions, with its messages. */
function validationCauses(options: PodLogOptions, sinceTimeSent: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  if (options.tailLines !== undefined && options.tailLines < 0) {
    causes.push(invalidField("tailLines", options.tailLines, "must be greater than or equal to 0"));
  }
  if (options.limitBytes !== undefined && options.limitBytes < 1) {
    causes.push(invalidField("limitBytes", options.limitBytes, "must be greater than 0"));
  }
  if (options.sinceSeconds !== undefined && sinceTimeSent) {
    causes.push({
      reason: "FieldValueForbidden",
      message: "Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified",
      field: "",
    });
  } else if (options.sinceSeconds !== undefined && options.sinceSeconds < 1) {
    causes.push(invalidField("sinceSeconds", options.sinceSeconds, "must be greater than 0"));
  }
  return causes;
}

/**
 * Reads the log query. `sinceTime` (RFC 3339) becomes the equivalent `sinceSeconds`, the only
 * form the node agent's PodLogSource takes. Throws 400 for unparsable values and 422 (kind
 * PodLogOptions) for invalid ones.
 */
export function parsePodLogQuery(query: URLSearchParams, podName: string, now: Date): PodLogOptions {
  const container = query.get("container");
  const options: PodLogOptions = {
    container: container === null || container === "" ? undefined : container,
    follow: flag(query, "follow"),
    previous: flag(query, "previous"),
    timestamps: flag(query, "timestamps"),
  };
  const tailLines = integer(query, "tailLines");
  const sinceSeconds = integer(query, "sinceSeconds");
  const limitBytes = integer(query, "limitBytes");
  if (tailLines !== undefined) options.tailLines = tailLines;
  if (sinceSeconds !== undefined) options.sinceSeconds = sinceSeconds;
  if (limitBytes !== undefined) options.limitBytes = limitBytes;
  const sinceTime = query.get("sinceTime") ?? "";
  const causes = validationCauses(options, sinceTime !== "");
  if (causes.length > 0) throw invalid("PodLogOptions", "", podName, causes);
  if (sinceTime !== "") {
    const since = Date.parse(sinceTime);
    if (Number.isNaN(since))
      throw badRequest(`PodLogOptions.sinceTime: cannot parse "${sinceTime}" as RFC 3339`);
    options.sinceSeconds = Math.max(1, Math.ceil((now.getTime() - since) / 1000));
  }
  return options;
}
