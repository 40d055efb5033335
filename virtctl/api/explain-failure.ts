/**
 * Turns a failed request into the one line virtctl prints: what went wrong, in the user's terms,
 * and what to do about it. Messages from the server (its Status) are passed on, not reworded:
 * virt-api's refusals ("VM is already running") are KubeVirt's, and scripts match them.
 */
import { CliError, oneLine } from "../errors/cli-error.js";
import type { ApiClient } from "./api-client.js";
import { ApiError } from "./api-error.js";
import { type KubeVirtResource, namespacePath, SINGULAR } from "./kubevirt-paths.js";

export interface FailureContext {
  /** What was being done, for the message: `cannot start VirtualMachine x`. */
  readonly action: string;
  readonly resource: KubeVirtResource;
  readonly name: string;
}

export async function explainFailure(
  api: ApiClient,
  error: unknown,
  context: FailureContext,
): Promise<CliError> {
  if (error instanceof CliError) return error;
  if (!(error instanceof ApiError))
    return new CliError(`${context.action}: ${oneLine(error)}`, { cause: error });
  switch (error.code) {
    case 401:
      return new CliError(
        `not authenticated by ${api.server.origin}: ${error.message}; check the credentials in ${api.origin}`,
        { cause: error },
      );
    case 403:
      return new CliError(`not allowed: ${error.message}`, { cause: error });
    case 404:
      if (error.objectName === context.name) return notFound(api, context.resource, context.name, error);
      return new CliError(`${context.action}: ${error.message}; is KubeVirt installed?`, { cause: error });
    case 503:
      return new CliError(
        `${context.action}: ${error.message}; is virt-api running? (kubectl get apiservice v1.subresources.kubevirt.io)`,
        { cause: error },
      );
    default:
      return new CliError(`${context.action}: ${error.message}`, { cause: error });
  }
}

/** `virtualmachine "x" not found in namespace "y"`, or that the namespace itself is missing. */
export async function notFound(
  api: ApiClient,
  resource: KubeVirtResource,
  name: string,
  cause?: unknown,
): Promise<CliError> {
  const namespace = api.namespace;
  if (await namespaceMissing(api, namespace)) {
    return new CliError(`namespace "${namespace}" not found: pass -n with an existing namespace`, { cause });
  }
  return new CliError(`${SINGULAR[resource]} "${name}" not found in namespace "${namespace}"`, { cause });
}

/** True only when the API server says the namespace does not exist (a user may not be allowed to look). */
async function namespaceMissing(api: ApiClient, namespace: string): Promise<boolean> {
  try {
    const answer = await api.request("GET", namespacePath(namespace));
    return answer.code === 404;
  } catch {
    return false;
  }
}
