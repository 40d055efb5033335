// stop/restart's --grace-period and --force, checked as KubeVirt's virtctl checks them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { forcedGracePeriod, GRACE_PERIOD_UNSET } from "./grace-period.js";

test("only --force --grace-period=0 forces; either alone is refused", () => {
  assert.equal(forcedGracePeriod({ gracePeriod: GRACE_PERIOD_UNSET, force: false }), undefined);
  assert.equal(forcedGracePeriod({ gracePeriod: 0, force: true }), 0);
  assert.throws(
    () => forcedGracePeriod({ gracePeriod: GRACE_PERIOD_UNSET, force: true }),
    /--force needs --grace-period=0/,
  );
  assert.throws(() => forcedGracePeriod({ gracePeriod: 30, force: true }), /--force needs --grace-period=0/);
  assert.throws(() => forcedGracePeriod({ gracePeriod: 0, force: false }), /--grace-period needs --force/);
});
