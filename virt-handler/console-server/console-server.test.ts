// The console server's TLS and HTTP surface without a VM: it waits for its certificate, refuses
// callers other than virt-api, answers refusals as Kubernetes Status objects, and rotates its
// certificate without a restart. (Consoles, VNC and pause on a real guest: console-qemu.test.ts.)
import assert from "node:assert/strict";
import { once } from "node:events";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import { eventually } from "../../test/harness/api-server-fixture.js";
import {
  type ConsolePki,
  issueConsolePki,
  SettableTlsSource,
  serverMaterial,
} from "../testing/console-certificates.js";
import { type ConsoleEndpoint, openWebSocket, send, subresourcePath } from "../testing/console-client.js";
import { ConsoleServer } from "./console-server.js";
import { HttpError } from "./http-status.js";
import type { DomainLocator } from "./vmi-domain-locator.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

/** No VM runs here: "stopped" is known but not running, anything else is not on this node. */
const noVms: DomainLocator = {
  locate(namespace, name) {
    if (name === "stopped")
      throw new HttpError(409, "Conflict", `VirtualMachineInstance ${name} is not running`);
    throw new HttpError(404, "NotFound", `virtualmachineinstance ${namespace}/${name} is not on node n1`);
  },
};

describe("console server: TLS and refusals", () => {
  const tls = new SettableTlsSource();
  const stop = new AbortController();
  let server: ConsoleServer;
  let running: Promise<void>;
  let pki: ConsolePki;
  let endpoint: ConsoleEndpoint;
  /** What the server serves now (changed by the rotation test). */
  let serving: ConsolePki;

  before(async () => {
    pki = await issueConsolePki();
    server = new ConsoleServer({ host: "127.0.0.1", port: 0, tls, tlsOrigin: "test", domains: noVms, log });
    running = server.run(stop.signal);
  });

  after(async () => {
    stop.abort();
    await running;
  });

  test("listens only once TLS material exists", async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(server.address, undefined, "no certificate, no listener");
    tls.set(serverMaterial(pki));
    serving = pki;
    const address = await eventually("the server to listen", () => server.address);
    endpoint = { ...address, caPem: pki.ca.certPem };
  });

  test("a client without a certificate fails the TLS handshake", async () => {
    const outcome = await openWebSocket(endpoint, subresourcePath("default", "vm", "console"), undefined);
    assert.equal(outcome.kind, "failed");
    await assert.rejects(send(endpoint, "PUT", subresourcePath("default", "vm", "pause"), undefined));
  });

  test("a certificate of the right CA but another common name gets 403", async () => {
    const outcome = await openWebSocket(endpoint, subresourcePath("default", "vm", "console"), pki.stranger);
    assert.equal(outcome.kind, "refused");
    if (outcome.kind !== "refused") return;
    assert.equal(outcome.status, 403);
    const status = JSON.parse(outcome.body);
    assert.equal(status.kind, "Status");
    assert.match(status.message, /only virt-api may connect .*virt-controller/);
    const put = await send(endpoint, "PUT", subresourcePath("default", "vm", "pause"), pki.stranger);
    assert.equal(put.status, 403);
  });

  test("virt-api gets Kubernetes Status refusals: 404 not here, 409 not running, 405, 400, 404 path", async () => {
    const cases: Array<[method: string, path: string, status: number, reason: string]> = [
      ["PUT", subresourcePath("default", "elsewhere", "pause"), 404, "NotFound"],
      ["PUT", subresourcePath("default", "stopped", "unpause"), 409, "Conflict"],
      ["GET", subresourcePath("default", "vm", "pause"), 405, "MethodNotAllowed"],
      ["GET", subresourcePath("default", "vm", "console"), 400, "BadRequest"],
      ["GET", "/v1/namespaces/default/pods/x/console", 404, "NotFound"],
    ];
    for (const [method, path, code, reason] of cases) {
      const answer = await send(endpoint, method, path, pki.virtApi);
      assert.equal(answer.status, code, `${method} ${path}`);
      assert.deepEqual(
        { ...JSON.parse(answer.body), message: undefined },
        { kind: "Status", apiVersion: "v1", status: "Failure", reason, code, message: undefined },
      );
    }
    const upgrades: Array<[path: string, status: number, message: string]> = [
      [
        subresourcePath("ns1", "elsewhere", "console"),
        404,
        "virtualmachineinstance ns1/elsewhere is not on node n1",
      ],
      [subresourcePath("ns1", "stopped", "vnc"), 409, "VirtualMachineInstance stopped is not running"],
    ];
    for (const [path, code, message] of upgrades) {
      const upgrade = await openWebSocket(endpoint, path, pki.virtApi);
      assert.equal(upgrade.kind, "refused", path);
      if (upgrade.kind !== "refused") continue;
      assert.equal(upgrade.status, code);
      assert.equal(JSON.parse(upgrade.body).message, message);
    }
  });

  test("a rotated certificate (new CA) is served without a restart", async () => {
    const rotated = await issueConsolePki("kubevirt-ca-rotated");
    const path = subresourcePath("default", "elsewhere", "pause");
    tls.set(serverMaterial(rotated));
    serving = rotated;
    const withNewCa = { ...endpoint, caPem: rotated.ca.certPem };
    const answer = await send(withNewCa, "PUT", path, rotated.virtApi);
    assert.equal(answer.status, 404, "the new CA verifies the server, and the server the new client");
    await assert.rejects(
      send(endpoint, "PUT", path, pki.virtApi),
      "the old CA no longer verifies the server",
    );
    await assert.rejects(send(withNewCa, "PUT", path, pki.virtApi), "an old client certificate is refused");
    assert.equal(server.address?.port, endpoint.port, "same listener");
  });

  test("a port that is taken is tried again until it is free", async () => {
    const blocker = createNetServer();
    blocker.listen(0, "127.0.0.1");
    await once(blocker, "listening");
    const port = (blocker.address() as AddressInfo).port;
    const stopSecond = new AbortController();
    const second = new ConsoleServer({
      host: "127.0.0.1",
      port,
      tls,
      tlsOrigin: "test",
      domains: noVms,
      log,
    });
    const secondRunning = second.run(stopSecond.signal);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(second.address, undefined, "not listening while the port is taken");
      await new Promise((resolve) => blocker.close(resolve));
      const address = await eventually("the second server to listen", () => second.address, 10_000);
      assert.equal(address.port, port);
      const answer = await send({ ...address, caPem: serving.ca.certPem }, "PUT", "/v1/x", serving.virtApi);
      assert.equal(answer.status, 404, "it serves");
    } finally {
      stopSecond.abort();
      await secondRunning;
    }
  });
});
