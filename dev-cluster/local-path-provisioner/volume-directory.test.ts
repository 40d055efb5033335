import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { VolumeDirectories } from "./volume-directory.js";

describe("volume directories", () => {
  const root = mkdtempSync(join(tmpdir(), "kubevirt-ts-volume-dirs-"));
  const base = join(root, "local-path");
  mkdirSync(base);
  const directories = new VolumeDirectories(base);
  const claim = { uid: "0f3e8a2c-1b2d-4c5e-9f70-112233445566", namespace: "default", name: "data.v1" };
  after(() => rmSync(root, { recursive: true, force: true }));

  test("a claim's directory is pvc-<uid>_<namespace>_<name>, directly in the base, made twice without harm", () => {
    const path = directories.ensure(claim);
    assert.equal(path, join(base, `pvc-${claim.uid}_default_data.v1`));
    assert.equal(directories.ensure(claim), path);
    assert.ok(existsSync(path));
  });

  test("names that are not API-validated DNS names never make a path", () => {
    for (const name of ["../etc", "a/b", "", "A", "x..y"]) {
      assert.throws(() => directories.pathOf({ ...claim, name }), /cannot be part of a directory name/);
    }
    assert.throws(() => new VolumeDirectories("relative/dir"), /absolute/);
  });

  test("only a pvc-* child of the base is removed; a link there is removed, not followed", () => {
    const outside = join(root, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "keep"), "yes");
    for (const path of [
      outside,
      base,
      join(base, "other"),
      join(base, "pvc-x", "deeper"),
      `${base}/../outside`,
      "pvc-x",
    ]) {
      assert.ok(directories.refusalToRemove(path), `${path} is refused`);
      assert.throws(() => directories.remove(path), /refusing to remove/);
    }
    const link = join(base, "pvc-link");
    symlinkSync(outside, link);
    directories.remove(link);
    assert.equal(existsSync(link), false);
    assert.equal(readFileSync(join(outside, "keep"), "utf8"), "yes");
    const path = directories.ensure(claim);
    writeFileSync(join(path, "file"), "data");
    directories.remove(path);
    assert.equal(existsSync(path), false);
    directories.remove(path);
  });
});
