// RegistryImageSource against Debian's real docker-registry: where images are pulled from (hosts.toml,
// registries.conf, fallback, pull secrets), pulls shared between resolves, and the cache (crash safety,
// least-recently-used collection, pull policies).
import assert from "node:assert/strict";
import { link, lstat, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { RegistryImageSource, type RegistryImageSourceOptions } from "./registry-image-source.js";
import {
  diskEntries,
  imageOf,
  imageSources,
  push,
  type RegistryFixture,
  refusedWith,
  startRegistryFixture,
} from "./testing/registry-fixture.js";

const DISK = Buffer.alloc(64 * 1024, "d");

describe("RegistryImageSource endpoints and cache", { timeout: 180_000 }, () => {
  let fixture: RegistryFixture;
  let host: string;
  const newSource = imageSources(() => fixture);
  const source = async (options: Partial<RegistryImageSourceOptions> = {}) => newSource(options);
  const diskOf = async (root: string, disk: string | undefined) => readFile(join(root, disk ?? "missing"));

  before(async () => {
    fixture = await startRegistryFixture();
    host = fixture.registry.address;
  });
  after(() => fixture?.stop());

  it("pulls through a hosts.toml mirror", async () => {
    await push(fixture, "mirrored/disk", "v1", await imageOf([{ entries: diskEntries("disk.img", DISK) }]));
    await mkdir(join(fixture.hostsDirectory, "example.invalid:5000"), { recursive: true });
    await writeFile(
      join(fixture.hostsDirectory, "example.invalid:5000", "hosts.toml"),
      `server = "https://example.invalid:5000"\n[host."${fixture.registry.url}"]\n  capabilities = ["pull", "resolve"]\n`,
    );
    const urls: string[] = [];
    const image = await (await source({ onRegistryRequest: (url) => urls.push(url.href) })).resolve(
      "example.invalid:5000/mirrored/disk:v1",
    );
    assert.deepEqual(await diskOf(image.root, image.disk), DISK);
    assert.ok(
      urls.every(
        (url) =>
          url.startsWith(`${fixture.registry.url}/v2/mirrored/disk/`) &&
          url.endsWith("?ns=example.invalid%3A5000"),
      ),
      urls.join(),
    );
  });

  it("pulls through registries.conf: an insecure location over http, blocked prefixes refused", async () => {
    const registriesConf = join(fixture.work, "registries.conf");
    await writeFile(
      registriesConf,
      `[[registry]]
prefix = "conf.invalid/disks"
location = "${host}/mirrored"
insecure = true

[[registry]]
prefix = "conf.invalid/blocked"
blocked = true
`,
    );
    const urls: string[] = [];
    const images = await source({
      hostsDirectory: join(fixture.work, "no-hosts.d"),
      registriesConf,
      onRegistryRequest: (url) => urls.push(url.href),
    });
    const image = await images.resolve("conf.invalid/disks/disk:v1");
    assert.deepEqual(await diskOf(image.root, image.disk), DISK);
    assert.ok(
      urls.some((url) => url.startsWith(`https://${host}/v2/mirrored/disk/manifests/v1`)),
      "https first",
    );
    assert.ok(
      urls.some((url) => url.startsWith(`http://${host}/v2/mirrored/disk/manifests/v1`)),
      "then http",
    );
    await assert.rejects(
      images.resolve("conf.invalid/blocked/disk:v1"),
      refusedWith("ImagePullFailed", /blocked by .*registries.conf \(prefix conf.invalid\/blocked\)/),
    );
  });

  it("falls back to the next endpoint when a mirror fails", async () => {
    await mkdir(join(fixture.hostsDirectory, "fallback.invalid"), { recursive: true });
    await writeFile(
      join(fixture.hostsDirectory, "fallback.invalid", "hosts.toml"),
      `server = "${fixture.registry.url}"\n[host."http://127.0.0.1:9"]\n  capabilities = ["pull", "resolve"]\n`,
    );
    const image = await (await source()).resolve("fallback.invalid/mirrored/disk:v1");
    assert.deepEqual(await diskOf(image.root, image.disk), DISK);
    await writeFile(
      join(fixture.hostsDirectory, "fallback.invalid", "hosts.toml"),
      'server = "http://127.0.0.1:9"\n',
    );
    await assert.rejects(
      (await source()).resolve("fallback.invalid/mirrored/disk:v1"),
      refusedWith("ImagePullFailed", /http:\/\/127.0.0.1:9: GET .* failed/),
    );
  });

  it("shares one pull between concurrent resolves", async () => {
    await push(fixture, "disks/shared", "v1", await imageOf([{ entries: diskEntries("disk.img", DISK) }]));
    const blobGets: string[] = [];
    const images = await source({
      onRegistryRequest: (url) => url.pathname.includes("/blobs/") && blobGets.push(url.pathname),
    });
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => images.resolve(`${host}/disks/shared:v1`)));
    assert.equal(blobGets.length, 1, blobGets.join());
    assert.equal(a?.root, b?.root);
    assert.equal(b?.root, c?.root);
  });

  it("sweeps pulls a crash left behind and never uses them", async () => {
    const cacheDirectory = join(fixture.work, "crashed-cache");
    const leftover = join(cacheDirectory, "tmp", "0123456789abcdef", "rootfs", "disk");
    await mkdir(leftover, { recursive: true });
    await writeFile(join(leftover, "disk.img"), "half written");
    const digest = await push(
      fixture,
      "disks/crash",
      "v1",
      await imageOf([{ entries: diskEntries("disk.img", DISK), compression: "none" }]),
    );
    // A directory at the image's place without image.json was never published: it must not be used.
    const images = new RegistryImageSource({
      cacheDirectory,
      maxCacheBytes: 1024 ** 3,
      hostsDirectory: fixture.hostsDirectory,
    });
    const manifestDigestImage = await images.resolve(`${host}/disks/crash@${digest}`);
    assert.deepEqual(await readdir(join(cacheDirectory, "tmp")), []);
    assert.deepEqual(await diskOf(manifestDigestImage.root, manifestDigestImage.disk), DISK);
    const unpublished = join(cacheDirectory, "images", `sha256-${"e".repeat(64)}`, "rootfs", "disk");
    await mkdir(unpublished, { recursive: true });
    await writeFile(join(unpublished, "disk.img"), "garbage");
    await assert.rejects(
      images.resolve(`${host}/disks/crash@sha256:${"e".repeat(64)}`, { pullPolicy: "Never" }),
      refusedWith("ErrImageNeverPull", /pull policy of Never/),
    );
  });

  it("removes least recently used images beyond the cache budget, never breaking pinned files", async () => {
    for (const name of ["lru-a", "lru-b", "lru-c"]) {
      await push(
        fixture,
        `disks/${name}`,
        "v1",
        await imageOf([
          { entries: diskEntries("disk.img", Buffer.alloc(100_000, name)), compression: "gzip" },
        ]),
      );
    }
    const images = await source({ maxCacheBytes: 250_000 });
    const a = await images.resolve(`${host}/disks/lru-a:v1`);
    const pinned = join(fixture.work, `pinned-${Date.now()}`);
    await link(join(a.root, "disk/disk.img"), pinned);
    await images.resolve(`${host}/disks/lru-b:v1`);
    await images.resolve(`${host}/disks/lru-a:v1`);
    const c = await images.resolve(`${host}/disks/lru-c:v1`);
    const cached = await readdir(join(c.root, "..", ".."));
    assert.equal(cached.length, 2);
    await assert.rejects(
      lstat(join(a.root, "..")).then(() => images.resolve(`${host}/disks/lru-b:v1`, { pullPolicy: "Never" })),
      refusedWith("ErrImageNeverPull", /Never/),
    );
    assert.ok((await images.resolve(`${host}/disks/lru-a:v1`, { pullPolicy: "Never" })).disk);
    assert.deepEqual(await readFile(pinned), Buffer.alloc(100_000, "lru-a"));
  });

  it("follows the pull policies", async () => {
    await push(
      fixture,
      "disks/policy",
      "latest",
      await imageOf([{ entries: diskEntries("disk.img", Buffer.from("first")) }]),
    );
    await push(
      fixture,
      "disks/policy",
      "v1",
      await imageOf([{ entries: diskEntries("disk.img", Buffer.from("v1")) }]),
    );
    const requests: string[] = [];
    const images = await source({ onRegistryRequest: (url) => requests.push(url.pathname) });
    await assert.rejects(
      images.resolve(`${host}/disks/policy:v1`, { pullPolicy: "Never" }),
      refusedWith("ErrImageNeverPull", /not present on the node with pull policy of Never/),
    );
    assert.equal(requests.length, 0);
    const first = await images.resolve(`${host}/disks/policy`);
    assert.equal((await diskOf(first.root, first.disk)).toString(), "first");
    await push(
      fixture,
      "disks/policy",
      "latest",
      await imageOf([{ entries: diskEntries("disk.img", Buffer.from("second")) }]),
    );
    const second = await images.resolve(`${host}/disks/policy:latest`);
    assert.equal((await diskOf(second.root, second.disk)).toString(), "second");
    const before = requests.length;
    await images.resolve(`${host}/disks/policy:latest`);
    assert.ok(requests.length > before, "Always asks the registry again");
    assert.ok(
      !requests.slice(before).some((path) => path.includes("/blobs/")),
      "and reuses the cached digest",
    );
    await images.resolve(`${host}/disks/policy:v1`);
    const afterPull = requests.length;
    const again = await images.resolve(`${host}/disks/policy:v1`);
    assert.equal(requests.length, afterPull, "IfNotPresent does not ask the registry");
    assert.equal((await diskOf(again.root, again.disk)).toString(), "v1");
    assert.equal(
      (await images.resolve(`${host}/disks/policy:latest`, { pullPolicy: "Never" })).root,
      second.root,
    );
  });
});

