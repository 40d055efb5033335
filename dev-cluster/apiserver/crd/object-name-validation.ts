import type { StatusCause } from "../api-error.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { nameIsDnsSubdomain } from "./dns-names.js";
import { invalid, required } from "./field-errors.js";

/** The name rules of a custom resource (ValidateObjectMeta with NameIsDNSSubdomain). */
export function objectNameErrors(object: JsonObject): StatusCause[] {
  const metadata = isJsonObject(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === "string" ? metadata.name : "";
  const generateName = typeof metadata.generateName === "string" ? metadata.generateName : "";
  const causes: StatusCause[] = [];
  if (generateName !== "") {
    for (const problem of nameIsDnsSubdomain(generateName, true)) {
      causes.push(invalid("metadata.generateName", generateName, problem));
    }
  }
  if (name === "" && generateName === "")
    causes.push(required("metadata.name", "name or generateName is required"));
  if (name !== "") {
    for (const problem of nameIsDnsSubdomain(name, false))
      causes.push(invalid("metadata.name", name, problem));
  }
  return causes;
}
