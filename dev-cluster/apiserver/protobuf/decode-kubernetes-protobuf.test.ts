import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ApiError } from "../api-error.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";
import { decodeKubernetesProtobuf } from "./decode-kubernetes-protobuf.js";
import { loadFixtures } from "./testing/kubectl-fixtures.js";
import {
  bytesField,
  concat,
  kubernetesBody,
  mapEntry,
  messageField,
  varintField,
} from "./testing/wire-writer.js";

/**
 * kubectl prints `null` for a Go nil slice without omitempty (ClusterRole `rules: null`); the wire has no
 * such field and the decoder writes nothing. Those nulls are dropped from the expectation.
 */
function withoutNullsAbsentFrom(expected: JsonValue, actual: JsonValue | undefined): JsonValue {
  if (Array.isArray(expected)) {
    return expected.map((item, i) =>
      withoutNullsAbsentFrom(item, Array.isArray(actual) ? actual[i] : undefined),
    );
  }
  if (!isJsonObject(expected)) return expected;
  const other = isJsonObject(actual) ? actual : {};
  const entries = Object.entries(expected).filter(
    ([key, value]) => value !== null || Object.hasOwn(other, key),
  );
  return Object.fromEntries(entries.map(([key, value]) => [key, withoutNullsAbsentFrom(value, other[key])]));
}

function assertApiError(run: () => unknown, code: number, message: RegExp | string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ApiError, `not an ApiError: ${String(error)}`);
    assert.equal(error.code, code);
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

describe("decodeKubernetesProtobuf on the bodies kubectl 1.32 sent", () => {
  const fixtures = loadFixtures();

  test("the fixtures cover every kind kubectl's create subcommands send as protobuf", () => {
    const kinds = new Set(
      fixtures.flatMap(({ expected }) => (expected ? [`${expected.apiVersion} ${expected.kind}`] : [])),
    );
    const wanted = [
      "v1 Namespace",
      "v1 ConfigMap",
      "v1 Secret",
      "v1 ServiceAccount",
      "v1 Service",
      "v1 ResourceQuota",
      "apps/v1 Deployment",
      "batch/v1 Job",
      "batch/v1 CronJob",
      "policy/v1 PodDisruptionBudget",
      "scheduling.k8s.io/v1 PriorityClass",
      "rbac.authorization.k8s.io/v1 Role",
      "rbac.authorization.k8s.io/v1 ClusterRole",
      "rbac.authorization.k8s.io/v1 RoleBinding",
      "rbac.authorization.k8s.io/v1 ClusterRoleBinding",
    ];
    assert.deepEqual([...kinds].sort(), wanted.sort());
  });

  for (const { name, body, expected } of fixtures) {
    if (!expected) continue;
    test(`${name}: the JSON kubectl prints for --dry-run=client`, () => {
      const decoded = decodeKubernetesProtobuf(body);
      assert.deepEqual(decoded, withoutNullsAbsentFrom(expected, decoded));
    });
  }

  // kubectl create token has no client-side -o json, so these expectations are written out.
  const tokenRequests: [string, JsonObject][] = [
    [
      "token",
      { metadata: { creationTimestamp: null }, spec: {}, status: { token: "", expirationTimestamp: null } },
    ],
    [
      "token-bound",
      {
        metadata: { creationTimestamp: null },
        spec: {
          audiences: ["https://a.example", "b"],
          boundObjectRef: {
            kind: "Pod",
            apiVersion: "v1",
            name: "web-0",
            uid: "0d4691ed-659b-4935-a832-355f77ee47cc",
          },
          expirationSeconds: 1200,
        },
        status: { token: "", expirationTimestamp: null },
      },
    ],
  ];
  for (const [name, expected] of tokenRequests) {
    test(`${name}: the TokenRequest of kubectl create token`, () => {
      const fixture = fixtures.find((candidate) => candidate.name === name);
      assert.ok(fixture, `fixture ${name}`);
      assert.deepEqual(decodeKubernetesProtobuf(fixture.body), {
        kind: "TokenRequest",
        apiVersion: "authentication.k8s.io/v1",
        ...expected,
      });
    });
  }

  test("a kind it does not cover is a 415 that says to send JSON", () => {
    assertApiError(
      () => decodeKubernetesProtobuf(kubernetesBody("v1", "Pod", new Uint8Array())),
      415,
      "the server cannot decode v1, Kind=Pod sent as protobuf; " +
        "send it as JSON (for example kubectl create -f FILE or kubectl apply)",
    );
  });

  test("a body cut short is a 400", () => {
    const namespace = fixtures.find((fixture) => fixture.name === "namespace");
    assert.ok(namespace);
    assertApiError(() => decodeKubernetesProtobuf(namespace.body.subarray(0, 30)), 400, /malformed.*claims/);
  });
});

const objectMeta = (...fields: Uint8Array[]) => messageField(1, ...fields);
const namespaceBody = (...metaFields: Uint8Array[]) =>
  kubernetesBody("v1", "Namespace", objectMeta(...metaFields));

