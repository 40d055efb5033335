import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeSecretFile } from "../tls/secret-file.js";

/** The key pair service-account tokens are signed with (ES256: ECDSA on P-256 with SHA-256). */
export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The JWS `kid`: base64url SHA-256 of the public key's DER (SPKI), as kube-apiserver names its keys. */
  keyId: string;
}

export function signingKeyFromPem(privateKeyPem: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(privateKeyPem);
  } catch (error) {
    throw new Error("the service-account signing key is not a PEM private key", { cause: error });
  }
  if (privateKey.asymmetricKeyType !== "ec" || privateKey.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
    throw new Error("the service-account signing key must be an EC P-256 key (ES256)");
  }
  const publicKey = createPublicKey(privateKey);
  const der = publicKey.export({ type: "spki", format: "der" });
  return { privateKey, publicKey, keyId: createHash("sha256").update(der).digest("base64url") };
}

/** A fresh P-256 key in PKCS#8 PEM. */
export function generateSigningKeyPem(): string {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  return privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

/**
 * The signing key under `<dataDir>/pki/sa.key` (kubeadm's name), created once and reused, so
 * tokens issued before a restart stay valid. The public half is written next to it as `sa.pub`
 * for anyone who wants to verify tokens offline.
 */
export async function ensureSigningKeyFile(dataDir: string): Promise<string> {
  const keyPath = join(dataDir, "pki", "sa.key");
  try {
    const pem = await readFile(keyPath, "utf8");
    signingKeyFromPem(pem);
    return pem;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new Error(`cannot use the service-account signing key ${keyPath}`, { cause: error });
    }
  }
  const pem = generateSigningKeyPem();
  const publicPem = signingKeyFromPem(pem).publicKey.export({ type: "spki", format: "pem" }).toString();
  await writeSecretFile(join(dataDir, "pki", "sa.pub"), publicPem, 0o644);
  await writeSecretFile(keyPath, pem, 0o600);
  return pem;
}
