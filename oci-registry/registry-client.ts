// GETs against one registry endpoint with its authentication: a 401's challenge decides how to retry once
// (Bearer: a token from the realm, anonymous or with the pull secret's Basic credentials; Basic: the
// credentials themselves). Registry errors keep the registry's own text ("manifest unknown: ...").
import type { RegistryCredentials } from "./docker-config.js";
import type { RegistryEndpoint } from "./registry-endpoint.js";
import { type HttpResponse, httpGet, readLimited } from "./registry-http.js";
import type { TokenCache } from "./token-cache.js";
import { type AuthChallenge, parseWwwAuthenticate } from "./www-authenticate.js";

/** The registry answered with an error status; `message` is its error text. */
export class RegistryResponseError extends Error {
  override readonly name = "RegistryResponseError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const ERROR_BODY_LIMIT = 64 * 1024;
const TOKEN_BODY_LIMIT = 1024 * 1024;
/** distribution's token.md: expires_in defaults to 60 seconds. */
const DEFAULT_TOKEN_SECONDS = 60;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** "manifest unknown: manifest unknown" from distribution's `{"errors": [{code, message, detail}]}`. */
async function registryErrorText(response: HttpResponse): Promise<string> {
  let body = "";
  try {
    body = (await readLimited(response.body, ERROR_BODY_LIMIT, "the error body")).toString("utf8");
  } catch {
    response.body.destroy();
  }
  try {
    const parsed: unknown = JSON.parse(body);
    const errors = isRecord(parsed) && Array.isArray(parsed.errors) ? parsed.errors : [];
    const texts = errors.filter(isRecord).map((error) => {
      const code = typeof error.code === "string" ? error.code.toLowerCase().replaceAll("_", " ") : "error";
      const message = typeof error.message === "string" ? error.message : "";
      return message === "" ? code : `${code}: ${message}`;
    });
    if (texts.length > 0) return texts.join("; ");
  } catch {
    // Not distribution's JSON: the status and a bit of the body say what happened.
  }
  const snippet = body.replace(/\s+/g, " ").trim().slice(0, 200);
  return `HTTP ${response.status}${snippet === "" ? "" : `: ${snippet}`}`;
}

function basic(credentials: RegistryCredentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
}

export interface RegistryClientOptions {
  readonly endpoint: RegistryEndpoint;
  readonly credentials?: RegistryCredentials;
  readonly tokens: TokenCache;
  /** Called before every request to the endpoint (not to token realms): a test seam and a debug log. */
  readonly onRequest?: (url: URL) => void;
}

export class RegistryClient {
  readonly #options: RegistryClientOptions;
  readonly #scope: string;

  constructor(options: RegistryClientOptions) {
    this.#options = options;
    this.#scope = `repository:${options.endpoint.repository}:pull`;
  }

  get endpoint(): RegistryEndpoint {
    return this.#options.endpoint;
  }

  /** GET `<apiRoot>/<repository>/<path>`; a response with status 200, or a RegistryResponseError. */
  async get(path: string, accept?: string): Promise<HttpResponse> {
    const { endpoint } = this.#options;
    const url = new URL(`${endpoint.origin}${endpoint.apiRoot}/${endpoint.repository}/${path}`);
    if (endpoint.namespace !== undefined) url.searchParams.set("ns", endpoint.namespace);
    const headers: Record<string, string> = accept === undefined ? {} : { accept };
    const known = this.#options.tokens.challenge(endpoint.origin);
    const cached = known === undefined ? undefined : this.#cachedAuthorization(known);
    let response = await this.#send(
      url,
      cached === undefined ? headers : { ...headers, authorization: cached },
    );
    if (response.status === 401) {
      const authorization = await this.#authorize(response);
      response = await this.#send(url, { ...headers, authorization });
    }
    if (response.status !== 200) {
      throw new RegistryResponseError(response.status, await registryErrorText(response));
    }
    return response;
  }

  #send(url: URL, headers: Record<string, string>): Promise<HttpResponse> {
    this.#options.onRequest?.(url);
    return httpGet(url, { headers, skipVerify: this.#options.endpoint.skipVerify });
  }

  #tokenKey(challenge: AuthChallenge): string {
    const { realm = "", service = "" } = challenge.params;
    const user = this.#options.credentials?.username ?? "";
    return JSON.stringify([this.#options.endpoint.origin, realm, service, this.#scope, user]);
  }

  #cachedAuthorization(challenge: AuthChallenge): string | undefined {
    if (challenge.scheme === "basic") {
      return this.#options.credentials === undefined ? undefined : basic(this.#options.credentials);
    }
    const token = this.#options.tokens.token(this.#tokenKey(challenge));
    return token === undefined ? undefined : `Bearer ${token}`;
  }

  /** The Authorization to retry with after `response` (a 401), or the registry's refusal. */
  async #authorize(response: HttpResponse): Promise<string> {
    const header = response.headers["www-authenticate"];
    const refusal = await registryErrorText(response);
    const challenges = parseWwwAuthenticate(Array.isArray(header) ? header.join(", ") : (header ?? ""));
    const challenge =
      challenges.find((c) => c.scheme === "bearer" && c.params.realm) ??
      challenges.find((c) => c.scheme === "basic");
    if (challenge === undefined) throw new RegistryResponseError(401, refusal);
    this.#options.tokens.rememberChallenge(this.#options.endpoint.origin, challenge);
    if (challenge.scheme === "basic") {
      if (this.#options.credentials === undefined) {
        throw new RegistryResponseError(
          401,
          `${refusal} (no pull secret has credentials for ${this.#options.endpoint.credentialHost})`,
        );
      }
      return basic(this.#options.credentials);
    }
    return `Bearer ${await this.#fetchToken(challenge)}`;
  }

  async #fetchToken(challenge: AuthChallenge): Promise<string> {
    const key = this.#tokenKey(challenge);
    const cached = this.#options.tokens.token(key);
    if (cached !== undefined) return cached;
    const realm = new URL(challenge.params.realm ?? "");
    if (challenge.params.service !== undefined) realm.searchParams.set("service", challenge.params.service);
    realm.searchParams.append("scope", this.#scope);
    const { credentials } = this.#options;
    if (
      realm.protocol !== "https:" &&
      (this.#options.endpoint.origin.startsWith("https:") || realm.protocol !== "http:")
    ) {
      // An https registry naming a plain-http token service would have the pull secret sent in clear text.
      throw new RegistryResponseError(401, `the token service ${realm.origin} is not https, the registry is`);
    }
    const headers: Record<string, string> =
      credentials === undefined ? {} : { authorization: basic(credentials) };
    const skipVerify = this.#options.endpoint.skipVerify && realm.origin === this.#options.endpoint.origin;
    const response = await httpGet(realm, { headers, skipVerify });
    if (response.status !== 200) {
      const text = await registryErrorText(response);
      throw new RegistryResponseError(response.status, `the token service ${realm.origin} refused: ${text}`);
    }
    const body: unknown = JSON.parse(
      (await readLimited(response.body, TOKEN_BODY_LIMIT, "the token")).toString("utf8"),
    );
    const token = isRecord(body) ? (body.token ?? body.access_token) : undefined;
    if (typeof token !== "string" || token === "") {
      throw new RegistryResponseError(502, `the token service ${realm.origin} sent no token`);
    }
    const expiresIn =
      isRecord(body) && typeof body.expires_in === "number" ? body.expires_in : DEFAULT_TOKEN_SECONDS;
    this.#options.tokens.store(key, token, expiresIn);
    return token;
  }
}
