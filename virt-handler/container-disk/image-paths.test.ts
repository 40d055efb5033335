import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ContainerDiskError } from "./container-disk-source.js";
import { canonicalPathInImage, pathInImageComponents } from "./image-paths.js";

const IMAGE = "localhost/guest:v1";

describe("paths inside an image, as text", () => {
  test("one optional leading slash; the same file in one spelling", () => {
    assert.deepEqual(pathInImageComponents(IMAGE, "/disk/disk.qcow2"), ["disk", "disk.qcow2"]);
    assert.deepEqual(pathInImageComponents(IMAGE, "disk/disk.qcow2"), ["disk", "disk.qcow2"]);
    assert.equal(canonicalPathInImage(IMAGE, "disk/disk.qcow2"), "/disk/disk.qcow2");
    assert.equal(canonicalPathInImage(IMAGE, "/..disk/...x"), "/..disk/...x", "dots inside names are names");
  });

  const refused: Array<[string, string, RegExp]> = [
    ["a .. component", "/disk/../../etc/shadow", /leaves the image/],
    ["a leading ..", "../etc/shadow", /leaves the image/],
    ["a . component", "/disk/./disk.img", /empty or \. component/],
    ["an empty component", "/disk//disk.img", /empty or \. component/],
    ["two leading slashes", "//etc/shadow", /empty or \. component/],
    ["a trailing slash", "/disk/", /empty or \. component/],
    ["an empty path", "", /empty or \. component/],
    ["the root itself", "/", /empty or \. component/],
    ["a NUL byte", "/disk/disk.img\0.txt", /contains a NUL byte/],
    ["a component over NAME_MAX", `/disk/${"x".repeat(256)}`, /component longer than 255 bytes/],
    ["a multi-byte component over NAME_MAX", `/${"é".repeat(128)}`, /component longer than 255 bytes/],
    ["a path over PATH_MAX", `/${"d/".repeat(2048)}x`, /longer than 4095 bytes/],
  ];
  for (const [what, path, message] of refused) {
    test(`refuses ${what}`, () => {
      assert.throws(
        () => pathInImageComponents(IMAGE, path),
        (error: unknown) => {
          assert.ok(error instanceof ContainerDiskError);
          assert.equal(error.reason, "InvalidImage");
          assert.equal(error.image, IMAGE);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  test("accepts exactly NAME_MAX bytes in a component", () => {
    assert.equal(pathInImageComponents(IMAGE, `/${"x".repeat(255)}`).length, 1);
  });
});
