// The certificate step against the dev API server, with a clock the tests move forward: what is
// issued (names, usage, chains, lifetimes, Secrets), that it works for TLS, renewal at 80% of a
// certificate's and of the CA's validity, the old CA kept in the bundles until what it signed has
// expired, deleted and damaged Secrets issued again, and no write when nothing is due. The tests
// run in order and build on each other.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { KubeClient, SharedInformer } from "../../runtime/index.js";
import { materialOf, secretKind } from "../../runtime/tls/secret-tls-source.js";
import { CERTIFICATE_SECRETS, VIRT_API_CLIENT_COMMON_NAME } from "../../runtime/tls/tls-material.js";
import { eventually, startTestApiServer, type TestApiServer } from "../../test/harness/api-server-fixture.js";
import { type InstalledObject, MANAGED_KINDS } from "../kubevirt/managed-kinds.js";
import { MANAGED_BY_LABEL, MANAGED_BY_VALUE } from "../strategy/install-strategy.js";
import { namespaceKind, quietLog } from "../testing/operator-test-cluster.js";
import { ShiftedClock } from "../testing/shifted-clock.js";
import { handshake } from "../testing/tls-handshake.js";
import {
  BACKDATE_MS,
  CA_LIFETIME_MS,
  CERTIFICATE_LIFETIME_MS,
  renewalDueAt,
} from "./certificate-lifetimes.js";
import { CertificateManager, type CertificateState } from "./certificate-manager.js";
import {
  commonNameOf,
  dnsNamesOf,
  isSelfSignedCa,
  isSignedBy,
  keyMatches,
  type ReadCertificate,
  readBundle,
  readCertificate,
  usageOf,
} from "./certificate-reader.js";
import { CERTIFICATE_ANNOTATION } from "./certificate-secret.js";
import { CertificateSecrets } from "./certificate-secrets.js";

const NAMESPACE = "kubevirt";
const LEAVES = [
  CERTIFICATE_SECRETS.apiServer,
  CERTIFICATE_SECRETS.handlerServer,
  CERTIFICATE_SECRETS.handlerClient,
  CERTIFICATE_SECRETS.controllerServer,
  CERTIFICATE_SECRETS.operatorServer,
];
const ALL = [CERTIFICATE_SECRETS.ca, ...LEAVES];
const secretResource = MANAGED_KINDS.find((kind) => kind.resource.kind === "Secret")?.resource;

interface Stored {
  certificate: ReadCertificate;
  bundle: ReadCertificate[];
  resourceVersion: string;
}

/** Within a second: X.509 times have whole seconds. */
function assertAbout(actual: number, expected: number, what: string): void {
  assert.ok(
    Math.abs(actual - expected) <= 1000,
    `${what}: ${new Date(actual).toISOString()} is not ${new Date(expected).toISOString()}`,
  );
}

