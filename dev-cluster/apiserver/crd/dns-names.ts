/**
 * apimachinery's name validators (k8s.io/apimachinery/pkg/util/validation): each returns the
 * list of problems, worded as kube-apiserver words them, empty when the value is fine.
 */

const DNS1123_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = "[a-z]([-a-z0-9]*[a-z0-9])?";

const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const DNS1123_LABEL_RE = new RegExp(`^${DNS1123_LABEL}$`);
const DNS1035_LABEL_RE = new RegExp(`^${DNS1035_LABEL}$`);

/** validation.RegexError: the message, examples and the regex, as apimachinery formats them. */
function regexError(message: string, regex: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${regex}')`;
  const shown = examples.map((example) => `'${example}', `).join(" or ");
  return `${message} (e.g. ${shown}regex used for validation is '${regex}')`;
}

function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

export function isDns1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 253) errors.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    errors.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN,
        "example.com",
      ),
    );
  }
  return errors;
}

export function isDns1123Label(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLenError(63));
  if (!DNS1123_LABEL_RE.test(value)) {
    errors.push(
      regexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        DNS1123_LABEL,
        "my-name",
        "123-abc",
      ),
    );
  }
  return errors;
}

export function isDns1035Label(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLenError(63));
  if (!DNS1035_LABEL_RE.test(value)) {
    errors.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL,
        "my-name",
        "abc-123",
      ),
    );
  }
  return errors;
}

/**
 * NameIsDNSSubdomain: with `prefix` (a generateName) a trailing '-' is allowed, since a random
 * suffix follows it.
 */
export function nameIsDnsSubdomain(name: string, prefix: boolean): string[] {
  return isDns1123Subdomain(prefix ? maskTrailingDash(name) : name);
}

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith("-") ? `${name.slice(0, -2)}a` : name;
}

/** path.ValidatePathSegmentName: what an embedded resource's metadata.name may not be. */
export function pathSegmentNameErrors(name: string, prefix: boolean): string[] {
  const errors: string[] = [];
  if (!prefix && (name === "." || name === "..")) errors.push(`may not be '${name}'`);
  for (const illegal of ["/", "%"]) {
    if (name.includes(illegal)) errors.push(`may not contain '${illegal}'`);
  }
  return errors;
}