describe("RegistryImageSource with a private registry", { timeout: 120_000 }, () => {
  let fixture: RegistryFixture;
  const credentials = { username: "puller", password: "s3cret" };
  before(async () => {
    fixture = await startRegistryFixture({ user: credentials.username, password: credentials.password });
  });
  after(() => fixture?.stop());

  it("fails without credentials and works with a dockerconfigjson", async () => {
    const host = fixture.registry.address;
    await push(
      fixture,
      "private/disk",
      "v1",
      await imageOf([{ entries: diskEntries("disk.img", DISK) }]),
      credentials,
    );
    const images = new RegistryImageSource({
      cacheDirectory: join(await mkdtemp(join(fixture.work, "cache-")), "c"),
      maxCacheBytes: 1024 ** 3,
      hostsDirectory: fixture.hostsDirectory,
    });
    await assert.rejects(
      images.resolve(`${host}/private/disk:v1`),
      refusedWith("ImagePullFailed", /unauthorized.*no pull secret has credentials/),
    );
    const wrong = JSON.stringify({ auths: { [host]: { username: "puller", password: "wrong" } } });
    await assert.rejects(
      images.resolve(`${host}/private/disk:v1`, { dockerConfigJsons: [wrong] }),
      refusedWith("ImagePullFailed", /unauthorized/),
    );
    const other = JSON.stringify({
      auths: { "other.example": { auth: Buffer.from("puller:s3cret").toString("base64") } },
    });
    const right = JSON.stringify({
      auths: { [`http://${host}`]: { auth: Buffer.from("puller:s3cret").toString("base64") } },
    });
    const image = await images.resolve(`${host}/private/disk:v1`, { dockerConfigJsons: [other, right] });
    assert.deepEqual(await readFile(join(image.root, image.disk ?? "")), DISK);
  });
});
