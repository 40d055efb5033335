import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze } from "../../../runtime/index.js";
import type { Pod } from "../kinds.js";
import { DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST, podRequest } from "./pod-requests.js";

function pod(spec: NonNullable<Pod["spec"]>) {
  return deepFreeze<Pod>({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec });
}

describe("pod requests", () => {
  test("sum the containers, with limits standing in for missing requests", () => {
    const request = podRequest(
      pod({
        containers: [
          {
            name: "a",
            resources: { requests: { cpu: "250m", memory: "1Gi", "devices.kubevirt.io/kvm": "1" } },
          },
          { name: "b", resources: { limits: { cpu: "1", memory: "512Mi" } } },
        ],
      }),
    );
    assert.equal(request.amounts.milliCpu, 1250);
    assert.equal(request.amounts.memory, 1.5 * 1024 ** 3);
    assert.deepEqual([...request.amounts.scalar], [["devices.kubevirt.io/kvm", 1]]);
  });

  test("an init container's peak counts when it is larger; sidecars add up; overhead is added", () => {
    const request = podRequest(
      pod({
        initContainers: [
          { name: "sidecar", restartPolicy: "Always", resources: { requests: { cpu: "100m" } } },
          { name: "init", resources: { requests: { cpu: "2", memory: "64Mi" } } },
        ],
        containers: [{ name: "main", resources: { requests: { cpu: "500m", memory: "128Mi" } } }],
        overhead: { cpu: "10m", memory: "1Mi" },
      }),
    );
    // cpu: max(500m + 100m, 2 + 100m) + 10m; memory: max(128Mi, 64Mi) + 1Mi
    assert.equal(request.amounts.milliCpu, 2110);
    assert.equal(request.amounts.memory, 129 * 1024 * 1024);
  });

  test("containers requesting nothing score with kube-scheduler's defaults but reserve nothing", () => {
    const request = podRequest(pod({ containers: [{ name: "a" }, { name: "b" }] }));
    assert.equal(request.amounts.milliCpu, 0);
    assert.equal(request.amounts.memory, 0);
    assert.equal(request.nonZeroMilliCpu, 2 * DEFAULT_MILLI_CPU_REQUEST);
    assert.equal(request.nonZeroMemory, 2 * DEFAULT_MEMORY_REQUEST);
  });
});
