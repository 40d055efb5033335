import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import type { JsonObject } from "../json.js";
import { parsePodLogQuery } from "./pod-log-options.js";
import { logContainer } from "./pod-log-stream.js";

const now = new Date("2026-01-01T00:10:00Z");
const parse = (query: string) => parsePodLogQuery(new URLSearchParams(query), "web", now);

describe("pods/log query", () => {
  const flags: [string, boolean][] = [
    ["", false],
    ["follow=true", true],
    ["follow=1", true],
    ["follow=", true],
    ["follow=yes", true],
    ["follow=0", false],
    ["follow=F", true],
    ["follow=False", false],
  ];
  for (const [query, expected] of flags) {
    test(`"${query}" means follow=${expected}, as apimachinery converts query booleans`, () => {
      assert.equal(parse(query).follow, expected);
    });
  }

  test("numbers are read, sinceTime becomes sinceSeconds, an empty container is none", () => {
    assert.deepEqual(parse("container=&tailLines=0&limitBytes=10&previous=true&timestamps=true"), {
      container: undefined,
      follow: false,
      previous: true,
      timestamps: true,
      tailLines: 0,
      limitBytes: 10,
    });
    assert.equal(parse("sinceTime=2026-01-01T00:08:00Z").sinceSeconds, 120);
    assert.equal(parse("sinceTime=2026-01-01T00:20:00Z").sinceSeconds, 1, "a time to come reads as now");
  });
});

describe("logContainer", () => {
  const pod: JsonObject = {
    metadata: { name: "web" },
    spec: {
      initContainers: [{ name: "init" }],
      containers: [{ name: "app" }, { name: "sidecar" }],
      ephemeralContainers: [{ name: "debugger" }],
    },
  };
  test("a named container may be of any kind; the default is the first container", () => {
    for (const name of ["init", "app", "sidecar", "debugger"])
      assert.equal(logContainer(pod, name, "web"), name);
    assert.equal(logContainer(pod, undefined, "web"), "app");
    const annotated = {
      ...pod,
      metadata: { annotations: { "kubectl.kubernetes.io/default-container": "sidecar" } },
    };
    assert.equal(logContainer(annotated, undefined, "web"), "sidecar");
    const wrongAnnotation = {
      ...pod,
      metadata: { annotations: { "kubectl.kubernetes.io/default-container": "gone" } },
    };
    assert.equal(logContainer(wrongAnnotation, undefined, "web"), "app");
    assert.throws(
      () => logContainer(pod, "nope", "web"),
      (error: unknown) => error instanceof ApiError && error.code === 400,
    );
    assert.throws(
      () => logContainer({ metadata: {}, spec: {} }, undefined, "web"),
      /a container name must be specified/,
    );
  });
});
