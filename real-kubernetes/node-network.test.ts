// The forwarding guard is checked by nft itself (`nft --check`: parsed and validated by the
// kernel's rules engine, applied nowhere).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { describe, test } from "node:test";
import { forwardGuard } from "./node-network.js";

function nftCheck(script: string): Promise<void> {
  return new Promise((resolveCheck, reject) => {
    const child = execFile("nft", ["--check", "-f", "-"], (error, _stdout, stderr) =>
      error ? reject(new Error(`nft --check: ${stderr}`, { cause: error })) : resolveCheck(),
    );
    child.stdin?.end(script);
  });
}

describe("the node's forwarding guard", () => {
  test("when this turns forwarding on: policy drop, only the pod bridge to itself", async () => {
    const script = forwardGuard(false);
    assert.match(script, /policy drop;/);
    assert.match(script, /iifname "kvts-cni0" oifname "kvts-cni0" accept/);
    await nftCheck(script);
  });

  test("when forwarding was on: everything else as before, nothing between the pod bridge and other interfaces", async () => {
    const script = forwardGuard(true);
    assert.match(script, /policy accept;/);
    assert.match(script, /iifname "kvts-cni0" oifname != "kvts-cni0" drop/);
    assert.match(script, /oifname "kvts-cni0" iifname != "kvts-cni0" drop/);
    await nftCheck(script);
  });
});
