import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { createCertificateAuthority } from "../../dev-cluster/apiserver/tls/x509-issuer.js";
import { parseRequestHeaderConfig } from "./request-header-config.js";

describe("request-header settings from extension-apiserver-authentication", () => {
  let first: string;
  let second: string;
  before(async () => {
    first = (await createCertificateAuthority("front-proxy-ca", 1)).certPem;
    second = (await createCertificateAuthority("front-proxy-ca-next", 1)).certPem;
  });

  test("kube-apiserver's keys: JSON lists, header names lower-cased, every CA of the bundle", () => {
    const config = parseRequestHeaderConfig({
      "client-ca-file": "not ours to read",
      "requestheader-client-ca-file": `${first}\n${second}`,
      "requestheader-allowed-names": '["front-proxy-client"]',
      "requestheader-username-headers": '["X-Remote-User"]',
      "requestheader-group-headers": '["X-Remote-Group"]',
      "requestheader-extra-headers-prefix": '["X-Remote-Extra-"]',
    });
    assert.ok(config);
    assert.deepEqual(config.allowedNames, ["front-proxy-client"]);
    assert.deepEqual(config.usernameHeaders, ["x-remote-user"]);
    assert.deepEqual(config.groupHeaders, ["x-remote-group"]);
    assert.deepEqual(config.extraHeaderPrefixes, ["x-remote-extra-"]);
    assert.deepEqual(config.uidHeaders, []);
    assert.equal(config.caCertificates.length, 2);
  });

  test("no CA or no username header configures nothing (nobody is trusted); an empty allowed list allows any name", () => {
    assert.equal(parseRequestHeaderConfig(undefined), undefined);
    assert.equal(
      parseRequestHeaderConfig({ "requestheader-username-headers": '["X-Remote-User"]' }),
      undefined,
    );
    assert.equal(parseRequestHeaderConfig({ "requestheader-client-ca-file": first }), undefined);
    const open = parseRequestHeaderConfig({
      "requestheader-client-ca-file": first,
      "requestheader-allowed-names": "[]",
      "requestheader-username-headers": '["X-Remote-User"]',
    });
    assert.deepEqual(open?.allowedNames, []);
  });

  test("malformed values are errors that say which key", () => {
    assert.throws(
      () =>
        parseRequestHeaderConfig({
          "requestheader-client-ca-file": first,
          "requestheader-username-headers": "X-Remote-User",
        }),
      /requestheader-username-headers is not a JSON list/,
    );
    assert.throws(
      () =>
        parseRequestHeaderConfig({
          "requestheader-client-ca-file": "garbage",
          "requestheader-username-headers": '["X-Remote-User"]',
        }),
      /holds no PEM certificate/,
    );
  });
});
