/**
 * TLS material a component serves or connects with: its certificate and key, and the CA bundle it
 * trusts for its peers. virt-operator issues them into Secrets (data keys `tls.crt`, `tls.key`,
 * `ca.crt`) and rotates them; components read those Secrets through the API and pick up a rotation
 * without a restart.
 */
export interface TlsMaterial {
  certPem: string;
  keyPem: string;
  /** The CA bundle to verify peers with (clients for a server, servers for a client). */
  caPem: string;
}

/** The current material, and a way to hear about the next one. */
export interface TlsMaterialSource {
  /** undefined until the Secret has been read (and while it does not exist). */
  current(): TlsMaterial | undefined;
  /** Called with each new material; returns a function that stops listening. */
  onChange(listener: (material: TlsMaterial) => void): () => void;
}

/**
 * The first material of `source`: at once when it has one, else when it gets one. Resolves
 * undefined when `signal` aborts first.
 */
export function firstMaterial(
  source: TlsMaterialSource,
  signal: AbortSignal,
): Promise<TlsMaterial | undefined> {
  const current = source.current();
  if (current !== undefined || signal.aborted) return Promise.resolve(current);
  return new Promise((resolve) => {
    const stopListening = source.onChange((material) => {
      stopListening();
      signal.removeEventListener("abort", onAbort);
      resolve(material);
    });
    const onAbort = (): void => {
      stopListening();
      resolve(undefined);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** KubeVirt's names for the Secrets holding the certificates (in the install namespace). */
export const CERTIFICATE_SECRETS = {
  /** The CA that signs the others (`tls.crt`, `tls.key`). */
  ca: "kubevirt-ca",
  /** virt-api's serving certificate (for the aggregation layer and the webhooks). */
  apiServer: "kubevirt-virt-api-certs",
  /**
   * virt-handler's serving certificate (its console/VNC server and its /metrics); `ca.crt`
   * verifies virt-api's client certificate.
   */
  handlerServer: "kubevirt-virt-handler-server-certs",
  /** virt-api's client certificate towards virt-handler; `ca.crt` verifies virt-handler's server. */
  handlerClient: "kubevirt-virt-handler-certs",
  /** virt-controller's serving certificate (its /metrics over HTTPS). */
  controllerServer: "kubevirt-controller-certs",
  /** virt-operator's serving certificate (its /metrics over HTTPS). */
  operatorServer: "kubevirt-operator-certs",
} as const;

/**
 * The subject common name of virt-api's client certificate towards virt-handler (KubeVirt's):
 * virt-operator issues it, virt-handler's console server admits no other. The CA alone does not
 * say who calls, since every component's certificate comes from the same CA.
 */
export const VIRT_API_CLIENT_COMMON_NAME = "virt-api";
