/**
 * `virtctl version`: the client's version, then the server's (virt-api's
 * `/apis/subresources.kubevirt.io/v1/version`, through the API server). When there is no server
 * to ask, the client's version is still printed and one line says why the server's is missing.
 */
import { Command } from "commander";
import { readVersionInfo } from "../../api/index.js";
import type { ApiClient } from "../api/api-client.js";
import { ApiError } from "../api/api-error.js";
import { SUBRESOURCE_GROUP_VERSION } from "../api/kubevirt-paths.js";
import { CliError } from "../errors/cli-error.js";
import { formatVersionInfo } from "../version/version-info.js";
import { type CommandDeps, connectionFlagsOf } from "./command-deps.js";

export function versionCommand(deps: CommandDeps): Command {
  return new Command("version")
    .description("Print the client and server versions")
    .action(async (_flags: unknown, command: Command) => {
      deps.io.stdout.write(`Client Version: ${formatVersionInfo({ ...readVersionInfo() })}\n`);
      const api = deps.connect(connectionFlagsOf(command));
      const server = await serverVersion(api);
      deps.io.stdout.write(`Server Version: ${formatVersionInfo(server)}\n`);
    });
}

async function serverVersion(api: ApiClient): Promise<Record<string, unknown>> {
  try {
    return await api.get<Record<string, unknown>>(`${SUBRESOURCE_GROUP_VERSION}/version`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const what = `no server version from ${api.server.origin}`;
    if (error.code === 404) {
      throw new CliError(`${what}: it does not serve subresources.kubevirt.io/v1; is KubeVirt installed?`, {
        cause: error,
      });
    }
    if (error.code === 503) {
      throw new CliError(`${what}: virt-api is not available (${error.message}); is it running?`, {
        cause: error,
      });
    }
    throw new CliError(`${what}: ${error.message}`, { cause: error });
  }
}
