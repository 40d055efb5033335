// The importer's progress, read as CDI reads it: its pod serves the Prometheus metric
// `kubevirt_cdi_import_progress_total{ownerUID="<DataVolume uid>"} <percent>`. A pod that does not
// answer in time simply has no progress yet (the status keeps what it said before).
import { request } from "node:http";

const TIMEOUT_MS = 1500;
const MAX_BYTES = 64 * 1024;

export async function readImportProgress(
  podIp: string,
  port: number,
  ownerUid: string,
): Promise<number | undefined> {
  const text = await fetchMetrics(podIp, port).catch(() => undefined);
  if (text === undefined) return undefined;
  for (const line of text.split("\n")) {
    if (!line.startsWith("kubevirt_cdi_import_progress_total{")) continue;
    if (!line.includes(`ownerUID="${ownerUid}"`)) continue;
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (Number.isFinite(value) && value >= 0 && value <= 100) return value;
  }
  return undefined;
}

function fetchMetrics(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const call = request({ host, port, path: "/metrics", timeout: TIMEOUT_MS }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
        if (body.length > MAX_BYTES) call.destroy(new Error("metrics too large"));
      });
      response.on("end", () =>
        response.statusCode === 200 ? resolve(body) : reject(new Error(`HTTP ${response.statusCode}`)),
      );
    });
    call.on("timeout", () => call.destroy(new Error("timed out")));
    call.on("error", reject);
    call.end();
  });
}
