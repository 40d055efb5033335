import assert from "node:assert/strict";
import { test } from "node:test";
import { AgentProbeState, agentProbeKind, STARTUP_DELAY_SECONDS } from "./agent-probe-state.js";

test("only exec and guestAgentPing run through the agent", () => {
  assert.equal(agentProbeKind({ exec: { command: ["true"] } }), "exec");
  assert.equal(agentProbeKind({ guestAgentPing: {} }), "guestAgentPing");
  assert.equal(agentProbeKind({ tcpSocket: { port: 22 } }), undefined);
  assert.equal(agentProbeKind(undefined), undefined);
});

test("schedule and thresholds: initial delay + startup delay, period, success and failure counts", () => {
  const start = 1_000_000;
  const probe = {
    guestAgentPing: {},
    initialDelaySeconds: 5,
    periodSeconds: 2,
    successThreshold: 2,
    failureThreshold: 2,
    timeoutSeconds: 3,
  };
  const state = new AgentProbeState(probe, start, false);
  const first = start + (5 + STARTUP_DELAY_SECONDS) * 1000;
  assert.equal(state.due(first - 1), false);
  assert.equal(state.due(first), true);
  assert.equal(state.timeoutMs, 4000);
  assert.equal(state.record({ success: true }, first), false, "one success of two");
  assert.equal(state.due(first + 1999), false);
  assert.equal(state.record({ success: true }, first + 2000), true, "passing after two");
  assert.equal(state.record({ success: false, message: "no" }, first + 4000), false, "one failure of two");
  assert.equal(state.passing, true);
  assert.equal(state.record({ success: false, message: "still no" }, first + 6000), true);
  assert.equal(state.passing, false);
  assert.equal(state.message, "still no");
});

test("KubeVirt's defaults: timeout 1 s (+1), period 10 s, one success, three failures; liveness starts passing", () => {
  const state = new AgentProbeState({ exec: { command: ["true"] } }, 0, true);
  const at = STARTUP_DELAY_SECONDS * 1000;
  assert.equal(state.timeoutMs, 2000);
  state.record({ success: false }, at);
  state.record({ success: false }, at + 10_000);
  assert.equal(state.passing, true);
  assert.equal(state.due(at + 19_999), false);
  assert.equal(state.record({ success: false }, at + 20_000), true);
  assert.equal(state.passing, false);
});
