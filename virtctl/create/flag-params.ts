/**
 * The `key:value,key:value` parameters of virtctl's volume flags, as KubeVirt writes them:
 * `--volume-containerdisk src:registry:5000/img:tag,name:root`. A value may contain colons
 * (registry ports, tags); the key is what comes before the first one.
 */
import { CliError } from "../errors/cli-error.js";

export function parseFlagParams(
  flag: string,
  text: string,
  supported: readonly string[],
): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of text.split(",")) {
    const colon = pair.indexOf(":");
    const key = colon < 0 ? pair : pair.slice(0, colon);
    const value = colon < 0 ? "" : pair.slice(colon + 1);
    if (!supported.includes(key)) {
      throw new CliError(
        `failed to parse "--${flag}=${text}": unknown param "${key}" (supported: ${supported.join(", ")})`,
      );
    }
    if (value === "") throw new CliError(`failed to parse "--${flag}=${text}": param "${key}" has no value`);
    if (key in params) throw new CliError(`failed to parse "--${flag}=${text}": param "${key}" given twice`);
    params[key] = value;
  }
  return params;
}
