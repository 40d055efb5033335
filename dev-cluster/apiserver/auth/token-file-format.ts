/**
 * kube-apiserver's static token file (`--token-auth-file`): CSV lines of
 * `token,user,uid[,"group1,group2"]`.
 */
export interface TokenFileEntry {
  token: string;
  username: string;
  uid: string;
  groups: string[];
}

/** Splits one CSV line; fields may be double-quoted, with `""` for a quote inside. */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let index = 0;
  while (index <= line.length) {
    while (line[index] === " ") index++; // like Go's csv.Reader with TrimLeadingSpace
    let field = "";
    if (line[index] === '"') {
      index++;
      while (index < line.length && !(line[index] === '"' && line[index + 1] !== '"')) {
        field += line[index];
        index += line[index] === '"' ? 2 : 1;
      }
      index++; // the closing quote
      if (index < line.length && line[index] !== ",") throw new Error("text after a closing quote");
    } else {
      const end = line.indexOf(",", index);
      field = line.slice(index, end < 0 ? line.length : end);
      index = end < 0 ? line.length : end;
    }
    fields.push(field);
    index++; // the comma
  }
  return fields;
}

function quote(field: string): string {
  return /[",\s]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}

/** Parses a token file; blank lines and `#` comments are skipped. Throws naming the bad line. */
export function parseTokenFile(content: string, source: string): TokenFileEntry[] {
  const entries: TokenFileEntry[] = [];
  content.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "" || line.trimStart().startsWith("#")) return;
    const where = `${source}:${index + 1}`;
    let fields: string[];
    try {
      fields = csvFields(line);
    } catch (error) {
      throw new Error(`${where}: not a valid CSV line`, { cause: error });
    }
    const [token = "", username = "", uid = "", groups = ""] = fields;
    if (fields.length < 3 || token === "" || username === "") {
      throw new Error(`${where}: expected token,user,uid[,"groups"] with a token and a user`);
    }
    const groupList = groups.split(",").map((group) => group.trim());
    entries.push({ token, username, uid, groups: groupList.filter((group) => group !== "") });
  });
  return entries;
}

export function formatTokenFileLine(entry: TokenFileEntry): string {
  const fields = [entry.token, entry.username, entry.uid].map(quote);
  if (entry.groups.length > 0) fields.push(`"${entry.groups.join(",").replaceAll('"', '""')}"`);
  return fields.join(",");
}
