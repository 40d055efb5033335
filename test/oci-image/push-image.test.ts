import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { pino } from "pino";
import { type RunningRegistry, startRegistry } from "../../dev-cluster/registry/start-registry.js";
import {
  buildImage,
  buildIndex,
  LINUX_ARM64,
  layerFromEntries,
  type ManifestFormat,
  MEDIA_TYPES,
} from "./oci-image.js";
import { containerDiskImage, PushImageError, pushImage } from "./push-image.js";

const log = pino({ level: "silent" });

function sha256(bytes: Buffer): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

async function get(url: string, accept?: string, auth?: string) {
  const headers: Record<string, string> = {};
  if (accept) headers.accept = accept;
  if (auth) headers.authorization = `Basic ${Buffer.from(auth).toString("base64")}`;
  const response = await fetch(url, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

function uncompress(bytes: Buffer, mediaType: string): Buffer {
  if (mediaType.endsWith("gzip")) return gunzipSync(bytes);
  if (mediaType.endsWith("zstd")) return execFileSync("zstd", ["-d", "-c", "-q"], { input: bytes });
  return bytes;
}

/** GNU tar's verbose listing with numeric owners: checks our tar is one a real tool reads. */
function tarListing(tar: Buffer): string {
  return execFileSync("tar", ["-tv", "--numeric-owner", "-f", "-"], { input: tar }).toString("utf8");
}

const ALL_MANIFESTS = (["oci", "docker"] as const)
  .flatMap((format) => [MEDIA_TYPES[format].manifest, MEDIA_TYPES[format].index])
  .join(", ");

describe("pushImage to a real docker-registry", () => {
  let dir: string;
  let registry: RunningRegistry;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "push-image-"));
    registry = await startRegistry({ dataDir: join(dir, "registry"), address: "127.0.0.1:0", log });
  });
  after(async () => {
    await registry?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  for (const format of ["oci", "docker"] satisfies ManifestFormat[]) {
    it(`stores a ${format} manifest with gzip, zstd and plain layers byte for byte`, async () => {
      const layers = await Promise.all(
        (["gzip", "zstd", "none"] as const).map((compression) =>
          layerFromEntries(
            [
              { path: `${compression}/`, type: "dir" },
              {
                path: `${compression}/hello.txt`,
                type: "file",
                content: Buffer.from(`hello ${compression}\n`),
              },
            ],
            { compression },
          ),
        ),
      );
      const image = buildImage({ layers, format });
      const pushed = await pushImage({
        registry: registry.address,
        repository: `test/${format}`,
        tag: "v1",
        image,
      });
      assert.equal(pushed.digest, image.digest);
      assert.equal(pushed.uploadedBlobs, 4, "config and three layers");

      const base = `${registry.url}/v2/test/${format}`;
      const manifest = await get(`${base}/manifests/v1`, ALL_MANIFESTS);
      assert.equal(manifest.response.status, 200);
      assert.equal(manifest.response.headers.get("content-type"), MEDIA_TYPES[format].manifest);
      assert.equal(manifest.response.headers.get("docker-content-digest"), image.digest);
      assert.deepEqual(manifest.bytes, image.bytes);

      const parsed = JSON.parse(manifest.bytes.toString("utf8")) as {
        config: { digest: string };
        layers: { digest: string; mediaType: string; size: number }[];
      };
      const config = await get(`${base}/blobs/${parsed.config.digest}`);
      assert.equal(sha256(config.bytes), parsed.config.digest);
      const diffIds = (JSON.parse(config.bytes.toString("utf8")) as { rootfs: { diff_ids: string[] } }).rootfs
        .diff_ids;
      assert.deepEqual(
        parsed.layers.map((layer) => layer.mediaType),
        ["gzip", "zstd", "none"].map((c) => MEDIA_TYPES[format].layer[c as "gzip" | "zstd" | "none"]),
      );
      for (const [i, descriptor] of parsed.layers.entries()) {
        const blob = await get(`${base}/blobs/${descriptor.digest}`);
        assert.equal(blob.response.status, 200);
        assert.equal(sha256(blob.bytes), descriptor.digest);
        assert.equal(blob.bytes.length, descriptor.size);
        const tar = uncompress(blob.bytes, descriptor.mediaType);
        assert.equal(sha256(tar), diffIds[i], "diff_id is the digest of the uncompressed tar");
        assert.match(tarListing(tar), /107\/107 +\d+ .* (gzip|zstd|none)\/hello\.txt/);
      }
    });
  }

  it("pushes an index of arm64 and amd64 images, children first, and skips blobs it has", async () => {
    const amd64Layer = await layerFromEntries(
      [{ path: "arch", type: "file", content: Buffer.from("amd64") }],
      {
        compression: "gzip",
      },
    );
    const arm64Layer = await layerFromEntries(
      [{ path: "arch", type: "file", content: Buffer.from("arm64") }],
      {
        compression: "zstd",
      },
    );
    const amd64 = buildImage({ layers: [amd64Layer] });
    const arm64 = buildImage({ layers: [arm64Layer], platform: LINUX_ARM64 });
    const index = buildIndex([arm64, amd64]);
    const first = await pushImage({
      registry: registry.address,
      repository: "test/multi",
      tag: "latest",
      image: index,
    });
    assert.equal(first.digest, index.digest);
    assert.equal(first.uploadedBlobs, 4);

    const base = `${registry.url}/v2/test/multi`;
    const top = await get(`${base}/manifests/latest`, ALL_MANIFESTS);
    assert.equal(top.response.headers.get("content-type"), MEDIA_TYPES.oci.index);
    assert.deepEqual(top.bytes, index.bytes);
    const listed = JSON.parse(top.bytes.toString("utf8")) as {
      manifests: { digest: string; platform: { architecture: string; variant?: string } }[];
    };
    assert.deepEqual(
      listed.manifests.map((m) => [m.platform.architecture, m.platform.variant]),
      [
        ["arm64", "v8"],
        ["amd64", undefined],
      ],
    );
    for (const [child, image] of [
      [listed.manifests[0], arm64],
      [listed.manifests[1], amd64],
    ] as const) {
      const got = await get(`${base}/manifests/${child?.digest}`, ALL_MANIFESTS);
      assert.equal(got.response.status, 200);
      assert.deepEqual(got.bytes, image.bytes);
    }

    const dockerList = buildIndex([arm64, amd64], { format: "docker" });
    const again = await pushImage({
      registry: registry.address,
      repository: "test/multi",
      tag: "list",
      image: dockerList,
    });
    assert.equal(again.uploadedBlobs, 0);
    assert.equal(again.existingBlobs, 4);
    const list = await get(`${base}/manifests/list`, ALL_MANIFESTS);
    assert.equal(list.response.headers.get("content-type"), MEDIA_TYPES.docker.index);
  });

  it("streams a containerDisk layer from a file written to blobDir, /disk/<name> owned by 107", async () => {
    const disk = join(dir, "guest.qcow2");
    const content = randomBytes(3 * 1024 * 1024 + 17);
    await writeFile(disk, content);
    const image = await containerDiskImage({ disk, blobDir: dir });
    const layer = image.layers[0];
    assert.ok(layer && !Buffer.isBuffer(layer.content), "the layer lives in a file");
    await pushImage({ registry: registry.address, repository: "kubevirt/disk", tag: "v1", image });

    const blob = await get(`${registry.url}/v2/kubevirt/disk/blobs/${layer.digest}`);
    assert.equal(sha256(blob.bytes), layer.digest);
    const tar = gunzipSync(blob.bytes);
    const listing = tarListing(tar);
    assert.match(listing, /^drwxr-xr-x 107\/107 +0 .* disk\/$/m);
    assert.match(listing, new RegExp(`^-rw-r--r-- 107/107 +${content.length} .* disk/guest\\.qcow2$`, "m"));
    const extracted = execFileSync("tar", ["-xO", "-f", "-", "disk/guest.qcow2"], {
      input: tar,
      maxBuffer: 8 * 1024 * 1024,
    });
    assert.ok(extracted.equals(content), "the disk comes back unchanged");
  });
  it("builds and pushes a 256 MiB disk layer without holding it in memory", async () => {
    const disk = join(dir, "big.raw");
    const size = 256 * 1024 * 1024;
    // Mostly sparse, with some data at both ends that must come back.
    const handle = await open(disk, "w");
    await handle.write(Buffer.from("first bytes"), 0, 11, 0);
    await handle.write(Buffer.from("last bytes"), 0, 10, size - 10);
    await handle.close();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    try {
      const image = await containerDiskImage({ disk, blobDir: dir, compression: "none" });
      const pushed = await pushImage({
        registry: registry.address,
        repository: "kubevirt/big",
        tag: "v1",
        image,
      });
      assert.equal(pushed.uploadedBlobs, 2);
      const layer = image.layers[0];
      assert.ok(layer && layer.size > size, "the layer holds the whole disk");
      const head = await fetch(`${registry.url}/v2/kubevirt/big/blobs/${layer.digest}`, { method: "HEAD" });
      assert.equal(head.headers.get("content-length"), String(layer.size));
    } finally {
      clearInterval(sampler);
    }
    const grownMiB = (peak - baseline) / 1024 / 1024;
    assert.ok(grownMiB < 96, `memory grew by ${grownMiB.toFixed(0)} MiB while streaming 256 MiB`);
    await rm(disk);
  });
});

