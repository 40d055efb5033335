import assert from "node:assert/strict";
import { test } from "node:test";
import { jsonEqual } from "../../../runtime/objects/json-equality.js";
import { ApiError } from "../api-error.js";
import { decodeKubernetesProtobuf } from "./decode-kubernetes-protobuf.js";
import { loadFixtures } from "./testing/kubectl-fixtures.js";

/** mulberry32: a small seeded generator, so a failure reproduces. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

type Mutation = (body: number[], at: number, random: () => number) => void;

const MUTATIONS: Mutation[] = [
  (body, at, random) => {
    body[at] = (body[at] ?? 0) ^ (1 << Math.floor(random() * 8)); // flip a bit
  },
  (body, at, random) => {
    body[at] = Math.floor(random() * 256); // replace a byte
  },
  (body, at) => {
    body[at] = 0xff; // a varint that goes on
  },
  (body, at, random) => {
    body.splice(at, 1 + Math.floor(random() * 8)); // delete a run
  },
  (body, at, random) => {
    body.splice(
      at,
      0,
      ...Array.from({ length: 1 + Math.floor(random() * 8) }, () => Math.floor(random() * 256)),
    );
  },
  (body, at, random) => {
    body.splice(at, 0, ...body.slice(at, at + 1 + Math.floor(random() * 32))); // duplicate a run
  },
  (body, at) => {
    body.length = at; // truncate
  },
];

function mutate(original: Uint8Array, random: () => number): Uint8Array {
  const body = [...original];
  const count = 1 + Math.floor(random() * 4);
  for (let i = 0; i < count; i++) {
    // Mostly past the magic, so the decoding goes deep.
    const start = random() < 0.9 ? 4 : 0;
    const at = start + Math.floor(random() * Math.max(1, body.length - start));
    MUTATIONS[Math.floor(random() * MUTATIONS.length)]?.(body, at, random);
  }
  return Uint8Array.from(body);
}

test("mutated kubectl bodies decode to JSON or throw a 400/415 ApiError, quickly", () => {
  const random = seededRandom(20250601);
  const fixtures = loadFixtures();
  const outcomes = { decoded: 0, 400: 0, 415: 0 };
  let slowest = 0;
  for (const fixture of fixtures) {
    for (let round = 0; round < 400; round++) {
      const body = mutate(fixture.body, random);
      const started = performance.now();
      try {
        const decoded = decodeKubernetesProtobuf(body);
        assert.ok(jsonEqual(JSON.parse(JSON.stringify(decoded)), decoded), `${fixture.name}: not plain JSON`);
        outcomes.decoded++;
      } catch (error) {
        const context = `${fixture.name} round ${round} (${Buffer.from(body).toString("base64")})`;
        assert.ok(error instanceof ApiError, `${context}: threw ${String(error)}`);
        assert.ok(error.code === 400 || error.code === 415, `${context}: code ${error.code}`);
        outcomes[error.code]++;
      }
      slowest = Math.max(slowest, performance.now() - started);
    }
  }
  // A hang check, not a speed target: a quadratic or endless decode would take far longer.
  assert.ok(slowest < 5_000, `the slowest decode took ${slowest} ms`);
  // Each outcome happens, so the mutations reach past the envelope.
  assert.ok(outcomes.decoded > 0 && outcomes[400] > 0 && outcomes[415] > 0, JSON.stringify(outcomes));
});

test("hostile lengths and sizes end in a 400, not in a hang", () => {
  const magic = [0x6b, 0x38, 0x73, 0x00];
  const bodies = [
    [...magic, 0x12, 0xff, 0xff, 0xff, 0xff, 0x0f], // raw claims 4 GiB
    [...magic, ...new Array(100_000).fill(0xff)], // one endless varint
    [...magic, ...new Array(100_000).fill(0x0a)], // field 1, length 10, again and again
  ];
  for (const body of bodies) {
    const started = performance.now();
    assert.throws(
      () => decodeKubernetesProtobuf(Uint8Array.from(body)),
      (e: unknown) => e instanceof ApiError && e.code === 400,
    );
    assert.ok(performance.now() - started < 5_000);
  }
});
