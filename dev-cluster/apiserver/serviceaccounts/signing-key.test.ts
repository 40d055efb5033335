import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ensureSigningKeyFile, signingKeyFromPem } from "./signing-key.js";

describe("service-account signing key", () => {
  test("is created once under pki/, private, and reused", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sa-key-"));
    try {
      const pem = await ensureSigningKeyFile(dir);
      assert.equal((await stat(join(dir, "pki", "sa.key"))).mode & 0o777, 0o600);
      assert.equal(await ensureSigningKeyFile(dir), pem);
      const publicPem = await readFile(join(dir, "pki", "sa.pub"), "utf8");
      assert.equal(signingKeyFromPem(pem).publicKey.export({ type: "spki", format: "pem" }), publicPem);
      await writeFile(join(dir, "pki", "sa.key"), "garbage");
      await assert.rejects(ensureSigningKeyFile(dir), /cannot use the service-account signing key/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("only EC P-256 keys are accepted; the key id is stable", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({
      type: "pkcs8",
      format: "pem",
    });
    assert.throws(() => signingKeyFromPem(rsa.toString()), /must be an EC P-256 key/);
    const ec = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({
      type: "pkcs8",
      format: "pem",
    });
    const key = signingKeyFromPem(ec.toString());
    assert.match(key.keyId, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(signingKeyFromPem(ec.toString()).keyId, key.keyId);
  });
});
