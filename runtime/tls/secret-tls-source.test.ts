// SecretTlsSource against the dev API server: the Secret read at start (or found missing), then
// followed: creation, rotation, an unusable update, deletion; other Secrets are not watched.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { pino } from "pino";
import {
  type CertificateAndKey,
  createCertificateAuthority,
  issueClientCertificate,
} from "../../dev-cluster/apiserver/tls/x509-issuer.js";
import { eventually, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { KubeClient } from "../client/kube-client.js";
import { type Secret, SecretTlsSource, secretKind } from "./secret-tls-source.js";
import type { TlsMaterial } from "./tls-material.js";

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
const NAMESPACE = "default";

const base64 = (text: string): string => Buffer.from(text).toString("base64");

function tlsSecret(name: string, leaf: CertificateAndKey, ca: CertificateAndKey): Secret {
  return {
    metadata: { name, namespace: NAMESPACE },
    type: "kubernetes.io/tls",
    data: { "tls.crt": base64(leaf.certPem), "tls.key": base64(leaf.keyPem), "ca.crt": base64(ca.certPem) },
  };
}

describe("SecretTlsSource", () => {
  let api: TestApiServer;
  let client: KubeClient;
  let ca: CertificateAndKey;
  let first: CertificateAndKey;
  let second: CertificateAndKey;

  before(async () => {
    api = await startTestApiServer();
    client = KubeClient.fromKubeConfig(api.kubeConfig(), { fieldManager: "tls-test" });
    ca = await createCertificateAuthority("test-ca", 1);
    first = await issueClientCertificate(ca, "first", []);
    second = await issueClientCertificate(ca, "second", []);
  });

  after(async () => {
    client.close();
    await api.close();
  });

  test("missing at start, then created, rotated, damaged (kept), deleted", async () => {
    const secrets = client.resource(secretKind);
    const source = new SecretTlsSource(client, { namespace: NAMESPACE, name: "followed", log });
    const seen: TlsMaterial[] = [];
    source.onChange((material) => seen.push(material));
    try {
      await source.start();
      assert.equal(source.current(), undefined, "no Secret, no material");

      await secrets.create(tlsSecret("followed", first, ca));
      const created = await eventually("the created Secret", () => source.current());
      assert.deepEqual(created, { certPem: first.certPem, keyPem: first.keyPem, caPem: ca.certPem });
      assert.equal(seen.length, 1);

      // A change that leaves the material as it was tells nobody.
      await secrets.mergePatch(
        { namespace: NAMESPACE, name: "followed" },
        { metadata: { labels: { a: "b" } } },
      );
      await secrets.mergePatch({ namespace: NAMESPACE, name: "followed" }, tlsSecret("followed", second, ca));
      await eventually("the rotated certificate", () => (seen.length >= 2 ? true : undefined));
      assert.equal(seen.length, 2, "the label change was not a new material");
      assert.equal(seen[1]?.certPem, second.certPem);
      assert.equal(source.current()?.keyPem, second.keyPem);

      // A key that does not belong to the certificate: the previous material stays.
      const damaged = tlsSecret("followed", { certPem: first.certPem, keyPem: second.keyPem }, ca);
      await secrets.mergePatch({ namespace: NAMESPACE, name: "followed" }, damaged);
      await secrets.mergePatch(
        { namespace: NAMESPACE, name: "followed" },
        { metadata: { labels: { a: "c" } } },
      );
      await eventually("the informer to see the last change", async () => {
        const stored = await secrets.get({ namespace: NAMESPACE, name: "followed" });
        return stored.metadata?.labels?.a === "c" ? true : undefined;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(source.current()?.certPem, second.certPem, "the damaged Secret was not taken");
      assert.equal(seen.length, 2);

      await secrets.delete({ namespace: NAMESPACE, name: "followed" });
      await eventually("the deletion", () => (source.current() === undefined ? true : undefined));
    } finally {
      await source.stop();
    }
  });

  test("an existing Secret is read before start() resolves; other Secrets are not followed", async () => {
    const secrets = client.resource(secretKind);
    await secrets.create(tlsSecret("present", first, ca));
    const source = new SecretTlsSource(client, { namespace: NAMESPACE, name: "present", log });
    const seen: TlsMaterial[] = [];
    source.onChange((material) => seen.push(material));
    try {
      await source.start();
      assert.equal(source.current()?.certPem, first.certPem);
      await secrets.create(tlsSecret("present-not", second, ca));
      await secrets.mergePatch(
        { namespace: NAMESPACE, name: "present" },
        { metadata: { labels: { x: "y" } } },
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(source.current()?.certPem, first.certPem, "another Secret's certificate is not taken");
      assert.equal(seen.length, 1);
    } finally {
      await source.stop();
    }
  });
});
