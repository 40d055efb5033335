/**
 * Kubernetes' `$(VAR)` expansion in env values, command and args: `$(NAME)` becomes the
 * variable's value when it is defined and stays as written otherwise; `$$` is a literal `$`.
 */
export function expandVariables(input: string, lookup: (name: string) => string | undefined): string {
  let output = "";
  let index = 0;
  while (index < input.length) {
    const dollar = input.indexOf("$", index);
    if (dollar < 0 || dollar === input.length - 1) {
      output += input.slice(index);
      break;
    }
    output += input.slice(index, dollar);
    const next = input[dollar + 1];
    if (next === "$") {
      output += "$";
      index = dollar + 2;
      continue;
    }
    if (next === "(") {
      const close = input.indexOf(")", dollar + 2);
      if (close < 0) {
        output += input.slice(dollar);
        break;
      }
      const name = input.slice(dollar + 2, close);
      output += lookup(name) ?? `$(${name})`;
      index = close + 1;
      continue;
    }
    output += `$${next}`;
    index = dollar + 2;
  }
  return output;
}