describe("decodeKubernetesProtobuf envelope", () => {
  test("without the magic bytes it answers as upstream does", () => {
    const json = new TextEncoder().encode('{"kind":"Namespace"}');
    const message =
      "the provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]";
    assertApiError(() => decodeKubernetesProtobuf(json), 400, message);
    assertApiError(() => decodeKubernetesProtobuf(new Uint8Array()), 400, message);
  });

  test("an envelope without a kind is a 400", () => {
    assertApiError(
      () => decodeKubernetesProtobuf(kubernetesBody("v1", "", new Uint8Array())),
      400,
      /no kind/,
    );
  });

  test("a known kind in another version is a 415", () => {
    assertApiError(
      () => decodeKubernetesProtobuf(kubernetesBody("apps/v1beta1", "Deployment", new Uint8Array())),
      415,
      /apps\/v1beta1, Kind=Deployment/,
    );
  });

  test("a compressed or non-protobuf payload is a 415", () => {
    const gzip = kubernetesBody("v1", "Namespace", new Uint8Array(), bytesField(3, "gzip"));
    assertApiError(() => decodeKubernetesProtobuf(gzip), 415, /content encoding "gzip"/);
    const json = kubernetesBody("v1", "Namespace", new Uint8Array(), bytesField(4, "application/json"));
    assertApiError(() => decodeKubernetesProtobuf(json), 415, /application\/json/);
  });

  test("a field of the wrong wire type is a 400 naming its path", () => {
    assertApiError(
      () => decodeKubernetesProtobuf(namespaceBody(varintField(1, 7))),
      400,
      /metadata\.name: wire type varint/,
    );
  });
});

describe("decodeKubernetesProtobuf field semantics", () => {
  test("skips unknown fields, as upstream's Unmarshal does", () => {
    const decoded = decodeKubernetesProtobuf(
      namespaceBody(bytesField(1, "a"), bytesField(99, "future"), varintField(98, 1)),
    );
    assert.deepEqual(decoded, { kind: "Namespace", apiVersion: "v1", metadata: { name: "a" } });
  });

  test("drops zero omitempty scalars, keeps zero pointers and fields without omitempty", () => {
    const spec = messageField(
      2,
      varintField(1, 0),
      varintField(5, 0),
      varintField(7, false),
      bytesField(4, ""),
    );
    const deployment = decodeKubernetesProtobuf(kubernetesBody("apps/v1", "Deployment", spec));
    assert.deepEqual(deployment.spec, { replicas: 0, strategy: {} }); // *int32 replicas; minReadySeconds, paused dropped

    const priority = decodeKubernetesProtobuf(
      kubernetesBody("scheduling.k8s.io/v1", "PriorityClass", concat(varintField(2, 0), bytesField(4, ""))),
    );
    assert.deepEqual(priority, { kind: "PriorityClass", apiVersion: "scheduling.k8s.io/v1", value: 0 });

    const roleRef = messageField(3, bytesField(1, ""), bytesField(2, "ClusterRole"), bytesField(3, "view"));
    const binding = decodeKubernetesProtobuf(
      kubernetesBody("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", roleRef),
    );
    assert.deepEqual(binding.roleRef, { apiGroup: "", kind: "ClusterRole", name: "view" });
  });

  test("writes the zero creationTimestamp as null and a set one in RFC 3339", () => {
    const zero = decodeKubernetesProtobuf(namespaceBody(bytesField(8, new Uint8Array())));
    assert.deepEqual(zero.metadata, { creationTimestamp: null });
    const set = decodeKubernetesProtobuf(namespaceBody(messageField(8, varintField(1, 1714979289))));
    assert.deepEqual(set.metadata, { creationTimestamp: "2024-05-06T07:08:09Z" });
  });

  test("merges a repeated singular message and accumulates maps and lists", () => {
    const body = kubernetesBody(
      "v1",
      "Namespace",
      concat(
        objectMeta(bytesField(1, "a"), mapEntry(11, "x", "1"), bytesField(14, "f1")),
        objectMeta(mapEntry(11, "y", "2"), mapEntry(11, "x", "3"), bytesField(14, "f2")),
      ),
    );
    assert.deepEqual(decodeKubernetesProtobuf(body).metadata, {
      name: "a",
      labels: { x: "3", y: "2" },
      finalizers: ["f1", "f2"],
    });
  });

  test('a "__proto__" label is an own property, as JSON.parse makes it', () => {
    const metadata = decodeKubernetesProtobuf(namespaceBody(mapEntry(11, "__proto__", "x")))
      .metadata as JsonObject;
    assert.deepEqual(Object.keys(metadata.labels as JsonObject), ["__proto__"]);
    assert.equal(Object.getPrototypeOf(metadata.labels), Object.prototype);
  });

  test("a map entry without a value is the value type's zero; secret data is base64", () => {
    const data = concat(
      messageField(2, bytesField(1, "empty")),
      messageField(2, bytesField(1, "bin"), bytesField(2, Uint8Array.of(0, 255))),
    );
    const secret = decodeKubernetesProtobuf(kubernetesBody("v1", "Secret", data));
    assert.deepEqual(secret.data, { empty: "", bin: "AP8=" });
  });

  test("inlines the probe handler and reads packed and unpacked repeated integers alike", () => {
    const probe = messageField(
      10,
      messageField(1, messageField(1, bytesField(1, "true"))),
      varintField(4, 5),
    );
    const container = messageField(2, bytesField(1, "c"), probe);
    const packedGroups = messageField(14, bytesField(4, Uint8Array.of(1, 2)));
    const unpackedGroups = messageField(14, varintField(4, 3));
    const podSpec = messageField(2, concat(container, packedGroups, unpackedGroups));
    const template = messageField(6, podSpec); // JobSpec.template
    const job = decodeKubernetesProtobuf(kubernetesBody("batch/v1", "Job", messageField(2, template)));
    const spec = ((job.spec as JsonObject).template as JsonObject).spec as JsonObject;
    assert.deepEqual(spec.containers, [
      { name: "c", livenessProbe: { exec: { command: ["true"] }, periodSeconds: 5 } },
    ]);
    assert.deepEqual(spec.securityContext, { supplementalGroups: [1, 2, 3] });
  });
});