describe("CertificateManager", () => {
  let api: TestApiServer;
  let client: KubeClient;
  let informer: SharedInformer<InstalledObject>;
  let manager: CertificateManager;
  const clock = new ShiftedClock();
  const signal = new AbortController().signal;
  let first: CertificateState;

  before(async () => {
    api = await startTestApiServer();
    client = KubeClient.fromKubeConfig(api.kubeConfig(), { fieldManager: "certificates-test" });
    await client.resource(namespaceKind).create({ metadata: { name: NAMESPACE } });
    assert.ok(secretResource);
    informer = new SharedInformer<InstalledObject>({
      client: client.resource(secretResource),
      log: quietLog,
      labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`,
    });
    informer.start();
    await informer.waitForSync();
    manager = new CertificateManager(new CertificateSecrets(informer, client.resource(secretKind)), clock);
  });

  after(async () => {
    await informer?.stop();
    client?.close();
    await api?.close();
  });

  async function stored(name: string): Promise<Stored> {
    const secret = await client.resource(secretKind).get({ namespace: NAMESPACE, name });
    const material = materialOf(secret);
    return {
      certificate: readCertificate(material.certPem),
      bundle: readBundle(material.caPem),
      resourceVersion: secret.metadata?.resourceVersion ?? "",
    };
  }

  async function versions(): Promise<string[]> {
    return Promise.all(ALL.map(async (name) => (await stored(name)).resourceVersion));
  }

  /** Waits until the operator's cache shows the Secret as the API server has it. */
  async function cacheShows(name: string, resourceVersion: string | undefined): Promise<void> {
    await eventually(`the cache to show ${name} at ${resourceVersion}`, () =>
      informer.get({ namespace: NAMESPACE, name })?.metadata?.resourceVersion === resourceVersion
        ? true
        : undefined,
    );
  }

  test("the first pass issues the CA and, signed by it, virt-api's, virt-handler's, virt-controller's and its own certificates", async () => {
    const issuedAt = clock.now();
    first = await manager.ensure(NAMESPACE, signal);
    assert.deepEqual(
      first.changes.map((change) => [change.secret, change.change, change.reason]),
      ALL.map((name) => [name, "issued", "missing"]),
    );
    const ca = await stored(CERTIFICATE_SECRETS.ca);
    assert.ok(isSelfSignedCa(ca.certificate));
    assertAbout(ca.certificate.validity.notBefore, issuedAt - BACKDATE_MS, "the CA's start");
    assertAbout(ca.certificate.validity.notAfter, issuedAt + CA_LIFETIME_MS, "the CA's end: 7 days");
    assert.equal(first.caBundlePem, ca.certificate.pem, "the bundle is the CA");

    const expected = {
      [CERTIFICATE_SECRETS.apiServer]: {
        commonName: "virt-api.kubevirt.svc",
        usage: "serverAuth",
        dnsNames: [
          "virt-api.kubevirt.svc",
          "virt-api.kubevirt.svc.cluster.local",
          "virt-api.kubevirt",
          "virt-api",
        ],
      },
      [CERTIFICATE_SECRETS.handlerServer]: {
        commonName: "virt-handler",
        usage: "serverAuth",
        dnsNames: ["virt-handler"],
      },
      [CERTIFICATE_SECRETS.handlerClient]: {
        commonName: VIRT_API_CLIENT_COMMON_NAME,
        usage: "clientAuth",
        dnsNames: [],
      },
      [CERTIFICATE_SECRETS.controllerServer]: {
        commonName: "virt-controller",
        usage: "serverAuth",
        dnsNames: ["virt-controller", "virt-controller.kubevirt.pod.cluster.local"],
      },
      [CERTIFICATE_SECRETS.operatorServer]: {
        commonName: "virt-operator",
        usage: "serverAuth",
        dnsNames: ["virt-operator", "virt-operator.kubevirt.pod.cluster.local"],
      },
    };
    for (const name of LEAVES) {
      const { certificate, bundle } = await stored(name);
      assert.deepEqual(
        {
          commonName: commonNameOf(certificate),
          usage: usageOf(certificate),
          dnsNames: dnsNamesOf(certificate),
        },
        expected[name],
        name,
      );
      assert.ok(isSignedBy(certificate, ca.certificate), `${name} is signed by the CA`);
      assert.ok(!certificate.x509.ca, `${name} is no CA`);
      assertAbout(
        certificate.validity.notAfter,
        issuedAt + CERTIFICATE_LIFETIME_MS,
        `${name} lives 24 hours`,
      );
      assert.deepEqual(
        bundle.map((entry) => entry.pem),
        [ca.certificate.pem],
        `${name}'s ca.crt is the CA bundle`,
      );
    }
    for (const name of ALL) {
      const secret = await client.resource(secretKind).get({ namespace: NAMESPACE, name });
      assert.equal(secret.type, "kubernetes.io/tls", name);
      assert.equal(secret.metadata?.labels?.[MANAGED_BY_LABEL], MANAGED_BY_VALUE, name);
      assert.ok(secret.metadata?.annotations?.[CERTIFICATE_ANNOTATION], name);
    }
    const leaf = await stored(CERTIFICATE_SECRETS.apiServer);
    assert.equal(
      first.nextDueAt,
      renewalDueAt(leaf.certificate.validity),
      "next due: the certificates' renewal",
    );
    assertAbout(
      first.nextDueAt,
      leaf.certificate.validity.notBefore + 0.8 * (CERTIFICATE_LIFETIME_MS + BACKDATE_MS),
      "80% into their validity",
    );
  });

  test("the certificates serve TLS: virt-api to the API server by its Service name, virt-api and virt-handler to each other", async () => {
    const secret = async (name: string) =>
      materialOf(await client.resource(secretKind).get({ namespace: NAMESPACE, name }));
    const apiServing = await secret(CERTIFICATE_SECRETS.apiServer);
    const handlerServing = await secret(CERTIFICATE_SECRETS.handlerServer);
    const apiClient = await secret(CERTIFICATE_SECRETS.handlerClient);

    // As the aggregation layer dials virt-api: host name checked, against the APIService's bundle.
    await handshake(
      { cert: apiServing.certPem, key: apiServing.keyPem },
      { ca: first.caBundlePem, servername: "virt-api.kubevirt.svc" },
    );
    await assert.rejects(
      handshake(
        { cert: apiServing.certPem, key: apiServing.keyPem },
        { ca: first.caBundlePem, servername: "virt-api.elsewhere.svc" },
      ),
      /altnames/,
      "another Service's name does not match",
    );

    // virt-api to virt-handler: each verifies the other with its own Secret's ca.crt; virt-handler
    // sees virt-api's common name; virt-api skips the host name check (it dials a pod IP).
    const mutual = await handshake(
      {
        cert: handlerServing.certPem,
        key: handlerServing.keyPem,
        ca: handlerServing.caPem,
        requestCert: true,
      },
      {
        ca: apiClient.caPem,
        cert: apiClient.certPem,
        key: apiClient.keyPem,
        checkServerIdentity: () => undefined,
      },
    );
    assert.equal(mutual.serverAuthorizedClient, true);
    assert.equal(mutual.clientName, VIRT_API_CLIENT_COMMON_NAME);

    // A scraper of https://POD:8443/metrics verifies virt-controller's and the operator's
    // serving certificates against the CA bundle.
    for (const [name, component] of [
      [CERTIFICATE_SECRETS.controllerServer, "virt-controller"],
      [CERTIFICATE_SECRETS.operatorServer, "virt-operator"],
    ] as const) {
      const metricsServing = await secret(name);
      await handshake(
        { cert: metricsServing.certPem, key: metricsServing.keyPem },
        { ca: first.caBundlePem, servername: `${component}.kubevirt.pod.cluster.local` },
      );
    }
  });

  test("a pass with nothing due writes nothing", async () => {
    const before = await versions();
    const state = await manager.ensure(NAMESPACE, signal);
    assert.deepEqual(state.changes, []);
    assert.equal(state.caBundlePem, first.caBundlePem);
    assert.deepEqual(await versions(), before);
  });

  test("80% into their validity the certificates are renewed, the CA is not; a pass right after issues nothing more", async () => {
    const ca = await stored(CERTIFICATE_SECRETS.ca);
    clock.advanceTo(first.nextDueAt - 1000);
    assert.deepEqual((await manager.ensure(NAMESPACE, signal)).changes, [], "a second early: nothing");

    clock.advanceTo(first.nextDueAt);
    const renewed = await manager.ensure(NAMESPACE, signal);
    assert.deepEqual(
      renewed.changes.map((change) => [change.secret, change.change]),
      LEAVES.map((name) => [name, "issued"]),
    );
    for (const change of renewed.changes) assert.match(change.reason, /due for renewal/);
    // The cache may not show those writes yet: renewing again would make new keys for nothing.
    assert.deepEqual((await manager.ensure(NAMESPACE, signal)).changes, []);
    assert.equal(
      (await stored(CERTIFICATE_SECRETS.ca)).resourceVersion,
      ca.resourceVersion,
      "the CA is kept",
    );
    const leaf = await stored(CERTIFICATE_SECRETS.apiServer);
    assertAbout(
      leaf.certificate.validity.notAfter,
      clock.now() + CERTIFICATE_LIFETIME_MS,
      "a new day of validity",
    );
    assert.ok(renewed.nextDueAt > clock.now() + CERTIFICATE_LIFETIME_MS / 2);
  });

  test("a deleted Secret is issued again; one with a key that is not its certificate's is replaced", async () => {
    const before = await stored(CERTIFICATE_SECRETS.handlerClient);
    await client
      .resource(secretKind)
      .delete({ namespace: NAMESPACE, name: CERTIFICATE_SECRETS.handlerClient });
    await cacheShows(CERTIFICATE_SECRETS.handlerClient, undefined);
    const reissued = await manager.ensure(NAMESPACE, signal);
    assert.deepEqual(reissued.changes, [
      { secret: CERTIFICATE_SECRETS.handlerClient, change: "issued", reason: "missing" },
    ]);
    const after = await stored(CERTIFICATE_SECRETS.handlerClient);
    assert.notEqual(after.certificate.pem, before.certificate.pem);
    assert.equal(commonNameOf(after.certificate), VIRT_API_CLIENT_COMMON_NAME);

    const serving = await client
      .resource(secretKind)
      .get({ namespace: NAMESPACE, name: CERTIFICATE_SECRETS.apiServer });
    const otherKey = (
      await client.resource(secretKind).get({ namespace: NAMESPACE, name: CERTIFICATE_SECRETS.handlerServer })
    ).data?.["tls.key"];
    const damaged = await client
      .resource(secretKind)
      .mergePatch(
        { namespace: NAMESPACE, name: CERTIFICATE_SECRETS.apiServer },
        { data: { "tls.key": otherKey } },
      );
    await cacheShows(CERTIFICATE_SECRETS.apiServer, damaged.metadata?.resourceVersion);
    const replaced = await manager.ensure(NAMESPACE, signal);
    assert.equal(replaced.changes.length, 1);
    assert.equal(replaced.changes[0]?.secret, CERTIFICATE_SECRETS.apiServer);
    assert.match(replaced.changes[0]?.reason ?? "", /key/);
    const repaired = materialOf(
      await client.resource(secretKind).get({ namespace: NAMESPACE, name: CERTIFICATE_SECRETS.apiServer }),
    );
    assert.notEqual(repaired.certPem, materialOf(serving).certPem);
    assert.ok(keyMatches(readCertificate(repaired.certPem), repaired.keyPem));
  });

  test("at 80% of 7 days the CA is renewed; the old one stays in every bundle until what it signed has expired", async () => {
    const oldCa = (await stored(CERTIFICATE_SECRETS.ca)).certificate;
    const caDue = renewalDueAt(oldCa.validity);

    // An hour before: the certificates (long expired) are renewed, still by the old CA.
    clock.advanceTo(caDue - 3_600_000);
    const lastByOld = await manager.ensure(NAMESPACE, signal);
    assert.deepEqual(
      lastByOld.changes.map((change) => change.secret),
      LEAVES,
    );
    const signedByOld = await Promise.all(LEAVES.map(async (name) => (await stored(name)).certificate));
    for (const certificate of signedByOld) assert.ok(isSignedBy(certificate, oldCa));
    assert.equal(lastByOld.nextDueAt, caDue, "next due: the CA");

    clock.advanceTo(caDue);
    const rotated = await manager.ensure(NAMESPACE, signal);
    assert.deepEqual(
      rotated.changes.map((change) => [change.secret, change.change]),
      [[CERTIFICATE_SECRETS.ca, "issued"], ...LEAVES.map((name) => [name, "bundle"])],
      "a new CA; the certificates keep their keys and get the new bundle",
    );
    const newCa = (await stored(CERTIFICATE_SECRETS.ca)).certificate;
    assert.notEqual(newCa.pem, oldCa.pem);
    assert.equal(rotated.caBundlePem, newCa.pem + oldCa.pem, "the new CA first, the old one kept");
    for (const [index, name] of ALL.entries()) {
      const { certificate, bundle } = await stored(name);
      assert.deepEqual(
        bundle.map((entry) => entry.pem),
        [newCa.pem, oldCa.pem],
        `${name}'s ca.crt`,
      );
      if (index > 0) assert.equal(certificate.pem, signedByOld[index - 1]?.pem, `${name} is not re-issued`);
    }
    const retirement = newCa.validity.notBefore + BACKDATE_MS + CERTIFICATE_LIFETIME_MS;
    for (const certificate of signedByOld)
      assert.ok(
        certificate.validity.notAfter <= retirement,
        "what the old CA signed expires before it leaves",
      );

    // The certificates' own renewal comes first, by the new CA; the old CA is still trusted.
    clock.advanceTo(rotated.nextDueAt);
    const renewed = await manager.ensure(NAMESPACE, signal);
    assert.deepEqual(
      renewed.changes.map((change) => [change.secret, change.change]),
      LEAVES.map((name) => [name, "issued"]),
    );
    for (const name of LEAVES) assert.ok(isSignedBy((await stored(name)).certificate, newCa), name);
    assert.equal(renewed.caBundlePem, newCa.pem + oldCa.pem);
    assertAbout(renewed.nextDueAt, retirement, "next due: the old CA's retirement");

    clock.advanceTo(renewed.nextDueAt);
    const retired = await manager.ensure(NAMESPACE, signal);
    assert.deepEqual(
      retired.changes.map((change) => [change.secret, change.change]),
      ALL.map((name) => [name, "bundle"]),
    );
    assert.equal(retired.caBundlePem, newCa.pem);
    for (const name of ALL)
      assert.deepEqual(
        (await stored(name)).bundle.map((entry) => entry.pem),
        [newCa.pem],
        name,
      );
  });
});
