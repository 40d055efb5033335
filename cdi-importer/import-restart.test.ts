// The importer killed at any point and started again, as a pod with restartPolicy OnFailure is: a kill -9
// mid-download leaves only temporaries, which the next run removes before it imports again; a finished
// disk.img makes the next run exit 0 at once. And the progress metric while a download runs.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { type ImageServer, startImageServer } from "./testing/image-server.js";
import {
  freePort,
  type ImporterPod,
  newImporterPod,
  runImporter,
  startImporter,
} from "./testing/importer-run.js";

const MiB = 1024 * 1024;
// Random, so every block is written: 4 MiB served slowly take about 1.6 s.
const DISK = randomBytes(4 * MiB);
const PROGRESS = /^kubevirt_cdi_import_progress_total\{ownerUID="dv-uid-1"\} ([0-9.e+-]+)$/m;

async function scrapeProgress(port: number): Promise<number | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    const value = PROGRESS.exec(await response.text())?.[1];
    return value === undefined ? undefined : Number(value);
  } catch {
    return undefined;
  }
}

/** Polls /metrics until the progress reaches `least` percent; returns every value seen. */
async function progressUntil(port: number, least: number, timeoutMs = 10_000): Promise<number[]> {
  const seen: number[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await scrapeProgress(port);
    if (value !== undefined) seen.push(value);
    if (value !== undefined && value >= least) return seen;
    await sleep(20);
  }
  throw new Error(`progress never reached ${least}: ${seen.join(", ")}`);
}

describe("restarts and progress", () => {
  let server: ImageServer;
  let images: ImporterPod;
  const pods: ImporterPod[] = [];
  const pod = async () => {
    const created = await newImporterPod();
    pods.push(created);
    return created;
  };
  before(async () => {
    images = await pod();
    await writeFile(join(images.work, "disk.raw"), DISK);
    server = await startImageServer(images.work);
  });
  after(async () => {
    await server?.close();
    for (const created of pods) await created.remove();
  });

  test("kill -9 mid-download, then a restart, gives the right disk.img", async () => {
    const target = await pod();
    const port = await freePort();
    const env = target.env({
      IMPORTER_SOURCE: "http",
      IMPORTER_ENDPOINT: `${server.url}/disk.raw?slow`,
      IMPORTER_IMAGE_SIZE: "8Mi",
      IMPORTER_METRICS_PORT: String(port),
    });
    const first = startImporter(env);
    const seen = await progressUntil(port, 30);
    first.child.kill("SIGKILL");
    const killed = await first.exited;
    assert.equal(killed.signal, "SIGKILL");
    assert.ok(
      seen.every((value) => value < 100),
      `progress before the kill: ${seen.join(", ")}`,
    );
    assert.deepEqual(await readdir(target.data), [".cdi-import-disk.img"], "only a temporary is left");
    const second = await runImporter({ ...env, IMPORTER_METRICS_PORT: "0" });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(await readdir(target.data), ["disk.img"]);
    const disk = await readFile(join(target.data, "disk.img"));
    assert.equal(disk.length, 8 * MiB);
    assert.ok(disk.subarray(0, DISK.length).equals(DISK));
  });

  test("a disk.img already there: exit 0 at once, nothing fetched, disk.img untouched", async () => {
    const target = await pod();
    await writeFile(join(target.data, "disk.img"), "done before");
    await writeFile(join(target.data, ".cdi-import-download.qcow2"), "left by a crash after the rename");
    const before = await stat(join(target.data, "disk.img"));
    const requests = server.requests.length;
    const exit = await runImporter(
      target.env({
        IMPORTER_SOURCE: "http",
        IMPORTER_ENDPOINT: `${server.url}/disk.raw`,
        IMPORTER_IMAGE_SIZE: "8Mi",
      }),
    );
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(server.requests.length, requests, "no request");
    const afterwards = await stat(join(target.data, "disk.img"));
    assert.equal(await readFile(join(target.data, "disk.img"), "utf8"), "done before");
    assert.equal(afterwards.mtimeMs, before.mtimeMs);
    assert.equal(afterwards.ino, before.ino);
  });

  test("/metrics reports the download's progress with the DataVolume's uid while it runs", async () => {
    const target = await pod();
    const port = await freePort();
    const run = startImporter(
      target.env({
        IMPORTER_SOURCE: "http",
        IMPORTER_ENDPOINT: `${server.url}/disk.raw?slow`,
        IMPORTER_IMAGE_SIZE: "8Mi",
        IMPORTER_METRICS_PORT: String(port),
      }),
    );
    const seen = await progressUntil(port, 50);
    const notFound = await fetch(`http://127.0.0.1:${port}/other`);
    assert.equal(notFound.status, 404);
    const exit = await run.exited;
    assert.equal(exit.code, 0, exit.stderr);
    const between = seen.filter((value) => value > 0 && value < 100);
    assert.ok(between.length >= 2, `values between 0 and 100: ${seen.join(", ")}`);
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      seen,
      "never goes down",
    );
  });
});
