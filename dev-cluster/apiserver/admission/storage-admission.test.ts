import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { defaultStorageClassName } from "./storage-admission.js";

const storageClass = (name: string, created: string, isDefault: string | undefined) => ({
  metadata: {
    name,
    creationTimestamp: created,
    ...(isDefault === undefined
      ? {}
      : { annotations: { "storageclass.kubernetes.io/is-default-class": isDefault } }),
  },
  provisioner: "example.com/x",
});

describe("defaultStorageClassName", () => {
  test("is undefined without a class marked default", () => {
    const classes = [
      storageClass("a", "2024-01-01T00:00:00Z", undefined),
      storageClass("b", "2024-01-01T00:00:00Z", "false"),
    ];
    assert.equal(defaultStorageClassName(classes), undefined);
  });

  test("picks the newest default, then the first by name", () => {
    const classes = [
      storageClass("old", "2024-01-01T00:00:00Z", "true"),
      storageClass("new-b", "2024-02-01T00:00:00Z", "true"),
      storageClass("new-a", "2024-02-01T00:00:00Z", "true"),
      storageClass("newest-not-default", "2024-03-01T00:00:00Z", undefined),
    ];
    assert.equal(defaultStorageClassName(classes), "new-a");
    assert.equal(defaultStorageClassName(classes.slice(0, 1)), "old");
  });

  test("honours the beta annotation", () => {
    const beta = {
      metadata: {
        name: "beta",
        annotations: { "storageclass.beta.kubernetes.io/is-default-class": "true" },
      },
    };
    assert.equal(defaultStorageClassName([beta]), "beta");
  });
});
