/**
 * How `virtctl version` prints KubeVirt's version.Info for the client and the server (virt-api's
 * `/version`): KubeVirt's Go `%#v` shape, `version.Info{GitVersion:"v1.0.0", ...}`.
 */

/** `version.Info{GitVersion:"v0.1.0", GitCommit:"", ...}`: the fields in the order given, capitalised. */
export function formatVersionInfo(info: Readonly<Record<string, unknown>>): string {
  const fields = Object.entries(info).map(([key, value]) => {
    const name = key.charAt(0).toUpperCase() + key.slice(1);
    return `${name}:${typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value ?? null)}`;
  });
  return `version.Info{${fields.join(", ")}}`;
}
