// The media types a pushed image carries (OCI image-spec and Docker's manifest v2 schema 2).

export type ManifestFormat = "oci" | "docker";
export type LayerCompression = "gzip" | "zstd" | "none";

export const MEDIA_TYPES = {
  oci: {
    manifest: "application/vnd.oci.image.manifest.v1+json",
    index: "application/vnd.oci.image.index.v1+json",
    config: "application/vnd.oci.image.config.v1+json",
    layer: {
      gzip: "application/vnd.oci.image.layer.v1.tar+gzip",
      zstd: "application/vnd.oci.image.layer.v1.tar+zstd",
      none: "application/vnd.oci.image.layer.v1.tar",
    },
  },
  docker: {
    manifest: "application/vnd.docker.distribution.manifest.v2+json",
    index: "application/vnd.docker.distribution.manifest.list.v2+json",
    config: "application/vnd.docker.container.image.v1+json",
    // Docker's schema has no zstd layer type of its own; what docker itself writes is the OCI one.
    layer: {
      gzip: "application/vnd.docker.image.rootfs.diff.tar.gzip",
      zstd: "application/vnd.oci.image.layer.v1.tar+zstd",
      none: "application/vnd.docker.image.rootfs.diff.tar",
    },
  },
} as const;
