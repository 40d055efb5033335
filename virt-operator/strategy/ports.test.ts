// Every port the operator applies (the strategy's Services and pod templates, and the deploy bundle's
// operator Deployment) names its protocol: it is a key of the ports list, and server-side apply on
// Kubernetes 1.20 refuses a port that omits it (1.21 and later default it to TCP, as the dev API
// server does). Found installing on the real 1.20 API server of ../shared/real-k8s.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { renderOperatorBundle } from "../deploy/render-operator-bundle.js";
import { TEST_OPERATOR, testKubeVirt } from "../testing/strategy-fixtures.js";
import { TEST_TRUST } from "../testing/test-trust.js";
import { renderStrategy } from "./render-strategy.js";

/** Every `ports` list item under `value`, with the path it was found at. */
function portsOf(value: unknown, path: string, found: [string, Record<string, unknown>][] = []) {
  if (Array.isArray(value)) {
    for (const [position, item] of value.entries()) portsOf(item, `${path}[${position}]`, found);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key !== "ports" || !Array.isArray(child)) portsOf(child, `${path}.${key}`, found);
      else for (const [position, port] of child.entries()) found.push([`${path}.ports[${position}]`, port]);
    }
  }
  return found;
}

describe("ports", () => {
  test("every port of the install strategy and the deploy bundle names its protocol", () => {
    const strategy = renderStrategy(TEST_OPERATOR, testKubeVirt(), TEST_TRUST);
    const bundle = renderOperatorBundle({ registry: "registry.example/kubevirt-ts", tag: "v0" });
    const objects: Record<string, unknown>[] = [...strategy.objects, ...bundle];
    const ports = objects.flatMap((object) => portsOf(object, String(object.kind)));
    assert.ok(ports.length >= 6, `found ${ports.length} ports`);
    for (const [path, port] of ports) assert.equal(port.protocol, "TCP", path);
  });
});
