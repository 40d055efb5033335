import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deepFreeze } from "../../runtime/index.js";
import type { KubeVirt } from "../kinds.js";
import { configChanged, DEFAULT_HANDLER_CONFIG, handlerConfigFrom } from "./handler-config.js";

function kubevirt(name: string, namespace: string, created: string, useEmulation?: boolean): KubeVirt {
  return deepFreeze({
    metadata: { name, namespace, creationTimestamp: created },
    spec: {
      configuration: useEmulation === undefined ? {} : { developerConfiguration: { useEmulation } },
    },
  }) as KubeVirt;
}

describe("handlerConfigFrom", () => {
  test("no KubeVirt CR: KubeVirt's defaults (no emulation)", () => {
    assert.deepEqual(handlerConfigFrom([], "kubevirt"), DEFAULT_HANDLER_CONFIG);
  });

  test("useEmulation comes from the CR of the handler's namespace, the oldest one when there are more", () => {
    const crs = [
      kubevirt("late", "kubevirt", "2030-01-02T00:00:00Z", false),
      kubevirt("elsewhere", "other", "2029-01-01T00:00:00Z", false),
      kubevirt("first", "kubevirt", "2030-01-01T00:00:00Z", true),
    ];
    assert.equal(handlerConfigFrom(crs, "kubevirt").useEmulation, true);
    assert.equal(handlerConfigFrom(crs, "other").useEmulation, false);
  });

  test("a change of useEmulation is a change; the same configuration is not", () => {
    const off = handlerConfigFrom([kubevirt("kv", "kubevirt", "2030-01-01T00:00:00Z", false)], "kubevirt");
    const on = handlerConfigFrom([kubevirt("kv", "kubevirt", "2030-01-01T00:00:00Z", true)], "kubevirt");
    assert.equal(configChanged(off, on), true);
    assert.equal(
      configChanged(on, handlerConfigFrom([kubevirt("kv", "kubevirt", "x", true)], "kubevirt")),
      false,
    );
  });
});
