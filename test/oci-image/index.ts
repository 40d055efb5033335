// Test images for registries: tar layers, manifests and indexes, and a pusher.
export * from "./container-disk-image.js";
export * from "./oci-image.js";
export * from "./push-image.js";
