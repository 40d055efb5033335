#!/usr/bin/env node
import { Command, InvalidArgumentError } from "commander";
import { pino } from "pino";
import { startDevApiServer } from "./apiserver/dev-api-server.js";

function portNumber(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError("a port is a whole number from 0 to 65535 (0 picks a free one)");
  }
  return port;
}

interface UpOptions {
  dataDir: string;
  port: number;
  kubeconfig: string;
}

async function up(options: UpOptions): Promise<void> {
  const log = pino({ name: "dev-cluster" });
  const server = await startDevApiServer({
    dataDir: options.dataDir,
    port: options.port,
    kubeconfigPath: options.kubeconfig,
    log,
  });
  log.info({ url: server.url, kubeconfig: options.kubeconfig }, "dev cluster is up");
  process.stdout.write(
    `dev cluster is up at ${server.url}\n  export KUBECONFIG=${options.kubeconfig}\n  kubectl get namespaces\n`,
  );
  const shutdown = (signal: string): void => {
    log.info({ signal }, "shutting down");
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

const program = new Command("dev-cluster").description(
  "kubevirt-ts's embedded Kubernetes-compatible development cluster",
);
program
  .command("up")
  .description("start the dev cluster in the foreground (Ctrl+C stops it)")
  .option("--data-dir <dir>", "where the cluster keeps its state", ".local/dev-cluster")
  .option("--port <n>", "HTTPS port of the API server (0 picks a free port)", portNumber, 6443)
  .option("--kubeconfig <file>", "kubeconfig to write once the server is ready", ".local/kubeconfig")
  .action(async (options: UpOptions) => {
    try {
      await up(options);
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
      process.stderr.write(
        `dev-cluster: ${error instanceof Error ? error.message : String(error)}${cause}\n`,
      );
      process.exit(1);
    }
  });

await program.parseAsync(process.argv);
