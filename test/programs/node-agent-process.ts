/**
 * Runs a dev-cluster node agent in a process of its own, for tests that kill it with SIGKILL
 * and start it again. argv[2] is a JSON file: { kubeconfigPath, nodeName, dataDir, imageMapPath,
 * podNetwork, apiServer, restartBackOffMs? }. Prints "adopted <json report>" once it runs pods;
 * SIGTERM stops it and leaves the pods running.
 */
import { readFileSync } from "node:fs";
import { KubeConfig } from "@kubernetes/client-node";
import { pino } from "pino";
import { startNodeAgent } from "../../dev-cluster/node-agent/node-agent.js";

interface ChildConfig {
  kubeconfigPath: string;
  nodeName: string;
  dataDir: string;
  imageMapPath: string;
  podNetwork: { bridgeName: string; cidr: string; mode?: "auto" | "netns" | "loopback" };
  apiServer: { host: string; port: number; caCertPem: string };
  restartBackOffMs?: number;
}

const config = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as ChildConfig;
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(config.kubeconfigPath);
const agent = await startNodeAgent({
  kubeConfig,
  nodeName: config.nodeName,
  dataDir: config.dataDir,
  imageMapPath: config.imageMapPath,
  podNetwork: config.podNetwork,
  apiServer: config.apiServer,
  apiForwarderPort: 0,
  log: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
  adoptedPollMs: 100,
  ...(config.restartBackOffMs ? { restartBackOff: { initialMs: config.restartBackOffMs } } : {}),
});
const report = await agent.adopted;
process.stdout.write(`adopted ${JSON.stringify(report)}\n`);
process.once("SIGTERM", () => {
  agent.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
