/** Who made a request, as kube-apiserver's authenticators report it. */
export interface UserInfo {
  username: string;
  uid: string;
  groups: string[];
  /** Extra attributes (impersonation's `Impersonate-Extra-*`); authenticators here set none. */
  extra?: Record<string, string[]>;
}

/**
 * Turns a request's credentials into a user. Implementations (static tokens, service-account
 * JWTs, ...) answer undefined for credentials they do not recognise, so they can be chained.
 */
export interface Authenticator {
  authenticate(authorizationHeader: string | undefined): UserInfo | undefined;
}

/** Every authenticated user is in this group (kube-apiserver adds it after authentication). */
export const authenticatedGroup = "system:authenticated";

export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(authenticatedGroup)) return user;
  return { ...user, groups: [...user.groups, authenticatedGroup] };
}

/**
 * The token of an `Authorization: Bearer <token>` header (the scheme is case-insensitive, as in
 * client-go), or undefined for any other header.
 */
export function bearerToken(authorizationHeader: string | undefined): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(authorizationHeader ?? "");
  return match?.[1];
}

/** Asks each authenticator in turn; the first that recognises the credentials wins. */
export function chainAuthenticators(authenticators: readonly Authenticator[]): Authenticator {
  return {
    authenticate(authorizationHeader) {
      for (const authenticator of authenticators) {
        const user = authenticator.authenticate(authorizationHeader);
        if (user) return user;
      }
      return undefined;
    },
  };
}