describe("pushImage to an htpasswd registry", () => {
  let dir: string;
  let registry: RunningRegistry;
  const htpasswd = { user: "pusher", password: "s3cret pass" };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "push-image-auth-"));
    registry = await startRegistry({ dataDir: join(dir, "registry"), address: "127.0.0.1:0", htpasswd, log });
  });
  after(async () => {
    await registry?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const image = async () =>
    buildImage({
      layers: [
        await layerFromEntries([{ path: "x", type: "file", content: Buffer.from("x") }], {
          compression: "none",
        }),
      ],
    });

  it("is refused without credentials and with a wrong password", async () => {
    const anonymous = pushImage({
      registry: registry.address,
      repository: "private/img",
      tag: "v1",
      image: await image(),
    });
    await assert.rejects(anonymous, (error: unknown) => {
      assert.ok(error instanceof PushImageError);
      assert.equal(error.reason, "Unauthorized");
      assert.equal(error.details.status, 401);
      return true;
    });
    const wrong = pushImage({
      registry: registry.address,
      repository: "private/img",
      tag: "v1",
      image: await image(),
      credentials: { username: htpasswd.user, password: "wrong" },
    });
    await assert.rejects(
      wrong,
      (error: unknown) => error instanceof PushImageError && error.reason === "Unauthorized",
    );
  });

  it("pushes with Basic credentials, and the image is then readable with them only", async () => {
    const img = await image();
    const credentials = { username: htpasswd.user, password: htpasswd.password };
    const pushed = await pushImage({
      registry: registry.address,
      repository: "private/img",
      tag: "v1",
      image: img,
      credentials,
    });
    assert.equal(pushed.digest, img.digest);
    const url = `${registry.url}/v2/private/img/manifests/v1`;
    assert.equal((await get(url, MEDIA_TYPES.oci.manifest)).response.status, 401);
    const authorised = await get(url, MEDIA_TYPES.oci.manifest, `${htpasswd.user}:${htpasswd.password}`);
    assert.equal(authorised.response.status, 200);
    assert.deepEqual(authorised.bytes, img.bytes);
  });
});
