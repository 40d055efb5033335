// WWW-Authenticate challenges (RFC 7235 §4.1): `Bearer realm="...",service="...",scope="..."` from token
// registries (distribution's token.md), `Basic realm="..."` from registries behind htpasswd. A header may
// hold several challenges separated by commas; a token not followed by "=" starts the next one.

export interface AuthChallenge {
  /** Lowercase ("bearer", "basic"). */
  readonly scheme: string;
  /** Parameter names lowercase, values unquoted. */
  readonly params: Readonly<Record<string, string>>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

export function parseWwwAuthenticate(header: string): AuthChallenge[] {
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  let rest = header;
  const skipSpaceAndCommas = () => {
    rest = rest.replace(/^[\s,]+/, "");
  };
  for (;;) {
    skipSpaceAndCommas();
    const scheme = TOKEN.exec(rest)?.[0];
    if (scheme === undefined) return challenges;
    rest = rest.slice(scheme.length);
    const challenge = { scheme: scheme.toLowerCase(), params: {} as Record<string, string> };
    challenges.push(challenge);
    for (;;) {
      skipSpaceAndCommas();
      const param = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*/.exec(rest);
      if (!param?.[1]) break;
      rest = rest.slice(param[0].length);
      let value: string;
      if (rest.startsWith('"')) {
        value = "";
        let index = 1;
        for (; index < rest.length && rest[index] !== '"'; index++) {
          if (rest[index] === "\\" && index + 1 < rest.length) index++;
          value += rest[index];
        }
        rest = rest.slice(index + 1);
      } else {
        value = /^[^,\s]*/.exec(rest)?.[0] ?? "";
        rest = rest.slice(value.length);
      }
      challenge.params[param[1].toLowerCase()] = value;
    }
  }
}
